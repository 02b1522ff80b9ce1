package initrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func freshPlan() core.Plan {
	return core.Plan{Owner: "acme", Repo: "fresh", DefaultBranch: "main", Integration: "main", Branch: core.SetupBranch,
		BaseSHA: "2cee172aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Admin: true, VariableReadable: true,
		Changes: []core.Change{
			{Path: ".github/workflows/aayudha-merge-gate.yml", Action: core.Create, Why: "the merge gate"},
			{Path: ".aayudha/config.toml", Action: core.Keep, Why: "already there; your policy is left as it is"},
			{Path: ".github/CODEOWNERS", Action: core.Update, Why: "adds 2 lines: @founder owns /.github/, /LAYERS.md"},
			{Path: ".gitignore", Action: core.Create, Why: "the one line /.aayudha/proof/: local proof packs are never committed"},
		},
		Rulesets: []core.RulesetWrite{{Name: core.LedgerRulesetName, Branches: []string{"ledger"},
			Fixes: []core.RuleCheck{{Branch: "ledger", Rule: core.RuleNoForce, Verdict: core.Missing, Detail: "nothing blocks a force-push to the ledger, so any token with push access can rewrite its records"}},
			Body:  `{"bypass_actors":[],"conditions":{"ref_name":{"exclude":[],"include":["refs/heads/ledger"]}},"enforcement":"active","name":"aayudha ledger","rules":[{"type":"non_fast_forward"},{"type":"deletion"}],"target":"branch"}`}},
	}
}

type fakeCore struct {
	plan    core.Plan
	readErr error
	applied int
}

func (f *fakeCore) deps(yes bool) Deps {
	return Deps{
		Yes: yes, Identity: true, Guide: core.AppGuide("https://github.com", "acme", "fresh"),
		Read: func(context.Context) (core.Plan, error) { return f.plan, f.readErr },
		Apply: func(_ context.Context, p core.Plan) (core.Result, error) {
			f.applied++
			return core.Result{PR: 7, PRURL: "https://github.com/acme/fresh/pull/7", Branch: p.Branch, Rulesets: []string{core.LedgerRulesetName}}, nil
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

// TestInitScreenPlainGolden: the plain twin says what it read, what it will
// write and why, and the presence App's steps, then asks; y writes.
func TestInitScreenPlainGolden(t *testing.T) {
	f := &fakeCore{plan: freshPlan()}
	code, out := runPlain(t, f.deps(false), "y\n")
	if code != tui.ExitOK || f.applied != 1 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	for _, want := range []string{"https://github.com/settings/apps/new", "Tick \"Enable Device Flow\"", "no permissions", "No access", "Homepage URL", "GitHub App name"} {
		if !strings.Contains(out, want) {
			t.Errorf("the presence App guide lacks %q", want)
		}
	}
	tuitest.GoldenPlain(t, out, code)
}

// TestInitScreenWritesNothingWithoutYes: any answer but y, and the end of
// input, write nothing and exit 4.
func TestInitScreenWritesNothingWithoutYes(t *testing.T) {
	for _, in := range []string{"n\n", "no\n", "yes please\n", "maybe\n", "\n", ""} {
		f := &fakeCore{plan: freshPlan()}
		code, out := runPlain(t, f.deps(false), in)
		if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "Nothing was written.") {
			t.Errorf("input %q: exit %d, applied %d:\n%s", in, code, f.applied, out)
		}
	}
}

// TestInitScreenRefusesVariableWithoutAdmin: a token without admin rights
// is told before anything is written that it cannot set the variable.
func TestInitScreenRefusesVariableWithoutAdmin(t *testing.T) {
	p := freshPlan()
	p.Admin, p.ClientID = false, "Ov23liSomeApp"
	f := &fakeCore{plan: p}
	code, out := runPlain(t, f.deps(true), "")
	if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "needs admin rights") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

func TestInitScreenReadFailure(t *testing.T) {
	f := &fakeCore{readErr: errors.New("GitHub answered 404 Not Found")}
	code, out := runPlain(t, f.deps(true), "")
	if code != tui.ExitFailed || !strings.Contains(out, "Nothing was written.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestInitScreenGolden: the full screen at 40, 80 and 120 columns asks with
// y and n, fits the terminal, and scrolls back to the top of the proposal.
func TestInitScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: freshPlan()}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps(false))
			var model tea.Model = m
			model, _ = model.Update(planMsg{plan: f.plan})
			tuitest.GoldenView(t, model.View().Content, w, 24)
			for range 120 { // the ruleset's body wraps over many lines at 40 columns
				model, _ = model.Update(tuitest.Key("up"))
			}
			top := model.View().Content
			tuitest.AssertFits(t, top, w, 24)
			if !strings.Contains(top, "acme/fresh: default branch main") {
				t.Errorf("scrolled back, the top of the proposal is not in view:\n%s", top)
			}
			_, cmd := model.Update(tuitest.Key("y"))
			if f.applied != 0 || cmd == nil {
				t.Fatalf("y: applied %d inside Update, command %v", f.applied, cmd)
			}
			if _, ok := pump(model, cmd).(appliedMsg); !ok || f.applied != 1 {
				t.Errorf("y's command did not write the plan once (applied %d)", f.applied)
			}
		})
	}
}

// TestInitScreenShowsRulesetsAWriterCannotCreate: with a writer's token
// the rulesets are shown for an admin with the command and body, nothing
// claims the repository has everything, and nothing is written.
func TestInitScreenShowsRulesetsAWriterCannotCreate(t *testing.T) {
	p := freshPlan()
	p.Admin, p.Changes = false, nil
	f := &fakeCore{plan: p}
	code, out := runPlain(t, f.deps(true), "")
	if code != tui.ExitOK || f.applied != 0 || strings.Contains(out, "already has everything") ||
		!strings.Contains(out, "creating a ruleset needs an admin's token") || !strings.Contains(out, "gh api --method POST repos/acme/fresh/rulesets --input ruleset.json") ||
		!strings.Contains(out, `body: {"bypass_actors":[]`) || !strings.Contains(out, "the rulesets need an admin's token") {
		t.Errorf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}
