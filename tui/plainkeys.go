package tui

import "charm.land/bubbles/v2/key"

// PlainWord is a binding for the plain ?: what to type, and what it does.
// It binds nothing: plain mode reads lines, not keys.
func PlainWord(word, does string) key.Binding {
	return key.NewBinding(key.WithKeys(word), key.WithHelp(word, does))
}
