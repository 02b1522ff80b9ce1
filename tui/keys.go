package tui

import "charm.land/bubbles/v2/key"

// KeyMap holds the bindings every screen shares. Screens add their own and
// list them all through Screen.Keys for the help line.
type KeyMap struct {
	Quit  key.Binding // q or ctrl+c
	Help  key.Binding // ? toggles the full help
	Up    key.Binding // up or k
	Down  key.Binding // down or j
	Next  key.Binding // tab moves to the next pane or field
	Prev  key.Binding // shift+tab moves back
	Enter key.Binding // enter chooses
}

// DefaultKeys returns the shared bindings with their help text.
func DefaultKeys() KeyMap {
	return KeyMap{
		Quit:  key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Next:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next")),
		Prev:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back")),
		Enter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
	}
}

// Disable returns a copy of b that cannot be pressed and whose help text says
// why, e.g. Disable(ship, "CI is still running") shows as
// "s ship (unavailable: CI is still running)". A disabled action stays in the
// help line so the person learns what blocks it instead of wondering where it
// went.
func Disable(b key.Binding, reason string) key.Binding {
	h := b.Help()
	b.SetHelp(h.Key, h.Desc+" (unavailable: "+reason+")")
	b.SetEnabled(false)
	return b
}

// YesKey is a confirmation's yes: y alone. Enter never writes (SPEC §5's
// "y as a line"; the full screen follows the same rule): a person who
// presses Enter to get past a question must not find a one-way step done.
func YesKey(help string) key.Binding {
	return key.NewBinding(key.WithKeys("y"), key.WithHelp("y", help))
}

// NoKey is a confirmation's no: n, esc, q, and Enter, which on every
// confirmation answers the default, and the default writes nothing.
func NoKey(help string) key.Binding {
	return key.NewBinding(key.WithKeys("n", "esc", "q", "enter"), key.WithHelp("n/esc/enter", help))
}
