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
			for _, want := range []string{"recommended", "select all housekeeping", "clear all housekeeping", "details", "refresh", "quit", "help"} {
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

// TestInboxShortTerminalHidesNoCardWithoutAWord: a list taller than the
// terminal ends in a line that counts the cards below it and names the
// groups whose heading is hidden there, and the help line keeps enter.
func TestInboxShortTerminalHidesNoCardWithoutAWord(t *testing.T) {
	m := loaded(t, newFake(), 40, 12, Options{})
	v := ansi.Strip(m.View().Content)
	tuitest.AssertFits(t, m.View().Content, 40, 12)
	if !strings.Contains(v, "more below") || !strings.Contains(v, "Housekeeping (2)") {
		t.Errorf("a short list hides cards without a word:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	if help := lines[len(lines)-1]; !strings.HasPrefix(help, "enter") {
		t.Errorf("the help line at 40 columns drops enter: %q", help)
	}
}
