package tui

import "charm.land/bubbles/v2/key"

// PlainWord is a binding for the plain ?: what to type, and what it does.
// It binds nothing: plain mode reads lines, not keys.
func PlainWord(word, does string) key.Binding {
	return key.NewBinding(key.WithKeys(word), key.WithHelp(word, does))
}

// PlainAsksNothing is the plain ? of a screen whose plain twin takes no
// line at all (it prints what it finds and ends): nothing to type, rather
// than its full-screen keys, which plain mode would not take.
func PlainAsksNothing() []key.Binding {
	return []key.Binding{PlainWord("nothing", "this screen asks nothing in plain mode: it prints what it finds and ends (ctrl+c stops it)")}
}

// PlainKeys is what a ConfirmFlow's plain twin takes as a typed line now
// (the plain ?): only y or yes is a yes, any other line a no; an answer
// typed while it reads answers the question once asked; while it writes,
// or once it ended, nothing.
func (f *ConfirmFlow) PlainKeys() []key.Binding {
	yes, no := f.Yes.Help().Desc, f.No.Help().Desc
	switch f.Phase {
	case FlowReading:
		return []key.Binding{PlainWord("y", yes+", if it asks once the read is done (a line typed now answers the question)"),
			PlainWord("anything else", no)}
	case FlowAsking:
		return []key.Binding{PlainWord("y", yes), PlainWord("anything else", no)}
	case FlowWriting:
		return []key.Binding{PlainWord("nothing", "the writes under way land, then the screen ends (ctrl+c stops it once the write under way lands)")}
	}
	return []key.Binding{PlainWord("nothing", "this screen has ended")}
}
