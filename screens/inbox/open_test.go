package inbox

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// TestShipEndedNamesWhyInOneLine: back in the inbox after a ship, the
// message line names the gate that refused and why, or the outcome.
func TestShipEndedNamesWhyInOneLine(t *testing.T) {
	declined := []string{
		"human pass: passed — solo-mode bypass by @founder",
		"your confirmation: refused — you did not answer yes; nothing was written",
		"  you did not answer yes; nothing was written",
		"refused: nothing was merged and nothing landed (exit 4).",
		"result: exit 4",
	}
	if got, want := ShipEnded(4, declined), "aayu ship 4 did not ship: your confirmation: refused — you did not answer yes; nothing was written"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	shipped := []string{"squash merge: passed — squash-merged", "shipped: #4 merged as 5966; the record is on the ledger.", "result: exit 0"}
	if got, want := ShipEnded(4, shipped), "aayu ship 4 ended: shipped: #4 merged as 5966; the record is on the ledger."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// stubScreen stands for ship, pack or verify opened on top of the inbox:
// it finishes with its lines on q or esc.
type stubScreen struct {
	name   string
	lines  []string
	done   bool
	code   int
	keys   []string
	closed *bool
}

func (s *stubScreen) Init() tea.Cmd { return nil }
func (s *stubScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		s.keys = append(s.keys, k.String())
		if k.String() == "q" || k.String() == "esc" {
			s.done = true
		}
	}
	return s, nil
}
func (s *stubScreen) View() tea.View       { return tea.NewView(s.name + " screen") }
func (s *stubScreen) Transcript() []string { return s.lines }
func (s *stubScreen) Done() (bool, int)    { return s.done, s.code }
func (s *stubScreen) Keys() []key.Binding  { return nil }
func (s *stubScreen) Close()               { *s.closed = true }

func pressOn(st *tui.Stack, k string) tea.Cmd {
	r := []rune(k)[0]
	msg := tea.KeyPressMsg{Code: r, Text: k}
	switch k {
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	_, cmd := st.Update(msg)
	return cmd
}

// TestInboxOpensShipOnTopAndComesBackAsItWas: "ship it" opens the ship
// screen on the inbox's stack (the inbox does not end), keys go to it,
// and esc comes back to the inbox with its cursor where it was and one
// line on how the ship ended; the inbox then reads GitHub again.
func TestInboxOpensShipOnTopAndComesBackAsItWas(t *testing.T) {
	f := newFake()
	// Story #3 and its pull request #4, green and marked ready to ship.
	f.snap.Issues = append(f.snap.Issues, model.Issue{Number: 3, Title: "Remaining deductible", State: "open", Labels: []untrusted.Label{model.LabelStory}})
	f.snap.PullRequests = append(f.snap.PullRequests, model.PullRequest{Number: 4, Title: "Remaining deductible",
		HeadRef: "story/3-remaining", HeadSHA: headB, BaseRef: "dev", State: "open", Author: agent})
	f.snap.PRFacts[4] = model.PRFacts{MergeGate: "success", Comments: []identity.Comment{{ID: 8, Author: writer, CreatedAt: t0,
		Body: "Ready to ship: " + headB}}}
	deps := f.deps()
	closed := false
	var ship *stubScreen
	deps.OpenShip = func(pr int, solo bool) (tui.Screen, error) {
		ship = &stubScreen{name: "ship", code: tui.ExitRefused, closed: &closed, lines: []string{
			"your confirmation: refused — you did not answer yes; nothing was written",
			"refused: nothing was merged and nothing landed (exit 4).", "result: exit 4"}}
		return ship, nil
	}
	m := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
	st := tui.NewStack(m)
	st.Init()
	st.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	snap, _ := f.deps().Read(context.Background(), nil, t0)
	st.Update(readMsg{snap: snap, at: t0})
	m.status.message = ""
	ready := -1
	for i, s := range m.list.steps {
		if s.Kind == model.KindReadyToShip {
			ready = i
		}
	}
	if ready < 0 {
		t.Fatal("the demo has no ready-to-ship card")
	}
	for m.list.cursor < ready {
		pressOn(st, "j")
	}
	pressOn(st, "enter")
	if st.Depth() != 2 || ship == nil {
		t.Fatalf("ship it did not open the ship screen on top: depth %d", st.Depth())
	}
	if done, _ := m.Done(); done {
		t.Fatal("the inbox ended to open ship; it should stay under it")
	}
	pressOn(st, "x")
	if len(ship.keys) != 1 || ship.keys[0] != "x" {
		t.Errorf("the ship screen got keys %q; want the x pressed while it showed", ship.keys)
	}
	pressOn(st, "esc")
	if st.Depth() != 1 || !closed {
		t.Fatalf("esc on a finished ship did not come back (depth %d) or did not release it (closed %v)", st.Depth(), closed)
	}
	if m.list.cursor != ready {
		t.Errorf("back in the inbox the cursor is on card %d, want %d where it was", m.list.cursor, ready)
	}
	if view := ansi.Strip(m.View().Content); !strings.Contains(view, "aayu ship 4 did not ship: your confirmation: refused") {
		t.Errorf("the inbox does not say how the ship ended:\n%s", view)
	}
	if !m.feed.reading {
		t.Error("back from a ship, the inbox does not read GitHub again")
	}
}

// TestInboxOpensThePackOfTheCardsStory: p opens the pack viewer for the
// Story the card is about (its own item, or the Story its pull request
// links); a card about no Story says so and opens nothing.
func TestInboxOpensThePackOfTheCardsStory(t *testing.T) {
	f := newFake()
	deps := f.deps()
	var asked []int
	closed := false
	deps.OpenPack = func(story int) (tui.Screen, error) {
		asked = append(asked, story)
		return &stubScreen{name: "pack", closed: &closed, lines: []string{"result: exit 0"}}, nil
	}
	m := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
	st := tui.NewStack(m)
	st.Init()
	st.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	snap, _ := f.deps().Read(context.Background(), nil, t0)
	st.Update(readMsg{snap: snap, at: t0})
	for i, s := range m.list.steps {
		m.list.cursor = i
		story, ok := storyOf(s, m.feed.snap)
		pressOn(st, "p")
		switch {
		case ok && st.Depth() != 2:
			t.Errorf("p on %s #%d (Story #%d) opened nothing: %q", s.Kind, s.Item.Number, story, m.status.message)
		case ok:
			if asked[len(asked)-1] != story {
				t.Errorf("p on %s #%d opened Story #%d, want #%d", s.Kind, s.Item.Number, asked[len(asked)-1], story)
			}
			pressOn(st, "esc")
			if st.Depth() != 1 {
				t.Fatalf("esc did not come back from the pack viewer")
			}
		case !ok && st.Depth() != 1:
			t.Errorf("p on %s #%d, which names no Story, opened a screen", s.Kind, s.Item.Number)
		case !ok && !strings.Contains(m.status.message, "names no Story"):
			t.Errorf("p on %s #%d, which names no Story, says %q", s.Kind, s.Item.Number, m.status.message)
		}
	}
	if len(asked) == 0 {
		t.Error("no card of the demo opened a pack")
	}
}

// TestInboxAsksPresenceFirstInItsOwnProgram: a session that needs the
// presence check opens it on top of the inbox, reads nothing until it is
// approved, then reads; a check that does not approve ends the inbox with
// its code, having read and written nothing.
func TestInboxAsksPresenceFirstInItsOwnProgram(t *testing.T) {
	for _, approve := range []bool{true, false} {
		f := newFake()
		deps := f.deps()
		closed := false
		login := &stubScreen{name: "login", closed: &closed, code: tui.ExitRefused, lines: []string{"result: exit 4"}}
		if approve {
			login.code = tui.ExitOK
		}
		deps.Presence = login
		deps.Approved = func() bool { return approve }
		m := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
		st := tui.NewStack(m)
		st.Init()
		if st.Depth() != 2 || st.Top() != tui.Screen(login) {
			t.Fatalf("approve=%v: the presence check is not on top at the start (depth %d)", approve, st.Depth())
		}
		if m.feed.reading {
			t.Fatalf("approve=%v: the inbox started reading before the presence check was answered", approve)
		}
		cmd := pressOn(st, "q") // the check ends
		if st.Depth() != 1 {
			t.Fatalf("approve=%v: the presence check did not close", approve)
		}
		done, code := m.Done()
		switch {
		case approve && (done || !m.feed.reading || cmd == nil):
			t.Errorf("approved: the inbox should read GitHub now (done %v, reading %v)", done, m.feed.reading)
		case !approve && (!done || code != tui.ExitRefused):
			t.Errorf("not approved: the inbox should end with exit %d; done %v code %d", tui.ExitRefused, done, code)
		case !approve && m.feed.reading:
			t.Error("not approved: the inbox started reading GitHub")
		}
	}
}

// TestInboxPlainQuitNotWordless: q in the plain inbox ends on a summary:
// what it wrote, each screen it opened named with how it ended, the
// actions log's folder, and the worst exit code, here the refused ship's.
func TestInboxPlainQuitNotWordless(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 80, 24, Options{})
	m.c.Plain, m.deps.ActionsLog = true, "/state/aayu/actions"
	m.away = away{what: "ship", number: 8}
	m.onReturned(tui.ReturnedMsg{Code: tui.ExitRefused, Transcript: []string{
		"human pass: refused — no review of head 735b66b00b1c",
		"refused: nothing was merged and nothing landed (exit 4).",
		"result: exit 4",
	}})
	m.away = away{what: "pack", number: 7}
	m.onReturned(tui.ReturnedMsg{Code: tui.ExitRefused, Transcript: []string{"result: does not verify, 1 problem (exit 4)"}})
	from := len(m.lines)
	m.onLine("q")
	got := strings.Join(m.lines[from:], "\n")
	for _, want := range []string{
		"summary of this inbox session:",
		"  inbox: 0 choices written, 0 writes failed",
		"  ship #8: refused: nothing was merged and nothing landed (exit 4)\n",
		"  pack, Story #7: does not verify, 1 problem (exit 4)",
		"/state/aayu/actions",
		"  exit 4, the worst of what this session did",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the plain q's summary lacks %q:\n%s", want, got)
		}
	}
}

// TestInboxPlainQuitCodeIsWhatThePersonDid: a tampered pack only looked
// at from the inbox is in the summary with its own result, and the
// session, which wrote nothing wrong, exits 0.
func TestInboxPlainQuitCodeIsWhatThePersonDid(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 80, 24, Options{})
	m.c.Plain = true
	m.away = away{what: "pack", number: 7}
	m.onReturned(tui.ReturnedMsg{Code: tui.ExitRefused, Transcript: []string{"result: does not verify, 1 problem (exit 4)"}})
	from := len(m.lines)
	m.onLine("q")
	got := strings.Join(m.lines[from:], "\n")
	if !strings.Contains(got, "pack, Story #7: does not verify, 1 problem (exit 4)") || !strings.Contains(got, "  exit 0, the worst of what this session did") {
		t.Errorf("looking at a tampered pack set the session's exit code:\n%s", got)
	}
}
