package inbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// failingReads makes every read after the first fail, as a flaky network
// does once the inbox is on screen.
func failingReads(f *fakeGitHub, d Deps) Deps {
	read := d.Read
	n := 0
	d.Read = func(ctx context.Context, prev *model.Snapshot, since time.Time) (model.Snapshot, error) {
		n++
		if n > 1 {
			return model.Snapshot{}, fmt.Errorf("GitHub could not be reached: %w", errOffline)
		}
		return read(ctx, prev, since)
	}
	return d
}

// TestInboxFailedReadKeepsStaleCards: a refresh that fails leaves the last
// good cards on screen, marked stale with the time they were read, and the
// failure in words; nothing is emptied.
func TestInboxFailedReadKeepsStaleCards(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := loaded(t, newFake(), w, 24, Options{})
			m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
			m.Update(readMsg{at: t0.Add(5 * time.Minute), err: fmt.Errorf("GitHub could not be reached: %w", errOffline)})
			view := ansi.Strip(m.View().Content)
			tuitest.AssertFits(t, m.View().Content, w, 24)
			if len(m.list.steps) != 5 {
				t.Fatalf("the failed read left %d cards, want the 5 of the last good read", len(m.list.steps))
			}
			if w >= 80 && (!strings.Contains(view, "stale from 09:00:00 UTC; the read failed") || !strings.Contains(view, "Decision #1")) {
				t.Errorf("the stale cards are not shown as stale:\n%s", view)
			}
			if !strings.HasPrefix(m.status.message, "The read from GitHub failed: GitHub could not be reached") {
				t.Errorf("message %q does not give the failure", m.status.message)
			}
			if strings.Contains(view, "Refreshing from GitHub") {
				t.Errorf("the refresh ended but still says it is refreshing:\n%s", view)
			}
			xgolden.RequireEqual(t, view)

			// The next good read clears the mark and says when it landed.
			m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
			m.Update(readMsg{snap: demoSnapshot(), at: t0.Add(10 * time.Minute)})
			if m.feed.stale || !strings.Contains(m.status.message, "Refreshed: the cards are as GitHub had them at 09:10:00 UTC") {
				t.Errorf("stale %v, message %q", m.feed.stale, m.status.message)
			}
		})
	}
}

// TestInboxPlainFailedReadKeepsCards: in the plain twin a failed refresh
// says so, keeps the cards, and the session goes on.
func TestInboxPlainFailedReadKeepsCards(t *testing.T) {
	f := newFake()
	s := startPlain(t, failingReads(f, f.deps()), Options{})
	s.waitFor("card 1 of 5")
	s.send("r")
	s.waitFor("The cards shown are stale, from the read at 09:00:00 UTC; r tries again.")
	s.send("s")
	s.waitFor("skipped: Decision #1.")
	s.send("q")
	if code := s.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, s.out.String())
	}
}

// partialFake: the first try of the Story's step adds the label (so a
// read no longer lists the Story) and fails on the comment; the next try
// finishes it.
func partialFake(f *fakeGitHub) Deps {
	d := f.deps()
	exec := d.Execute
	tries := 0
	d.Execute = func(ctx context.Context, req Request) Outcome {
		if req.Step.ID() != "merged-without-ship#9" {
			return exec(ctx, req)
		}
		f.mu.Lock()
		tries++
		first := tries == 1
		f.executed = append(f.executed, req)
		f.remove(9) // the label landed: the Story no longer reads as waiting
		f.mu.Unlock()
		if first {
			return Outcome{Wrote: []string{"The label status:merged on #9 was added"}, Failure: &Failure{
				What:      "The comment on #9 was not posted: GitHub answered with a server error.",
				Changed:   "The label status:merged was added; the comment was not posted.",
				Next:      "Press Enter to try again: aayu makes only the writes still missing, each once.",
				Details:   []string{"GitHub's answer: 502 Bad Gateway"},
				Retryable: true,
			}}
		}
		return Outcome{Done: true, Wrote: []string{"The label status:merged on #9 was already there", "The comment on #9 was posted"}}
	}
	return d
}

// TestInboxPartialWriteStaysAsFailureCard: a step whose writes landed only
// in part stays on the inbox as a failure card although the next read no
// longer lists it; Enter finishes it, and then it leaves.
func TestInboxPartialWriteStaysAsFailureCard(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := newFake()
			m := New(context.Background(), tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}, partialFake(f), Options{})
			m.Init()
			m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
			m.Update(readMsg{snap: demoSnapshot(), at: t0})
			for i := 0; i < 3; i++ {
				m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
			}
			if st, _ := m.list.current(); st.ID() != "merged-without-ship#9" {
				t.Fatalf("cursor on %s", st.ID())
			}
			settle(m, press(m, "enter"))
			snap, _ := f.deps().Read(context.Background(), nil, time.Time{})
			m.Update(readMsg{snap: snap, at: t0.Add(time.Minute)})
			st, ok := model.Find(m.list.steps, "merged-without-ship#9")
			if !ok {
				t.Fatal("the half-done Story left the inbox")
			}
			view := ansi.Strip(m.View().Content)
			tuitest.AssertFits(t, m.View().Content, w, 24)
			xgolden.RequireEqual(t, view)
			if w >= 80 && !strings.Contains(view, "not done · Merged #9") {
				t.Errorf("the list does not mark the card not done:\n%s", view)
			}
			lines := strings.Join(m.cardLines(st), "\n")
			for _, want := range []string{"status: not done", "The comment on #9 was not posted", "The label status:merged was added; the comment was not posted.", "Press Enter to try again"} {
				if !strings.Contains(lines, want) {
					t.Errorf("the failure card does not say %q:\n%s", want, lines)
				}
			}
			if st, _ := m.list.current(); st.ID() != "merged-without-ship#9" {
				t.Fatalf("cursor moved to %s", st.ID())
			}
			settle(m, press(m, "enter"))
			if _, ok := model.Find(m.list.steps, "merged-without-ship#9"); ok {
				t.Error("the finished card is still listed")
			}
			if n := len(f.requests()); n != 2 {
				t.Errorf("%d executions, want 2", n)
			}
		})
	}
}

// TestInboxCountsAndJobWellDoneMatchTheList: done cards leave the list at
// once and the counts follow; "the housekeeping is clear" is said only
// when none is left.
func TestInboxCountsAndJobWellDoneMatchTheList(t *testing.T) {
	f := newFake()
	f.changed["bug-fix-merged#11"] = true // the re-read of #11 finds it changed
	m := loaded(t, f, 100, 24, Options{})
	settle(m, press(m, "C", "y"))
	if strings.Contains(m.status.message, "Job well done") {
		t.Fatalf("job well done while #11 still waits: %q", m.status.message)
	}
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "Housekeeping (1)") || strings.Contains(view, "Merged #9") {
		t.Errorf("the list and its counts do not follow the done card:\n%s", view)
	}
	delete(f.changed, "bug-fix-merged#11")
	settle(m, press(m, "C", "y"))
	if m.status.message != "Job well done: the housekeeping is clear." {
		t.Errorf("message %q after the last housekeeping", m.status.message)
	}
	if m.list.housekeepingLeft() {
		t.Error("housekeeping is still listed")
	}
}

// TestInboxOpenItShowsTheLink: "open it" shows the item's URL, as an OSC 8
// link in the full screen, and says a browser opened only when one did.
func TestInboxOpenItShowsTheLink(t *testing.T) {
	const u = "https://github.com/acme/benefits/issues/6"
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no browser", tui.ErrNoBrowser, "Open " + u},
		{"a browser", nil, "Opened #6 in your browser: " + u},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			d := f.deps()
			d.URL = func(n int) string { return fmt.Sprintf("https://github.com/acme/benefits/issues/%d", n) }
			d.Open = func(int) error { return tc.err }
			m := New(context.Background(), tui.Common{Width: 120, Height: 24, Styles: tui.NewStyles(true)}, d, Options{})
			m.Update(readMsg{snap: demoSnapshot(), at: t0})
			m.list.cursor = 2 // PR #6: open it and review it
			_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
			if strings.Contains(m.status.message, "in your browser") {
				t.Fatalf("claimed a browser before one opened: %q", m.status.message)
			}
			m.Update(cmd())
			if m.status.message != tc.want {
				t.Fatalf("message %q, want %q", m.status.message, tc.want)
			}
			if v := m.View().Content; !strings.Contains(v, ansi.SetHyperlink(u)) {
				t.Errorf("the link is not an OSC 8 hyperlink:\n%q", v)
			}
		})
	}
	// The plain twin prints the link itself.
	f := newFake()
	d := f.deps()
	d.URL = func(n int) string { return fmt.Sprintf("https://github.com/acme/benefits/issues/%d", n) }
	s := startPlain(t, d, Options{})
	s.waitFor("card 1 of 5")
	s.send("s")
	s.send("s")
	s.send("enter")
	s.waitFor("Open " + u)
	if strings.Contains(s.out.String(), "in your browser") {
		t.Errorf("the plain twin claimed a browser:\n%s", s.out.String())
	}
	s.exit()
}
