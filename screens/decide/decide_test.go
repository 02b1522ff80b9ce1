package decide

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/actions"
	core "github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func snapshot(title1 string) model.Snapshot {
	return model.Snapshot{Viewer: "founder", Issues: []model.Issue{
		{Number: 1, Title: untrusted.Text(title1), State: "open", Labels: []untrusted.Label{model.LabelDecision, "status:proposed"},
			Body: "## Options\n1. Keep them in Go code (recommended)\n2. Load them from YAML\n3. Fetch them from an API\n\nDoor: two-way\n"},
		{Number: 2, Title: "Plan year 2024", State: "open", Labels: []untrusted.Label{model.LabelDecision, "status:proposed"},
			Body: "## Options\n1. Keep answering until March (recommended)\n2. Stop now and delete the tables\n\nDoor: one-way\n"},
	}}
}

// plan is decide 1,2 --accept 1,2: the first asks nothing, the second is
// neither the recommendation nor a two-way door.
func plan(t *testing.T, picks ...core.Pick) core.Plan {
	t.Helper()
	if len(picks) == 0 {
		picks = []core.Pick{{Decision: 1, Option: 1}, {Decision: 2, Option: 2}}
	}
	items, err := core.Choose(model.Derive(snapshot("Deductible tables")), identity.Account{Login: "founder", Permission: "admin"}, nil, picks)
	if err != nil {
		t.Fatal(err)
	}
	return core.Plan{Owner: "acme", Repo: "benefits", Viewer: "founder", Items: items}
}

type fakeCore struct {
	plan    core.Plan
	readErr error
	applied int
	outcome func(i int) actions.Outcome
}

func (f *fakeCore) deps() Deps {
	return Deps{Command: core.Command(pickOf(f.plan)),
		Read: func(context.Context) (core.Plan, error) { return f.plan, f.readErr },
		Apply: func(_ context.Context, p core.Plan) []core.Result {
			f.applied++
			out := make([]core.Result, len(p.Items))
			for i, it := range p.Items {
				o := actions.Outcome{Done: true, Wrote: []string{"Commented on #" + fmt.Sprint(it.Pick.Decision)},
					CommentURL: commentURL(it.Pick.Decision)}
				if f.outcome != nil {
					o = f.outcome(i)
				}
				out[i] = core.Result{Item: it, Outcome: o, Tried: true}
			}
			return out
		},
	}
}

// commentURL is the link to the acceptance comment the fake posts on
// Decision n.
func commentURL(n int) string {
	return fmt.Sprintf("https://github.com/acme/benefits/issues/%d#issuecomment-%d", n, 900+n)
}

func pickOf(p core.Plan) []core.Pick {
	var out []core.Pick
	for _, it := range p.Items {
		out = append(out, it.Pick)
	}
	if out == nil {
		out = []core.Pick{{Decision: 1, Option: 1}}
	}
	return out
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

// TestDecideScreenPlainGolden: the plain twin shows each Decision with its
// options and the one accepted, the inbox's confirmation line for the pick
// that is a one-way door and not the recommendation, every write, and
// writes once on y.
func TestDecideScreenPlainGolden(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 1 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	for _, want := range []string{"not the recommendation (accept option 1: Keep answering until March), and a one-way door: it cannot be undone later",
		`comment on #2: "Accepted option 2 (Stop now and delete the tables) by @founder"`, "add the label status:accepted to #1", "close #2 as completed", "done: Decision #2, option 2 accepted."} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	tuitest.GoldenPlain(t, out, code)
}

// TestDecideRecommendationOfATwoWayDoorAsksNothing: as the inbox's Enter on
// a recommendation, decide writes at once.
func TestDecideRecommendationOfATwoWayDoorAsksNothing(t *testing.T) {
	f := &fakeCore{plan: plan(t, core.Pick{Decision: 1, Option: 1})}
	code, out := runPlain(t, f.deps(), "")
	if code != tui.ExitOK || f.applied != 1 || strings.Contains(out, "Answering yes") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestDecideWritesNothingWithoutYes: any answer but y, and the end of
// input, write nothing and exit 4.
func TestDecideWritesNothingWithoutYes(t *testing.T) {
	for _, in := range []string{"n\n", "no\n", "yes please\n", "\n", ""} {
		f := &fakeCore{plan: plan(t)}
		code, out := runPlain(t, f.deps(), in)
		if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "nothing was written") {
			t.Errorf("input %q: exit %d, applied %d:\n%s", in, code, f.applied, out)
		}
	}
}

// TestDecideDryRunWritesNothing: --dry-run lists the writes, asks nothing,
// exit 0.
func TestDecideDryRunWritesNothing(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	d := f.deps()
	d.DryRun = true
	code, out := runPlain(t, d, "y\n")
	if code != tui.ExitOK || f.applied != 0 || !strings.Contains(out, "--dry-run: nothing was written.") || !strings.Contains(out, "close #2 as completed") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestDecideRefusalSaysWhy: a refusal from the core is shown with its
// reason, exit 4; a failure to read is exit 1. Neither writes.
func TestDecideRefusalSaysWhy(t *testing.T) {
	f := &fakeCore{readErr: &core.Refusal{Reason: "@reader has read access to this repository"}}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "refused: @reader has read access to this repository.") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	f = &fakeCore{readErr: errors.New("GitHub answered 502")}
	code, _ = runPlain(t, f.deps(), "y\n")
	if code != tui.ExitFailed || f.applied != 0 {
		t.Fatalf("exit %d, applied %d", code, f.applied)
	}
}

// TestDecideFailureIsThreeLinesAndExit1: a write that fails shows the
// inbox's three plain lines and what landed; a card that changed is exit 4.
func TestDecideFailureIsThreeLinesAndExit1(t *testing.T) {
	f := &fakeCore{plan: plan(t), outcome: func(i int) actions.Outcome {
		if i == 0 {
			return actions.Outcome{Done: true}
		}
		return actions.Outcome{Wrote: []string{"Commented on #2"}, Failure: &actions.Failure{What: "The label was not added.", Changed: "The comment is on #2.", Next: "Run it again."}}
	}}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitFailed || !strings.Contains(out, "not done: Decision #2\n  The label was not added.\n  The comment is on #2.\n  Run it again.\n  landed: Commented on #2.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	f = &fakeCore{plan: plan(t), outcome: func(int) actions.Outcome {
		return actions.Outcome{Changed: true, ChangedWhat: "Decision #1's title changed; nothing was written"}
	}}
	code, out = runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || !strings.Contains(out, "not done: Decision #1 — Decision #1's title changed; nothing was written.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestDecideScreenHostileTitle: escape sequences in a Decision's title and
// options are shown as text in both renderers, never obeyed.
func TestDecideScreenHostileTitle(t *testing.T) {
	items, err := core.Choose(model.Derive(snapshot("evil\x1b]52;c;aGk=\x07 title\x1b[2J \u202e")), identity.Account{Login: "founder", Permission: "admin"}, nil,
		[]core.Pick{{Decision: 1, Option: 2}})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeCore{plan: core.Plan{Viewer: "founder", Items: items}}
	_, out := runPlain(t, f.deps(), "n\n")
	tuitest.AssertInert(t, "plain", out)
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	tuitest.AssertInert(t, "full screen", ansi.Strip(m.View().Content))
}

// TestDecideScreenGolden: the full screen at 40, 80 and 120 columns shows
// the picks, the confirmation and the writes with y and n; y writes once,
// through a command, never inside Update.
func TestDecideScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: plan(t)}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			var mdl tea.Model = m
			mdl, _ = mdl.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
			tuitest.GoldenView(t, mdl.View().Content, w, 24)
			_, cmd := mdl.Update(tuitest.Key("y"))
			if f.applied != 0 || cmd == nil {
				t.Fatalf("y: applied %d inside Update, command %v", f.applied, cmd)
			}
			msg := cmd()
			if _, ok := msg.(tui.WroteMsg[[]core.Result]); !ok || f.applied != 1 {
				t.Fatalf("y's command did not write once (applied %d)", f.applied)
			}
			mdl.Update(msg)
			if done, code := m.Done(); done || code != tui.ExitOK || !strings.Contains(strings.Join(m.Transcript(), "\n"), "done: Decision #2") {
				t.Errorf("after the write: done %v (the full screen waits for q), exit %d", done, code)
			}
		})
	}
}

// TestDecideQuitAtTheQuestionIsANo: ctrl+c or SIGTERM at the question
// writes nothing, exit 4.
func TestDecideQuitAtTheQuestionIsANo(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	_, cmd := m.Update(tui.QuitRequestMsg{Why: "SIGTERM"})
	if done, code := m.Done(); !done || code != tui.ExitRefused || f.applied != 0 || cmd == nil {
		t.Fatalf("done %v, exit %d, applied %d", done, code, f.applied)
	}
}

// TestDecideFullHelpGolden: ? while decide asks, at 40, 80 and 120 columns.
func TestDecideFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: plan(t)}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestDecidePlainHelpGolden: the plain ? while decide asks.
func TestDecidePlainHelpGolden(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	tuitest.GoldenPlainHelp(t, m)
}
