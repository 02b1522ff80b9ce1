package inspect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	core "github.com/aayudha/aayu/actions/inspect"
	model "github.com/aayudha/aayu/model/inspect"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

const head = "4ebf2a1c520b9c0d9f7717a55c8b2b07c8fcb23c"

// judged is a head the sandbox reviewer judged: one criterion shown, one
// with a finding and the reviewer's "not shown".
func judged() core.View {
	return core.View{PR: 4, Head: head, Title: "Greet the person by name", Found: true, State: "success",
		Summary: "rung A: every criterion shown by its mapped tests",
		Run:     "https://github.com/acme/benefits/actions/runs/77",
		Judgement: &model.Judgement{Version: 1, PR: 4, Head: head, Story: 3, Rung: "A", Reviewer: "openai sandbox-reviewer",
			Spend: model.Spend{TokensIn: 1200, TokensOut: 140},
			Criteria: []model.Criterion{
				{ID: 1, Text: "the greeting names the person", Tests: []string{"greet/greet_test.go:TestGreetsByName"}, Rung: "A", Shown: true,
					Reasons: "the test asserts the name appears in the greeting"},
				{ID: 2, Text: "an empty name is refused", Tests: []string{"greet/greet_test.go:TestRefusesEmpty", "greet/greet_test.go:TestGreetsByName"},
					Problems: []string{"greet/greet_test.go:TestRefusesEmpty has no failure path"}, Rung: "B", Reasons: "the refusal is never asserted"},
			}}}
}

// humanRung is a head no reviewer judged: the person's review is next.
func humanRung() core.View {
	return core.View{PR: 4, Head: head, Title: "Greet the person by name", Found: true, State: "pending",
		Summary: "human rung: no reviewer app or paid model could review this head",
		Judgement: &model.Judgement{Version: 1, PR: 4, Head: head, Story: 3, Rung: "human",
			Criteria: []model.Criterion{{ID: 1, Text: "the greeting names the person", Tests: []string{"greet/greet_test.go:TestGreetsByName"}}}}}
}

func deps(v core.View, err error) Deps {
	return Deps{Repo: "acme/benefits", PR: 4, Read: func(context.Context) (core.View, error) { return v, err }}
}

func opened(w, h int, d Deps) *Model {
	m := New(context.Background(), tui.Common{Width: w, Height: h, Styles: tui.NewStyles(true)}, d)
	m.Update(m.Init()())
	return m
}

// TestInspectViewGolden: the judged head and the human rung at 40, 80 and
// 120 columns, every command and URL whole.
func TestInspectViewGolden(t *testing.T) {
	for name, v := range map[string]core.View{"judged": judged(), "human": humanRung()} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				view := opened(w, 24, deps(v, nil)).View().Content
				tuitest.AssertFits(t, view, w, 24)
				tuitest.AssertUnbroken(t, view, w)
				xgolden.RequireEqual(t, ansi.Strip(view))
			})
		}
	}
}

// TestInspectViewShowsTheJudgement: the head, the rung, each criterion
// with its tests, the finding, the reviewer's reasons and spend.
func TestInspectViewShowsTheJudgement(t *testing.T) {
	flat := strings.Join(strings.Fields(ansi.Strip(opened(120, 40, deps(judged(), nil)).View().Content)), " ")
	for _, want := range []string{"head 4ebf2a1", "rung A", "criterion 1: the greeting names the person",
		"tests: greet/greet_test.go:TestGreetsByName", "finding: greet/greet_test.go:TestRefusesEmpty has no failure path",
		"reviewer: rung B, not shown: the refusal is never asserted", "spend: 1200 tokens in, 140 out", "q quit"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the screen does not show %q:\n%s", want, flat)
		}
	}
}

// TestInspectPlainTwinIsViewLines: the plain twin prints exactly the
// lines `aayu inspect PR --plain` prints, asks nothing and ends with 0.
func TestInspectPlainTwinIsViewLines(t *testing.T) {
	var out bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, deps(humanRung(), nil)), tui.RunOptions{Plain: true, Out: &out})
	if err != nil || code != tui.ExitOK {
		t.Fatalf("exit %d, %v", code, err)
	}
	want := strings.Join(core.ViewLines(humanRung()), "\n") + "\n"
	if out.String() != want {
		t.Errorf("the plain twin printed\n%s\nwant ViewLines:\n%s", out.String(), want)
	}
}

// TestInspectStaysUntilQ: a viewer: the judgement read, the screen stays
// open (it does not end by itself); q ends it with exit 0.
func TestInspectStaysUntilQ(t *testing.T) {
	m := New(context.Background(), tuitest.Common(80, 8), deps(judged(), nil))
	if _, cmd := m.Update(m.Init()()); cmd != nil {
		t.Errorf("the full screen ended itself once the judgement was read")
	}
	if done, _ := m.Done(); done {
		t.Fatal("the full screen is done before q")
	}
	first := ansi.Strip(m.View().Content)
	m.Update(tuitest.Key("j"))
	if ansi.Strip(m.View().Content) == first {
		t.Error("down did not scroll")
	}
	_, cmd := m.Update(tuitest.Key("q"))
	if done, code := m.Done(); !done || code != tui.ExitOK {
		t.Fatalf("after q: done %v, code %d", done, code)
	}
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q did not quit the program")
	}
	if left := strings.Join(m.Epilogue(), "\n"); !strings.Contains(left, "inspect: success") {
		t.Errorf("the screen leaves no word on the head behind:\n%s", left)
	}
}

// TestInspectReadFailureInWords: a read that fails says why, exit 1, and
// q before the read is a failure too (nothing was shown).
func TestInspectReadFailureInWords(t *testing.T) {
	m := opened(80, 24, deps(core.View{}, errors.New("reading pull request #4: Not Found")))
	flat := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	if !strings.Contains(flat, "failed: inspect's judgement could not be read: reading pull request #4: Not Found") {
		t.Errorf("the failure is not in words:\n%s", flat)
	}
	m.Update(tuitest.Key("q"))
	if done, code := m.Done(); !done || code != tui.ExitFailed {
		t.Errorf("done %v, code %d; want exit 1", done, code)
	}
	early := New(context.Background(), tuitest.Common(80, 24), deps(judged(), nil))
	early.Update(tuitest.Key("q"))
	if _, code := early.Done(); code != tui.ExitFailed {
		t.Errorf("q before the read: code %d, want 1", code)
	}
}
