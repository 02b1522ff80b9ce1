package inbox

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestInboxNoteIsALineEditor: the note edits like a line (home, ← and
// backspace), takes ? and q as text, neutralises a typed bidi override and
// escape, and enter sends exactly what the line shows.
func TestInboxNoteIsALineEditor(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	noteChoice(t, m)
	press(m, "the tests", "home", "ran ")
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	press(m, " q? x")
	m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	press(m, "!")
	m.Update(tea.KeyPressMsg{Text: "\u202e\x1b[2J"})
	want := "ran the tests q?!<U+202E> "
	if got := m.pend.noteIn.Value(); got != want {
		t.Fatalf("note = %q, want %q", got, want)
	}
	if m.done || !m.Typing() {
		t.Fatalf("q or ? typed into the note left it: done=%v typing=%v", m.done, m.Typing())
	}
	if v := m.View().Content; strings.Contains(v, "\u202e") || strings.Contains(v, "\x1b[2J") {
		t.Fatalf("the typed override or escape reached the screen: %q", v)
	}
	press(m, "enter")
	if m.Typing() || m.pend == nil || m.pend.noteBuf != strings.TrimSpace(want) {
		t.Fatalf("enter did not send the note on to its confirmation: pend=%+v", m.pend)
	}
	settle(m, press(m, "y")) // not the recommendation: it asks once; y applies
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].Note != strings.TrimSpace(want) || reqs[0].Choice.Key != "2" {
		t.Fatalf("executed %+v, want the approval with note %q (message %q)", reqs, strings.TrimSpace(want), m.status.message)
	}
}

// TestInboxNoteEscCancelsAndCtrlVReadsNoClipboard: esc leaves the note and
// writes nothing; ctrl+v asks for nothing (the clipboard is read only
// through the terminal's own paste, which is cleaned).
func TestInboxNoteEscCancelsAndCtrlVReadsNoClipboard(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	noteChoice(t, m)
	press(m, "checked")
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}); cmd != nil {
		t.Errorf("ctrl+v in the note asked to run a command (a clipboard read)")
	}
	press(m, "esc")
	if m.pend != nil || m.Typing() || m.status.message != "Cancelled; nothing was written." {
		t.Fatalf("esc did not cancel the note: pend=%v message %q", m.pend, m.status.message)
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("a cancelled note wrote %d times", n)
	}
}

// TestInboxNoteEmptyIsRefused: enter on an empty note writes nothing and
// says what is missing.
func TestInboxNoteEmptyIsRefused(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	noteChoice(t, m)
	press(m, "   ", "enter")
	if !m.Typing() || !strings.HasPrefix(m.status.message, "Write one line on what you checked") || len(f.requests()) != 0 {
		t.Fatalf("an empty note was sent: message %q, %d writes", m.status.message, len(f.requests()))
	}
}

// TestInboxNoteGolden: the note open with text typed and a hostile paste,
// at every width.
func TestInboxNoteGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := loaded(t, newFake(), w, 24, Options{})
			noteChoice(t, m)
			press(m, "ran the tests ")
			m.Update(tea.PasteMsg{Content: "and read\r\nthe \x1b[31mdiff\x1b[0m\u202e"})
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 24)
			v := ansi.Strip(view)
			if !strings.Contains(v, "One line on what you checked:") || !strings.Contains(v, "enter sends it; esc cancels") {
				t.Errorf("the note at %d does not ask for the line or say its keys:\n%s", w, v)
			}
			xgolden.RequireEqual(t, v)
		})
	}
}

// TestInboxPlainNoteIsCleaned: the plain twin's note is the line typed,
// cleaned as the full screen cleans it, and the rest of the line's words
// (? and q) are the note's.
func TestInboxPlainNoteIsCleaned(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5: Decision #1")
	s.send("s")
	s.send("s")
	s.waitFor("card 3 of 5")
	s.send("2")
	s.waitFor("One line on what you checked:")
	s.send("read it \u202eq?\x07 ")
	s.waitFor("(y applies it; anything else cancels)")
	s.send("y")
	s.waitFor("done: PR that needs your review #6")
	s.exit()
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].Note != "read it <U+202E>q?" {
		t.Fatalf("executed %+v, want the approval with the note cleaned", reqs)
	}
	if strings.Contains(s.out.String(), "\u202e") {
		t.Errorf("the override reached the transcript:\n%s", s.out.String())
	}
}
