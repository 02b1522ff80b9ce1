package ready

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func storyPlan() core.Plan {
	criteria := []string{"An employee sees their leave balance on the home page", "A manager approves a request in one click", "The balance updates within a minute"}
	snap := proof.RenderReady(7, "Leave balance on the home page", time.Date(2026, 10, 12, 7, 30, 0, 0, time.UTC), criteria)
	r, _ := proof.ParseReady(snap)
	return core.Plan{Owner: "acme", Repo: "benefits", Story: 7, Kind: "Story", Title: "Leave balance on the home page",
		Criteria: criteria, Hash: r.RecordedHash, Snapshot: snap, Labels: []string{"type:story", "status:draft"}}
}

type fakeCore struct {
	plan    core.Plan
	readErr error
	applied int
}

func (f *fakeCore) deps() Deps {
	return Deps{Story: 7,
		Read: func(context.Context) (core.Plan, error) { return f.plan, f.readErr },
		Apply: func(_ context.Context, p core.Plan) (core.Result, error) {
			f.applied++
			return core.Result{Commit: "9f1c2e3d4b5a69788796a5b4c3d2e1f009182736", Labelled: true}, nil
		},
	}
}

func runPlain(t *testing.T, d Deps, input string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, d),
		tui.RunOptions{Plain: true, Out: &out, In: strings.NewReader(input)})
	if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

// TestReadyScreenPlainGolden: the plain twin shows the goal with its hash,
// lists every write, and writes them once on y.
func TestReadyScreenPlainGolden(t *testing.T) {
	f := &fakeCore{plan: storyPlan()}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 1 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	for _, want := range []string{f.plan.Hash, "specs/7/ready.md", "the label status:draft removed", "the label status:ready added", "  3. The balance updates within a minute"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	tuitest.GoldenPlain(t, out, code)
}

// TestReadyWritesNothingWithoutYes: any answer but y, and the end of input,
// write nothing and exit 4.
func TestReadyWritesNothingWithoutYes(t *testing.T) {
	for _, in := range []string{"n\n", "no\n", "yes please\n", "\n", ""} {
		f := &fakeCore{plan: storyPlan()}
		code, out := runPlain(t, f.deps(), in)
		if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "nothing was written") {
			t.Errorf("input %q: exit %d, applied %d:\n%s", in, code, f.applied, out)
		}
	}
}

// TestReadyAlreadyFrozenWritesNothing: the same hash on the ledger is said,
// nothing is asked or written, exit 0.
func TestReadyAlreadyFrozenWritesNothing(t *testing.T) {
	p := storyPlan()
	p.Previous, p.Same = p.Hash, true
	f := &fakeCore{plan: p}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 0 || !strings.Contains(out, "Already frozen") || strings.Contains(out, "Answering yes") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestReadyDryRunWritesNothing: --dry-run lists what yes would write and
// writes nothing, exit 0, without asking.
func TestReadyDryRunWritesNothing(t *testing.T) {
	f := &fakeCore{plan: storyPlan()}
	d := f.deps()
	d.DryRun = true
	code, out := runPlain(t, d, "y\n")
	if code != tui.ExitOK || f.applied != 0 || !strings.Contains(out, "--dry-run: nothing was written.") || !strings.Contains(out, "specs/7/ready.md") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestReadyRefusalSaysWhy: a refusal from the core is shown with its reason,
// exit 4; a failure to read is exit 1. Neither writes.
func TestReadyRefusalSaysWhy(t *testing.T) {
	f := &fakeCore{readErr: &core.Refusal{Reason: "Story #7's body: it has no \"## Completion Goal\" section"}}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "refused: Story #7's body: it has no \"## Completion Goal\" section.") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	f = &fakeCore{readErr: errors.New("GitHub answered 502")}
	code, out = runPlain(t, f.deps(), "y\n")
	if code != tui.ExitFailed || f.applied != 0 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestReadyScreenHostileTitleAndCriteria: escape sequences and line breaks
// in the title and criteria are shown as text in both renderers,
// never obeyed.
func TestReadyScreenHostileTitleAndCriteria(t *testing.T) {
	p := storyPlan()
	p.Title = "evil\x1b]52;c;aGk=\x07 title\x1b[2J"
	p.Criteria = []string{"criterion \x1b[31mred\x1b[0m \u202eright-to-left", "second\rline"}
	f := &fakeCore{plan: p}
	_, out := runPlain(t, f.deps(), "n\n")
	tuitest.AssertInert(t, "plain", out)
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: p})
	tuitest.AssertInert(t, "full screen", ansi.Strip(m.View().Content))
}

// TestReadyScreenGolden: the full screen at 40, 80 and 120 columns shows
// the goal, its hash and the writes with y and n; y writes once, through a
// command, never inside Update.
func TestReadyScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: storyPlan()}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			var model tea.Model = m
			model, _ = model.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
			tuitest.GoldenView(t, model.View().Content, w, 24)
			_, cmd := model.Update(tuitest.Key("y"))
			if f.applied != 0 || cmd == nil {
				t.Fatalf("y: applied %d inside Update, command %v", f.applied, cmd)
			}
			msg := cmd()
			if _, ok := msg.(tui.WroteMsg[core.Result]); !ok || f.applied != 1 {
				t.Fatalf("y's command did not write the plan once (applied %d)", f.applied)
			}
			model.Update(msg)
			if done, code := m.Done(); done || code != tui.ExitOK || !strings.Contains(model.View().Content, "frozen") {
				t.Errorf("after the write: done %v (the full screen waits for q), exit %d:\n%s", done, code, model.View().Content)
			}
		})
	}
}

// TestReadyQuitAtTheQuestionIsANo: ctrl+c or SIGTERM at the question
// writes nothing, exit 4.
func TestReadyQuitAtTheQuestionIsANo(t *testing.T) {
	f := &fakeCore{plan: storyPlan()}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	_, cmd := m.Update(tui.QuitRequestMsg{Why: "SIGTERM"})
	if done, code := m.Done(); !done || code != tui.ExitRefused || f.applied != 0 || cmd == nil {
		t.Fatalf("done %v, exit %d, applied %d", done, code, f.applied)
	}
}

// TestReadyFullHelpGolden: ? while ready asks, at 40, 80 and 120 columns.
func TestReadyFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: storyPlan()}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestReadyPlainHelpGolden: the plain ? while ready asks.
func TestReadyPlainHelpGolden(t *testing.T) {
	f := &fakeCore{plan: storyPlan()}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	tuitest.GoldenPlainHelp(t, m)
}
