package verify

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func TestVerifyScreenGolden(t *testing.T) {
	cases := map[string]struct {
		s      script
		finish bool
	}{
		"running":       {runningScript(), false},
		"floorshold":    {floorsHold(), true},
		"coveragefails": {coverageFails(), true},
	}
	for _, name := range []string{"running", "floorshold", "coveragefails"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				m := driven(t, tuitest.Common(w, 24), cases[name].s, cases[name].finish)
				tuitest.GoldenView(t, m.View().Content, w, 24)
			})
		}
	}
}

func press(m *Model, k string) tea.Cmd {
	_, cmd := m.Update(tuitest.Key(k))
	return cmd
}

// TestVerifyScreenShowsTheRunningTest: while a step runs, its row names the
// test under way; the others wait.
func TestVerifyScreenShowsTheRunningTest(t *testing.T) {
	m := driven(t, tuitest.Common(80, 24), runningScript(), false)
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"running  tests       deductible.TestRemaining", "waiting  evidence", "waiting  pack"} {
		if !strings.Contains(v, want) {
			t.Errorf("the running view lacks %q:\n%s", want, v)
		}
	}
	if done, _ := m.Done(); done {
		t.Error("the screen ended while the run was going")
	}
}

// TestVerifyScreenOutputView: o shows the test output, scrolls, esc goes
// back; the screen stays open.
func TestVerifyScreenOutputView(t *testing.T) {
	m := driven(t, tuitest.Common(80, 8), floorsHold(), true)
	press(m, "o")
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "test output 7 lines") || !strings.Contains(v, "coverage: 100.0%") {
		t.Fatalf("the output view does not show the newest lines:\n%s", v)
	}
	press(m, "up")
	press(m, "up")
	if v2 := ansi.Strip(m.View().Content); v2 == v || !strings.Contains(v2, "=== RUN   TestRemaining") {
		t.Errorf("up did not scroll the output:\n%s", v2)
	}
	press(m, "esc")
	if m.outputView.showOutput {
		t.Fatal("esc did not leave the output view")
	}
	press(m, "enter")
	if !m.outputView.showOutput {
		t.Fatal("enter did not open the output view")
	}
	press(m, "esc")
	if done, _ := m.Done(); done {
		t.Fatal("the output view ended the screen")
	}
	cmd := press(m, "q")
	if done, code := m.Done(); !done || code != packbuild.ExitOK || cmd == nil {
		t.Fatalf("after q: done=%v code=%d", done, code)
	}
}

// TestVerifyScreenQuitWhileRunning: quitting before the pack is built is a
// failure (exit 1) and cancels the run.
func TestVerifyScreenQuitWhileRunning(t *testing.T) {
	m := driven(t, tuitest.Common(80, 24), runningScript(), false)
	press(m, "q")
	if done, code := m.Done(); !done || code != packbuild.ExitFailed {
		t.Fatalf("done=%v code=%d, want exit 1", done, code)
	}
	if m.ctx.Err() == nil {
		t.Error("quitting did not cancel the run")
	}
	if last := m.Transcript()[len(m.Transcript())-1]; !strings.Contains(last, "stopped before the pack was built") {
		t.Errorf("last line %q", last)
	}
}

// TestVerifyScreenPlainGolden is the plain twin: the same run through the
// shell's plain renderer, a line as each step starts and ends.
func TestVerifyScreenPlainGolden(t *testing.T) {
	refused := floorsHold()
	refused.events = nil
	refused.out = &packbuild.Outcome{ExitCode: packbuild.ExitRefused, Refusal: "The checkout has no evidence map .aayudha/evidence/3.toml, so no test is named for any criterion."}
	failed := floorsHold()
	failed.events = failed.events[:1]
	failed.out, failed.err = nil, errGit
	unverified := floorsHold()
	unverified.out.ExitCode = packbuild.ExitRefused
	unverified.out.Report = &proof.Report{Pack: &proof.Pack{Story: 3}, PackSHA256: fakeSum, FloorsHold: true,
		Criteria: []proof.CriterionResult{story3Criteria[0], {ID: 2, Text: "Remaining never goes below zero.", Reason: "it has no evidence"}},
		Problems: []proof.Problem{{Code: proof.CodeCriterionNoEvid, Criterion: 2, Message: "Criterion 2 has no evidence."}}}
	cases := map[string]struct {
		s    script
		code int
	}{
		"floorshold":    {floorsHold(), packbuild.ExitOK},
		"coveragefails": {coverageFails(), packbuild.ExitFloor},
		"unverified":    {unverified, packbuild.ExitRefused},
		"refused":       {refused, packbuild.ExitRefused},
		"failed":        {failed, packbuild.ExitFailed},
	}
	for _, name := range []string{"floorshold", "coveragefails", "unverified", "refused", "failed"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			m := New(context.Background(), tui.Common{Plain: true}, cases[name].s.deps())
			code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &buf})
			if err != nil {
				t.Fatal(err)
			}
			if code != cases[name].code {
				t.Errorf("exit %d, want %d", code, cases[name].code)
			}
			tuitest.GoldenPlain(t, buf.String(), code)
		})
	}
}

// TestVerifyScreenSanitises: a test name or a detail from the repository
// cannot move the cursor, set the title or write the clipboard.
func TestVerifyScreenSanitises(t *testing.T) {
	attack := "EVIL\x1b]52;c;ZXZpbA==\x07\x1b[2J\u202eEND"
	s := floorsHold()
	s.events = append([]packbuild.Event{packbuild.TestRunning{Step: packbuild.StepTests, Package: "x", Test: attack}}, s.events[:1]...)
	s.events = append(s.events, packbuild.TestRunning{Step: packbuild.StepTests, Package: "x", Test: attack}, out(attack),
		ended(packbuild.StepTests, proof.ResultFail, attack))
	m := driven(t, tui.Common{Width: 200, Height: 30, Styles: tui.NewStyles(true)}, s, false)
	views := []string{m.View().Content}
	press(m, "o")
	views = append(views, m.View().Content)
	views = append(views, m.Transcript()...)
	shown := 0
	for _, v := range views {
		for i := strings.Index(v, "EVIL"); i >= 0; i = strings.Index(v, "EVIL") {
			shown++
			seg := v[i:]
			seg = seg[:strings.Index(seg, "END")]
			for _, r := range seg {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
					t.Fatalf("untrusted text reached the terminal with control %U intact: %q", r, seg)
				}
			}
			v = v[i+4:]
		}
	}
	if shown < 3 {
		t.Errorf("the hostile text was shown %d times, want it in the view, the output and the transcript", shown)
	}
}

// TestVerifyScreenRealRun drives the screen in plain mode over a real run
// of the sandbox demo's story 3: a clone, go test, the pack.
func TestVerifyScreenRealRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git and go test on the demo module")
	}
	for _, bin := range []string{"git", "go"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s is not on PATH", bin)
		}
	}
	srv, err := sandbox.New(sandbox.Options{StateDir: t.TempDir(), Now: func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ready, err := exec.Command("git", "--git-dir", srv.GitDir(), "show", "ledger:specs/3/ready.md").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "benefits")
	deps := Deps{Story: 3, Prepare: func(ctx context.Context) (packbuild.Request, error) {
		err := packbuild.Tools{}.CloneCheckout(ctx, srv.GitDir(), dir, srv.HeadSHA(sandbox.DemoPRReady))
		return packbuild.Request{Dir: dir, Repo: "acme/benefits", Story: 3, PR: 4, BaseRef: "origin/dev", Ready: ready}, err
	}}
	var buf bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true, CI: true}, deps), tui.RunOptions{Plain: true, Out: &buf})
	if err != nil || code != packbuild.ExitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, buf.String())
	}
	for _, want := range []string{"tests: running — go test", "tests: passed — 4 tests passed", "coverage: passed — 5 of 5", "pack folder: " + packbuild.PackDir(dir, 3),
		"criterion 2: proven — Remaining never goes below zero.", "result: the pack verifies and every floor holds (exit 0)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the plain transcript lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestVerifyScreenTeatest runs the full-screen program: the run's events
// arrive through the channel, the list fills in, q ends it with the run's
// exit code.
func TestVerifyScreenTeatest(t *testing.T) {
	tm := teatest.NewTestModel(t, New(context.Background(), tuitest.Common(80, 24), coverageFails().deps()),
		teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("a floor does not hold"))
	}, teatest.WithDuration(10*time.Second))
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if done, code := final.Done(); !done || code != packbuild.ExitFloor {
		t.Fatalf("done=%v code=%d, want exit 3", done, code)
	}
}
