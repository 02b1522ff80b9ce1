package inbox

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// TestCtrlCDuringDecisionWriteFinishesIt: ctrl+c while a Decision's write
// is under way starts no other write, lets it land, and only then ends,
// its last line saying what happened.
func TestCtrlCDuringDecisionWriteFinishesIt(t *testing.T) {
	m, g := queuedInbox(t)
	r := cmdRunner{msgs: make(chan tea.Msg, 16)}
	r.run(press(m, "1"))
	g.wantStart(t, "Decision #1", "decision#1")

	r.run(m.updateCmd(tui.QuitRequestMsg{Why: "ctrl+c"}))
	if m.done {
		t.Fatal("ctrl+c ended the inbox while a write was under way")
	}
	if !strings.Contains(m.status.message, "finishing 1 write under way") {
		t.Errorf("the screen does not say it is finishing the write: %q", m.status.message)
	}
	m.list.cursor = 1
	r.run(press(m, "1", "y"))
	g.wantStart(t, "a pick after ctrl+c")
	if !strings.Contains(m.status.message, "no new write starts") {
		t.Errorf("a pick after ctrl+c was not refused in words: %q", m.status.message)
	}

	close(g.gate("decision#1"))
	r.run(m.updateCmd(r.nextDone(t)))
	done, code := m.Done()
	if !done || code != tui.ExitOK {
		t.Fatalf("after the write landed: done=%v code=%d; want it finished, exit 0", done, code)
	}
	want := "stopped on ctrl+c: the 1 write under way finished first; nothing is half done (exit 0)."
	if last := m.lines[len(m.lines)-1]; last != want {
		t.Errorf("the last line is %q, want %q", last, want)
	}
	if left := m.Epilogue(); left[len(left)-1] != want {
		t.Errorf("the full screen's last line is %q, want %q", left[len(left)-1], want)
	}
	if !strings.Contains(strings.Join(m.Epilogue(), "\n"), "done: Decision #1") {
		t.Errorf("the full screen does not leave the landed write behind:\n%s", strings.Join(m.Epilogue(), "\n"))
	}
}

// TestSecondCtrlCStopsTheWriteRecordedHalfDone: the first ctrl+c leaves the
// write's context alone; the second cancels it, and the write comes back
// (from the executor, which logs it as interrupted) as a failure card; the
// run ends with exit 1 and a last line that says so.
func TestSecondCtrlCStopsTheWriteRecordedHalfDone(t *testing.T) {
	f := newFake()
	d := f.deps()
	started := make(chan context.Context, 1)
	d.Execute = func(ctx context.Context, req Request) Outcome {
		started <- ctx
		<-ctx.Done()
		return Outcome{Wrote: []string{"Commented: Accepted option 1"}, Failure: &Failure{
			What:    "The label status:accepted on #1 may or may not have been added: it was stopped before it finished.",
			Changed: "The comment was posted; the label may or may not have been added.",
			Next:    "Press Enter to try again: aayu makes only the writes still missing, each once.", Retryable: true}}
	}
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, d, Options{})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m.Update(readMsg{snap: demoSnapshot(), at: t0})
	r := cmdRunner{msgs: make(chan tea.Msg, 16)}
	r.run(press(m, "1"))
	ctx := <-started

	r.run(m.updateCmd(tui.QuitRequestMsg{Why: "SIGTERM"}))
	if ctx.Err() != nil {
		t.Fatal("the first SIGTERM cancelled the write under way")
	}
	r.run(m.updateCmd(tui.QuitRequestMsg{Why: "SIGTERM", Force: true}))
	r.run(m.updateCmd(r.nextDone(t)))
	if ctx.Err() == nil {
		t.Error("the second SIGTERM did not stop the write")
	}
	done, code := m.Done()
	if !done || code != tui.ExitFailed {
		t.Fatalf("after the stopped write came back: done=%v code=%d; want finished, exit 1", done, code)
	}
	if cs := m.writes.states["decision#1"]; cs == nil || cs.failure == nil {
		t.Error("the stopped write does not show as a failure card")
	}
	last := m.lines[len(m.lines)-1]
	for _, want := range []string{"stopped on SIGTERM", "1 write was cut short", "half done", "(exit 1)"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last line %q lacks %q", last, want)
		}
	}
}

// TestHalfDoneDecisionShowsAsAFailureCard: a Decision an earlier run left
// commented but open reads back as a failure card recommending to finish
// it, not as a fresh card.
func TestHalfDoneDecisionShowsAsAFailureCard(t *testing.T) {
	m, _ := queuedInbox(t)
	snap := demoSnapshot()
	snap.IssueComments[2] = append(snap.IssueComments[2], identityComment("founder", "Accepted option 2 (Drop it) by @founder"))
	m.Update(readMsg{snap: snap, at: t0})
	cs := m.writes.states["decision#2"]
	if cs == nil || cs.failure == nil || !strings.Contains(cs.failure.What, "Half done: option 2 was accepted") {
		t.Fatalf("the half-done Decision shows no failure card: %+v", cs)
	}
	view := strings.Join(m.cardLines(mustStep(t, m, "decision#2")), "\n")
	if !strings.Contains(view, "Half done") || !strings.Contains(view, "Press Enter to finish it") {
		t.Errorf("the card does not say it is half done and how to finish it:\n%s", view)
	}
}

func identityComment(login, body string) identity.Comment {
	return identity.Comment{ID: 99, Author: identity.Account{Login: login, Permission: "admin"}, Body: untrusted.Text(body), CreatedAt: t0}
}

func mustStep(t *testing.T, m *Model, id string) model.Step {
	t.Helper()
	st, ok := model.Find(m.list.steps, id)
	if !ok {
		t.Fatalf("no card %s", id)
	}
	return st
}

// quittingShip stands for the ship screen when ctrl+c comes after the
// yes: it finishes once its write under way landed, merged but not
// recorded, with exit 1.
type quittingShip struct{ stubScreen }

func (s *quittingShip) QuitsSafely() {}
func (s *quittingShip) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tui.QuitRequestMsg); ok {
		s.lines = append(s.lines, "The pull request is merged; run aayu ship again to finish the record. It will not merge twice.",
			"result: exit 1 — stopped on ctrl+c after the write under way landed")
		s.done, s.code = true, tui.ExitFailed
	}
	return s, nil
}

// TestCtrlCOnShipOpenedFromTheInboxEndsWithTheShipsOutcome: ctrl+c while
// ship (opened from the inbox) writes goes to ship first; once it closed,
// the inbox quits without reading again, and its last line and exit code
// are the ship's outcome, not "nothing was under way".
func TestCtrlCOnShipOpenedFromTheInboxEndsWithTheShipsOutcome(t *testing.T) {
	f := newFake()
	f.snap.Issues = append(f.snap.Issues, model.Issue{Number: 3, Title: "Remaining deductible", State: "open", Labels: []untrusted.Label{model.LabelStory}})
	f.snap.PullRequests = append(f.snap.PullRequests, model.PullRequest{Number: 4, Title: "Remaining deductible",
		HeadRef: "story/3-remaining", HeadSHA: headB, BaseRef: "dev", State: "open", Author: agent})
	f.snap.PRFacts[4] = model.PRFacts{MergeGate: "success", Comments: []identity.Comment{{ID: 8, Author: writer, CreatedAt: t0,
		Body: "Ready to ship: " + headB}}}
	deps := f.deps()
	closed := false
	deps.OpenShip = func(pr int, solo bool) (tui.Screen, error) {
		return &quittingShip{stubScreen{name: "ship", closed: &closed, lines: []string{"your confirmation: passed — yes"}}}, nil
	}
	m := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
	st := tui.NewStack(m)
	st.Init()
	st.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	snap, _ := f.deps().Read(context.Background(), nil, t0)
	st.Update(readMsg{snap: snap, at: t0})
	for i, s := range m.list.steps {
		if s.Kind == model.KindReadyToShip {
			m.list.cursor = i
		}
	}
	pressOn(st, "enter")
	if st.Depth() != 2 {
		t.Fatalf("ship it did not open the ship screen (depth %d)", st.Depth())
	}
	st.Update(tui.QuitRequestMsg{Why: "ctrl+c"})
	if st.Depth() != 1 || !closed {
		t.Fatalf("the ship screen did not close on ctrl+c once its write landed (depth %d)", st.Depth())
	}
	done, code := st.Done()
	if !done || code != tui.ExitFailed {
		t.Fatalf("the inbox under the ship: done=%v code=%d; want it ended with the ship's exit 1", done, code)
	}
	if m.feed.reading {
		t.Error("the inbox started a read on its way out")
	}
	last := m.Epilogue()[len(m.Epilogue())-1]
	if !strings.Contains(last, "stopped on ctrl+c: aayu ship 4 ended: The pull request is merged") || !strings.HasSuffix(last, "(exit 1).") {
		t.Errorf("the last line %q does not carry the ship's outcome and exit 1", last)
	}
}

// TestStopInTheActionsLogShowsAsAFailureCardNextRun: an approval an earlier
// run stopped part-way (the actions log's interrupted record, no run since
// finished it) shows on the next run as a failure card saying what landed
// and which key finishes it, not as a fresh card.
func TestStopInTheActionsLogShowsAsAFailureCardNextRun(t *testing.T) {
	f := newFake()
	d := f.deps()
	d.Interrupted = func() []actions.Record {
		return []actions.Record{{Time: t0, Command: "inbox: inspect 6 --approve", Repo: "acme/benefits", Item: "#6",
			Outcome: actions.OutcomeInterrupted, Writes: []string{"Approved head c157e2b2e224 of #6"},
			Detail: "The record of the review may or may not have been written | Stopped at write 2 of 2"}}
	}
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, d, Options{})
	cmd := m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m.Update(readMsg{snap: demoSnapshot(), at: t0})
	for _, msg := range drain(cmd) {
		if _, ok := msg.(interruptedMsg); ok {
			m.Update(msg)
		}
	}
	cs := m.writes.states["needs-review#6"]
	if cs == nil || cs.failure == nil {
		t.Fatalf("the stopped approval shows no failure card: %+v", cs)
	}
	for _, want := range []string{"Half done: an earlier run was stopped at 09:00:00 UTC while it wrote approve its head", "Approved head c157e2b2e224", "Press 2 to finish it"} {
		if !strings.Contains(strings.Join(cs.failure.Lines(), " "), want) {
			t.Errorf("the failure card lacks %q: %q", want, cs.failure.Lines())
		}
	}
	if cs := m.writes.states["decision#1"]; cs != nil && cs.failure != nil {
		t.Errorf("a card the log says nothing about shows a failure: %+v", cs.failure)
	}
}

// drain runs cmd and every command in its batches, returning their messages.
func drain(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, drain(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// TestShipStoppedAfterItsMergeIsFinishedByShipNextRun: a ship a quit
// request stopped after its merge leaves its Story looking merged without
// ship; the next inbox shows the card half done, Enter opens aayu ship to
// finish it, marking it merged without proof asks first, and the bulk
// housekeeping passes it over.
func TestShipStoppedAfterItsMergeIsFinishedByShipNextRun(t *testing.T) {
	f := newFake()
	d := f.deps()
	opened := 0
	d.OpenShip = func(pr int, solo bool) (tui.Screen, error) {
		opened = pr
		return &stubScreen{name: "ship", closed: new(bool)}, nil
	}
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, d, Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m.Update(readMsg{snap: demoSnapshot(), at: t0})
	m.Update(interruptedMsg{{Time: t0, Command: "ship 10", Repo: "acme/benefits", Item: "#10", Outcome: actions.OutcomeInterrupted,
		Detail: "merged as 3543d4864c49, but the record did not reach the ledger; run aayu ship 10 again to finish it without merging twice"}})
	cs := m.writes.states["merged-without-ship#9"]
	if cs == nil || cs.failure == nil || !strings.Contains(cs.failure.What, "Half done: aayu ship 10 was stopped") {
		t.Fatalf("the Story of the stopped ship shows no half-done card: %+v", cs)
	}
	press(m, "C")
	if m.list.selected["merged-without-ship#9"] {
		t.Error("the bulk housekeeping selected the stopped ship's Story, which it would mark merged without proof")
	}
	m.pend, m.list.selected = nil, map[string]bool{}
	m.list.cursor = m.rowIndex(t, "merged-without-ship#9")
	press(m, "1")
	if m.pend == nil || !strings.Contains(m.status.message, "aayu ship 10 stopped part-way") {
		t.Errorf("marking it merged without proof did not ask first: %q", m.status.message)
	}
	press(m, "esc")
	press(m, "enter")
	if opened != 10 {
		t.Errorf("Enter opened ship for #%d, want aayu ship 10 to finish it", opened)
	}
}

func (m *Model) rowIndex(t *testing.T, id string) int {
	t.Helper()
	for i, st := range m.list.steps {
		if st.ID() == id {
			return i
		}
	}
	t.Fatalf("no card %s", id)
	return -1
}
