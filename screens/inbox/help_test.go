package inbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestInboxFullHelpGolden: ? lists every key of the inbox, those the help
// line has no room for included, at every width.
func TestInboxFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := loaded(t, newFake(), w, 24, Options{})
			view := tui.FullHelpView(m, w, 24, tui.NewStyles(true))
			tuitest.AssertFits(t, view, w, 24)
			v := ansi.Strip(view)
			for _, want := range []string{"recommendation", "select all housekeeping", "clear all housekeeping", "details", "refresh", "quit", "help"} {
				if !strings.Contains(v, want) {
					t.Errorf("the full help at %d lacks %q:\n%s", w, want, v)
				}
			}
			xgolden.RequireEqual(t, v)
		})
	}
}

// TestInboxNoteTakesQuestionMark: while the note line has the keyboard, ?
// is a character of the note, not the help.
func TestInboxNoteTakesQuestionMark(t *testing.T) {
	m := loaded(t, newFake(), 80, 24, Options{})
	if m.Typing() {
		t.Fatal("the inbox says it is typing before any note was asked")
	}
	m.pend = &pending{note: true}
	if !m.Typing() {
		t.Error("a note being typed does not keep ? for itself")
	}
}
