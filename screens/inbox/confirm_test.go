package inbox

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestInboxConfirmationNeverCutOff: a choice that asks first (option 2 of
// a Decision, not the recommendation) shows its whole confirmation and its
// keys on the card, however long the card is; where the pane cannot hold
// it, y does not apply it until the terminal is taller.
func TestInboxConfirmationNeverCutOff(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 16}, {120, 24}, {40, 24}, {40, 60}} {
		t.Run(fmt.Sprint(size[0], "x", size[1]), func(t *testing.T) {
			f := newFake()
			m := loaded(t, f, size[0], size[1], Options{})
			m.Update(tea.KeyPressMsg{Code: '2', Text: "2"})
			if m.pend == nil || len(m.pend.confirm) == 0 {
				t.Fatal("option 2 of the Decision did not ask first")
			}
			view := ansi.Strip(m.View().Content)
			tuitest.AssertFits(t, m.View().Content, size[0], size[1])
			words := strings.Fields(strings.TrimSuffix(m.pend.confirm[len(m.pend.confirm)-1], " "+model.ConfirmHint))
			tail := words[len(words)-1]
			shown := strings.Contains(view, "y applies it;") && strings.Contains(view, tail)
			if !shown && !strings.Contains(view, "too short to show every write") {
				t.Fatalf("the confirmation is cut off without a word (its end %q, its keys):\n%s", tail, view)
			}
			if !strings.Contains(view, "cancels") {
				t.Errorf("the keys that answer are cut off:\n%s", view)
			}
			m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
			if applied := m.pend == nil; shown != applied {
				t.Errorf("confirmation shown whole %v, but y applied it %v (message %q):\n%s", shown, applied, m.status.message, view)
			}
		})
	}
}

// TestInboxDoneLineIsSentences: what each write did reads as sentences,
// never "was posted; The label".
func TestInboxDoneLineIsSentences(t *testing.T) {
	got := sentences([]string{"The comment on #1 was posted", "the label status:accepted on #1 was added", ""})
	if want := "The comment on #1 was posted. The label status:accepted on #1 was added."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestInboxNarrowHeaderKeepsTheReadTime: at 40 columns the header still
// says when the cards were read, whole.
func TestInboxNarrowHeaderKeepsTheReadTime(t *testing.T) {
	m := loaded(t, newFake(), 40, 24, Options{})
	header := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
	if !strings.Contains(header, "read at 09:00:00 UTC") {
		t.Errorf("the header cuts off the read time: %q", header)
	}
}

// TestInboxEnterNeverAppliesAConfirmation: Enter alone never writes a step
// that asked first (a pick that is not the recommendation, a one-way
// door): on the confirmation it cancels, as any key but y does.
func TestInboxEnterNeverAppliesAConfirmation(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 120, 40, Options{})
	m.Update(tea.KeyPressMsg{Code: '2', Text: "2"})
	if m.pend == nil {
		t.Fatal("option 2 of the Decision did not ask first")
	}
	settle(m, press(m, "enter"))
	if reqs := f.requests(); m.pend != nil || len(reqs) != 0 || !strings.Contains(m.status.message, "nothing was written") {
		t.Errorf("Enter on the confirmation: pending %v, executed %v, message %q; want it cancelled, nothing written", m.pend != nil, reqs, m.status.message)
	}
}
