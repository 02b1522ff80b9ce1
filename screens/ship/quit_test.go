package ship

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
)

// pump plays Bubble Tea for a ship screen: each command runs in its own
// goroutine and its message comes back to Update on the test's goroutine.
type pump struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
}

func newPump(t *testing.T, c tui.Common, run Runner) *pump {
	p := &pump{t: t, m: New(context.Background(), c, Options{PR: 4, Run: run}), msgs: make(chan tea.Msg, 64)}
	p.m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	p.run(p.m.Init())
	return p
}

func (p *pump) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				p.run(c)
			}
			return
		}
		if msg != nil {
			p.msgs <- msg
		}
	}()
}

func (p *pump) send(msg tea.Msg) {
	_, next := p.m.Update(msg)
	p.run(next)
}

// until hands the screen its messages until cond holds.
func (p *pump) until(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-p.msgs:
			p.send(msg)
		case <-deadline:
			p.t.Fatalf("%s never happened; the screen said:\n%s", what, strings.Join(p.m.lines, "\n"))
		}
	}
}

func lastLine(m *Model) string { return m.lines[len(m.lines)-1] }

// TestCtrlCAtShipConfirmationIsANo: ctrl+c while the writes are listed
// answers no: nothing is written, the screen ends (even in the full screen)
// with exit 4, and its last line says why.
func TestCtrlCAtShipConfirmationIsANo(t *testing.T) {
	answers := make(chan bool, 1)
	p := newPump(t, tui.Common{Width: 80, Height: 30, Styles: tui.NewStyles(true)}, asking(answers))
	p.until("the confirmation", func() bool { return p.m.question.confirm != nil })
	p.send(tui.QuitRequestMsg{Why: "ctrl+c"})
	if yes := <-answers; yes {
		t.Fatal("ctrl+c at the confirmation was taken as a yes")
	}
	p.until("the end", func() bool { done, _ := p.m.Done(); return done })
	if _, code := p.m.Done(); code != tui.ExitRefused {
		t.Errorf("exit %d, want %d", code, tui.ExitRefused)
	}
	if want := "result: exit 4 — ctrl+c at the confirmation: nothing was written"; lastLine(p.m) != want {
		t.Errorf("the last line is %q, want %q", lastLine(p.m), want)
	}
}

// stoppingRun passes the gates, takes the yes, and makes the writes one at
// a time; the merge waits for the test's release. After each write it asks
// Stopped, as core's AfterStep does in main's wiring, and stops there.
func stoppingRun(merging chan<- struct{}, release <-chan struct{}) Runner {
	return func(ctx context.Context, pr int, out chan<- core.Event, ask Ask) (core.Result, error) {
		out <- core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open"}
		yes, err := ask.Confirm(ctx, demoPlan)
		if err != nil || !yes {
			return core.Result{ExitCode: core.ExitRefused}, err
		}
		res := core.Result{}
		out <- core.Event{Gate: core.GateBypass, State: core.Passed, Words: "posted"}
		if ask.Stopped() {
			return core.Result{ExitCode: core.ExitFailed}, errors.New("stopped after the bypass comment")
		}
		out <- core.Event{Gate: core.GateMerge, State: core.Running}
		merging <- struct{}{}
		<-release
		if ctx.Err() != nil {
			return res, errors.New("the merge was cut: its context was cancelled")
		}
		res.Merged, res.MergeCommit = true, "3543d4864c49"
		out <- core.Event{Gate: core.GateMerge, State: core.Passed, Words: "merged"}
		if ask.Stopped() {
			res.ExitCode, res.Unfinished = core.ExitFailed, "merged as 3543d4864c49, but the record did not reach the ledger"
			return res, errors.New("ship stopped after a step \"merge\": you asked to quit")
		}
		res.Shipped, res.ExitCode = true, core.ExitShipped
		return res, nil
	}
}

// TestCtrlCDuringShipWritesStopsAfterTheMergeLands: ctrl+c after the yes
// does not cut the merge under way: the run goes on until it lands, stops
// there, and the last line says it merged and how to finish; a second
// ctrl+c still does not cut it.
func TestCtrlCDuringShipWritesStopsAfterTheMergeLands(t *testing.T) {
	merging, release := make(chan struct{}, 1), make(chan struct{})
	p := newPump(t, tui.Common{Width: 80, Height: 30, Styles: tui.NewStyles(true)}, stoppingRun(merging, release))
	p.until("the confirmation", func() bool { return p.m.question.confirm != nil })
	p.send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	<-merging
	p.send(tui.QuitRequestMsg{Why: "ctrl+c"})
	p.send(tui.QuitRequestMsg{Why: "ctrl+c", Force: true})
	if done, _ := p.m.Done(); done {
		t.Fatal("ctrl+c ended ship while the merge was under way")
	}
	close(release)
	p.until("the end", func() bool { done, _ := p.m.Done(); return done })
	if p.m.run.result == nil || !p.m.run.result.Merged {
		t.Fatalf("the merge under way did not land: %+v", p.m.run.result)
	}
	if _, code := p.m.Done(); code != tui.ExitFailed {
		t.Errorf("exit %d, want %d", code, tui.ExitFailed)
	}
	last := lastLine(p.m)
	for _, want := range []string{"result: exit 1", "stopped on ctrl+c after the write under way landed", "merged, the record not finished", "aayu ship 4 finishes it without merging twice"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last line %q lacks %q", last, want)
		}
	}
}
