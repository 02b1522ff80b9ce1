package inbox

import (
	"charm.land/bubbles/v2/key"

	"github.com/aayudha/aayu/tui"
)

// PlainKeys is what the plain inbox takes as a typed line now (the plain
// ?): its words, not the full screen's keys (no arrows, no /, no space),
// so nothing it lists is then refused.
func (m *Model) PlainKeys() []key.Binding {
	w := tui.PlainWord
	switch {
	case m.quit.quitAsk:
		return []key.Binding{w("a", "quit now: drop the writes waiting, finish the ones under way"),
			w("w", "wait for every write, then quit"), w("anything else", "do not quit")}
	case m.pend != nil && m.pend.note:
		return []key.Binding{w("a line of text", "your note on what you checked, sent with the approval")}
	case m.pend != nil:
		return []key.Binding{w("y", "apply it"), w("anything else", "cancel: write nothing")}
	}
	return []key.Binding{
		w("1-9", "pick that choice on the current card"),
		w("enter", "do the current card's recommendation"),
		w("s", "skip to the next card"),
		w("x N", "select housekeeping card N (e.g. x 2)"),
		w("X", "select all housekeeping"),
		w("C", "clear all housekeeping"),
		w("d", "show the card's details"),
		w("p", "the pack of the card's Story"),
		w("v", "verify the card's Story"),
		w("r", "read GitHub again"),
		w("copy N", "print card N's link on its own line, to copy (plain mode writes no clipboard)"),
		w("list", "list every card with its number"),
		w("q", "quit"),
	}
}

// PlainNote is the plain ?'s line under the words: the rule on order.
func (m *Model) PlainNote() string { return plainOrder }
