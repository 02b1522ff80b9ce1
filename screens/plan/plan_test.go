package plan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

const commentURL = "https://github.com/acme/benefits/issues/131#issuecomment-6119768506"

func review(bypass bool) core.Review {
	r := core.Review{Owner: "acme", Repo: "benefits", Story: 131, Kind: "Story", Title: "Dental cap in the policy layer",
		Section: []string{"- `policy/dental.go`: the cap", "- deductible/"}, Planned: []string{"policy/dental.go", "deductible/"},
		PR: 148, PRAuthor: "rahulnakmol", Changed: []string{"policy/dental.go", "policy/dental_test.go"}, Base: "dev",
		Hits: []core.Hit{{ID: "L04", Name: "policy", Paths: []string{"policy/dental.go (planned)", "policy/dental.go (changed in #148)", "policy/dental_test.go (changed in #148)"}}},
		Record: pass.PlanRecord{Story: 131, Layers: []string{"L04"}, Kind: "review", Reviewer: "ana", ApprovedBy: "ana", RecordedBy: "ana",
			RecordedAt: "2026-10-12T07:30:32Z"},
		CommentBody: "Plan reviewed: …"}
	if bypass {
		r.Record.Kind, r.Record.Reviewer, r.Record.ApprovedBy, r.Record.RecordedBy = "solo-bypass", pass.NoPlanReviewer, "", "rahulnakmol"
		r.CommentBody = "Solo-mode bypass: …"
	}
	return r
}

type fakeCore struct {
	plan     core.Review
	readErr  error
	applyErr error
	applied  int
}

func (f *fakeCore) deps() Deps {
	return Deps{Story: 131, SoloBypass: f.plan.Bypass(),
		Read: func(context.Context) (core.Review, error) { return f.plan, f.readErr },
		Apply: func(_ context.Context, r core.Review) (core.Result, error) {
			f.applied++
			if f.applyErr != nil {
				return core.Result{}, f.applyErr
			}
			return core.Result{CommentURL: commentURL, Posted: true, Commit: "9f1c2e3d4b5a69788796a5b4c3d2e1f009182736"}, nil
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

// TestPlanScreenPlainGolden: the plain twin shows the Plan section and the
// never layers with the paths that touch them, lists every write, and
// writes them once on y.
func TestPlanScreenPlainGolden(t *testing.T) {
	f := &fakeCore{plan: review(false)}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 1 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	for _, want := range []string{"- `policy/dental.go`: the cap", "  L04 policy:\n    policy/dental.go (planned)", "posts your Plan reviewed: comment on #131",
		"specs/131/plan-review.json", "reviewed: the plan of #131 is reviewed by @ana for L04.", "Next: aayu ship 148"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	tuitest.GoldenPlain(t, out, code)
}

// TestPlanBypassScreenPlainGolden: the bypass says no review happened,
// before the yes and after it.
func TestPlanBypassScreenPlainGolden(t *testing.T) {
	f := &fakeCore{plan: review(true)}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 1 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	for _, want := range []string{"aayu plan 131 --solo-bypass:", "posts your Solo-mode bypass: comment on #131", "This records that no review happened",
		"kind solo-bypass, reviewer none (solo mode)", "no review happened, and the record says so"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	tuitest.GoldenPlain(t, out, code)
}

// TestPlanWritesNothingWithoutYes: any answer but y, and the end of input,
// write nothing and exit 4.
func TestPlanWritesNothingWithoutYes(t *testing.T) {
	for _, in := range []string{"n\n", "yes please\n", "\n", ""} {
		f := &fakeCore{plan: review(true)}
		code, out := runPlain(t, f.deps(), in)
		if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "nothing was written") {
			t.Errorf("input %q: exit %d, applied %d:\n%s", in, code, f.applied, out)
		}
	}
}

// TestPlanNotNeededOrAlreadyRecordedWritesNothing: a plan outside the
// never layers, or one already recorded, is said, nothing asked, exit 0.
func TestPlanNotNeededOrAlreadyRecordedWritesNothing(t *testing.T) {
	p := review(false)
	p.Hits, p.NotNeeded = nil, "the plan of #131 touches no never layer (dev's autonomy.never: L04), so no plan review is needed"
	f := &fakeCore{plan: p}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 0 || !strings.Contains(out, "No plan review needed") || strings.Contains(out, "Answering yes") {
		t.Fatalf("not needed: exit %d, applied %d:\n%s", code, f.applied, out)
	}
	p = review(false)
	p.Same = true
	f = &fakeCore{plan: p}
	code, out = runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 0 || !strings.Contains(out, "Already recorded: specs/131/plan-review.json") || strings.Contains(out, "Answering yes") {
		t.Fatalf("already recorded: exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestPlanRefusalSaysWhy: a refusal from the core is shown with its reason,
// exit 4, before the yes and after it (the comment was not there on read
// back); a failure to read is exit 1.
func TestPlanRefusalSaysWhy(t *testing.T) {
	f := &fakeCore{readErr: &core.Refusal{Reason: "the solo-mode bypass of #131's plan review is refused: this repository has a bot identity"}}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || f.applied != 0 || !strings.Contains(out, "refused: the solo-mode bypass of #131's plan review is refused") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	f = &fakeCore{plan: review(true), applyErr: &core.Refusal{Reason: "no Solo-mode bypass: comment by @rahulnakmol is on #131 when read back"}}
	code, out = runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || !strings.Contains(out, "Nothing was written to the ledger.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	f = &fakeCore{readErr: errors.New("GitHub answered 502")}
	if code, _ = runPlain(t, f.deps(), "y\n"); code != tui.ExitFailed {
		t.Fatalf("exit %d", code)
	}
}

// TestPlanScreenHostileText: escape sequences and line breaks in the
// title, the Plan section and the paths are shown as text in both
// renderers, never obeyed.
func TestPlanScreenHostileText(t *testing.T) {
	p := review(false)
	p.Title = "evil\x1b]52;c;aGk=\x07 title\x1b[2J"
	p.Section = []string{"- policy/\x1b[31mred\x1b[0m \u202eright-to-left", "second\rline"}
	p.Hits[0].Paths = []string{"policy/\x1b[2Jx.go (planned)"}
	// The author's login and the base branch are typed where they are
	// decoded (untrusted.Login, untrusted.Ref) and show by the one rule.
	p.PRAuthor, p.Base = "rahul\u202enakmol", "dev\u200b\x9b2J"
	f := &fakeCore{plan: p}
	_, out := runPlain(t, f.deps(), "n\n")
	tuitest.AssertInert(t, "plain", out)
	for _, want := range []string{untrusted.Line(p.PRAuthor.Raw()), untrusted.Line(p.Base.Raw())} {
		if !strings.Contains(out, want) {
			t.Errorf("the plain screen does not show %q:\n%s", want, out)
		}
	}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Review]{Value: p})
	tuitest.AssertInert(t, "full screen", ansi.Strip(m.View().Content))
}

// TestPlanScreenGolden: the full screen at 40, 80 and 120 columns shows
// the plan, its never layers and the writes with y and n; y writes once,
// through a command, never inside Update.
func TestPlanScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: review(true)}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			var model tea.Model = m
			model, _ = model.Update(tui.ReadMsg[core.Review]{Value: f.plan})
			tuitest.GoldenView(t, model.View().Content, w, 24)
			_, cmd := model.Update(tuitest.Key("y"))
			if f.applied != 0 || cmd == nil {
				t.Fatalf("y: applied %d inside Update, command %v", f.applied, cmd)
			}
			msg := cmd()
			if _, ok := msg.(tui.WroteMsg[core.Result]); !ok || f.applied != 1 {
				t.Fatalf("y's command did not write the record once (applied %d)", f.applied)
			}
			model.Update(msg)
			if done, code := m.Done(); done || code != tui.ExitOK || !strings.Contains(model.View().Content, "bypassed") {
				t.Errorf("after the write: done %v (the full screen waits for q), exit %d:\n%s", done, code, model.View().Content)
			}
		})
	}
}

// TestPlanQuitAtTheQuestionIsANo: ctrl+c or SIGTERM at the question
// writes nothing, exit 4.
func TestPlanQuitAtTheQuestionIsANo(t *testing.T) {
	f := &fakeCore{plan: review(false)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Review]{Value: f.plan})
	_, cmd := m.Update(tui.QuitRequestMsg{Why: "SIGTERM"})
	if done, code := m.Done(); !done || code != tui.ExitRefused || f.applied != 0 || cmd == nil {
		t.Fatalf("done %v, exit %d, applied %d", done, code, f.applied)
	}
}

// TestPlanFullHelpGolden: ? while plan asks, at 40, 80 and 120 columns.
func TestPlanFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: review(false)}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			m.Update(tui.ReadMsg[core.Review]{Value: f.plan})
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestPlanPlainHelpGolden: the plain ? while plan asks.
func TestPlanPlainHelpGolden(t *testing.T) {
	f := &fakeCore{plan: review(false)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Review]{Value: f.plan})
	tuitest.GoldenPlainHelp(t, m)
}
