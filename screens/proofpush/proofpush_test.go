package proofpush

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/ledgerpack"
	core "github.com/aayudha/aayu/actions/proofpush"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

const head = "cadf9742eec0dd334a04b9b6822bf8e6063c3b21"

func landed() *core.Result {
	return &core.Result{Dir: ".aayudha/proof/5", Bucket: "s3://proof-media/acme",
		Pushed: &ledgerpack.Pushed{Path: "proof/5/" + head + "/advisory", Commit: "9f1c2e3d4b5a69788796a5b4c3d2e1f009182736", Files: 5,
			PackSHA256: strings.Repeat("ab", 32), Report: &proof.Report{Pack: &proof.Pack{Story: 5}, FloorsHold: true},
			Media:   map[string]string{"screens/home.png": "acme/acme/benefits/5/" + head + "/screens/home.png"},
			Comment: gatecomment.Upserted{ID: 7, URL: "https://github.com/acme/benefits/pull/6#issuecomment-7", Created: true}}}
}

type fake struct {
	res    *core.Result
	err    error
	pushed int
}

func (f *fake) deps() Deps {
	return Deps{Story: 5, Push: func(context.Context) (*core.Result, error) {
		f.pushed++
		return f.res, f.err
	}}
}

func runPlain(t *testing.T, d Deps) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, d),
		tui.RunOptions{Plain: true, Out: &out, In: strings.NewReader("")})
	if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

// TestProofPushScreenPlainGolden: the plain twin says what it does, then
// where the pack landed, the media copied and the comment, and that the
// pack never counts for ship; it pushes once and asks nothing.
func TestProofPushScreenPlainGolden(t *testing.T) {
	f := &fake{res: landed()}
	code, out := runPlain(t, f.deps())
	if code != tui.ExitOK || f.pushed != 1 {
		t.Fatalf("exit %d, pushed %d:\n%s", code, f.pushed, out)
	}
	for _, want := range []string{"landed: the local pack is on the ledger as an advisory pack for story 5", "proof/5/" + head + "/advisory (commit 9f1c2e3d4b5a)",
		"media: 1 copied to s3://proof-media/acme", "screens/home.png → acme/acme/benefits/5/" + head + "/screens/home.png", "never counts for ship"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	tuitest.GoldenPlain(t, out, code)
}

// TestProofPushScreenRefusalSaysWhy: a refusal is shown with its reason,
// exit 4; a failure to reach GitHub is exit 1 with the next step.
func TestProofPushScreenRefusalSaysWhy(t *testing.T) {
	f := &fake{err: fmt.Errorf("%w: reports/vet.txt changed; nothing was pushed", ledgerpack.ErrPackIntegrity)}
	code, out := runPlain(t, f.deps())
	if code != tui.ExitRefused || !strings.Contains(out, "refused: the local pack does not hold together: reports/vet.txt changed; nothing was pushed.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	f = &fake{err: errors.New("GitHub answered 502")}
	code, out = runPlain(t, f.deps())
	if code != tui.ExitFailed || !strings.Contains(out, "failed: GitHub answered 502.") || !strings.Contains(out, "aayu proof push 5 again") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestProofPushScreenGolden: the full screen at 40, 80 and 120 columns
// once the push landed; the push runs as a command, never inside Update,
// and the screen waits for q.
func TestProofPushScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fake{res: landed()}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			cmd := m.Init()
			if f.pushed != 0 || cmd == nil {
				t.Fatalf("the push ran before its command (pushed %d)", f.pushed)
			}
			var model tea.Model = m
			model, _ = model.Update(cmd())
			tuitest.GoldenView(t, model.View().Content, w, 24)
			if done, code := m.Done(); done || code != tui.ExitOK {
				t.Fatalf("after the push: done %v (the full screen waits for q), exit %d", done, code)
			}
			model.Update(tuitest.Key("q"))
			if done, _ := m.Done(); !done {
				t.Fatal("q did not close the screen")
			}
		})
	}
}

// TestProofPushScreenQuitWhilePushingFinishesFirst: ctrl+c or SIGTERM
// while the push runs lets it land, then ends the screen saying what
// landed.
func TestProofPushScreenQuitWhilePushingFinishesFirst(t *testing.T) {
	f := &fake{res: landed()}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	cmd := m.Init()
	m.Update(tui.QuitRequestMsg{Why: "SIGTERM"})
	if done, _ := m.Done(); done {
		t.Fatal("the screen ended with the push under way")
	}
	m.Update(cmd())
	if done, code := m.Done(); !done || code != tui.ExitOK || !strings.Contains(strings.Join(m.Transcript(), "\n"), "landed:") {
		t.Fatalf("done %v, exit %d:\n%s", done, code, strings.Join(m.Transcript(), "\n"))
	}
}

// TestProofPushScreenHostileURL: text that came from GitHub (the comment's
// URL, an error) is shown as text in both renderers, never obeyed.
func TestProofPushScreenHostileURL(t *testing.T) {
	r := landed()
	r.Comment.URL = "https://evil\x1b]52;c;aGk=\x07/\x1b[2J"
	f := &fake{res: r}
	_, out := runPlain(t, f.deps())
	tuitest.AssertInert(t, "plain", out)
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(m.Init()())
	tuitest.AssertInert(t, "full screen", ansi.Strip(m.View().Content))
}

// TestProofPushFullHelpGolden and TestProofPushPlainHelpGolden: ? once the
// push landed.
func TestProofPushFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fake{res: landed()}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			m.Update(m.Init()())
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

func TestProofPushPlainHelpGolden(t *testing.T) {
	f := &fake{res: landed()}
	c := tuitest.Common(80, 24)
	c.Plain = true // plain mode copies nothing, so c is not listed
	m := New(context.Background(), c, f.deps())
	m.Update(m.Init()())
	tuitest.GoldenPlainHelp(t, m)
}
