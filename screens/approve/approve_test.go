package approve

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

	core "github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is a title that tries to write the clipboard, clear the screen
// and reverse the text after it.
const hostile = "evil\x1b]52;c;aGk=\x07 title\x1b[2J \u202e"

func stored(title1 string) core.Stored {
	return core.Stored{Hash: "3f9c0a1b2d4e", Record: core.Record{Repo: "acme/benefits", Issue: 1, For: "founder", PostedBy: "aayudha[bot]", Way: core.WayDevice,
		Items: []core.Item{
			{Command: "aayu decide 1 --accept 1", Decision: 1, Option: 1, Door: core.DoorTwoWay, Title: title1,
				Options: []core.Option{{Number: 1, Title: "Keep them in Go code", Recommended: true}, {Number: 2, Title: "Load them from YAML"}}},
			{Command: "aayu decide 2 --accept 2", Decision: 2, Option: 2, Door: core.DoorOneWay, Title: "Plan year 2024",
				Options: []core.Option{{Number: 1, Title: "Keep answering until March", Recommended: true}, {Number: 2, Title: "Stop now and delete the tables"}}},
		}}}
}

type fake struct {
	st      core.Stored
	loadErr error
	asked   int
	waited  int
}

func (f *fake) deps() Deps {
	return Deps{Command: "aayu approve 3f9c0a1b2d4e", Repo: "acme/benefits",
		Load: func(context.Context) (core.Stored, error) { return f.st, f.loadErr },
		Ask: func(context.Context) (core.Code, error) {
			f.asked++
			return core.Code{UserCode: "WDJB-MJHT", URI: "https://github.com/login/device", Expires: time.Date(2026, 12, 2, 7, 15, 0, 0, time.UTC)}, nil
		},
		Wait: func(context.Context, core.Code) ([]string, int) {
			f.waited++
			return []string{"Approved by @founder (device-flow).", "done: Decision #1, option 1 accepted as @founder.", "done: Decision #2, option 2 accepted as @founder.", "Batch 3f9c0a1b2d4e applied."}, tui.ExitOK
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

// TestApproveScreenPlainGolden: the plain twin shows each step — what
// approving does, its door, the options with the recommendation and the
// one accepted — then, on y, the code and the result; the hostile title is
// shown as text.
func TestApproveScreenPlainGolden(t *testing.T) {
	f := &fake{st: stored(hostile)}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.asked != 1 || f.waited != 1 {
		t.Fatalf("exit %d, asked %d, waited %d:\n%s", code, f.asked, f.waited, out)
	}
	for _, want := range []string{"Approving accepts option 2 (Stop now and delete the tables): aayu decide 2 --accept 2.", "One-way door: it cannot be undone.",
		"Two-way door: it can be undone later.", "(recommended)", "W D J B - M J H T", "https://github.com/login/device", "Batch 3f9c0a1b2d4e applied."} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	tuitest.AssertInert(t, "plain", out)
	tuitest.GoldenPlain(t, out, code)
}

// TestApproveAsksNoCodeWithoutYes: any answer but y, and the end of
// input, ask for no code and apply nothing, exit 4.
func TestApproveAsksNoCodeWithoutYes(t *testing.T) {
	for _, in := range []string{"n\n", "yes please\n", ""} {
		f := &fake{st: stored("Deductible tables")}
		code, out := runPlain(t, f.deps(), in)
		if code != tui.ExitRefused || f.asked != 0 || f.waited != 0 {
			t.Errorf("input %q: exit %d, asked %d:\n%s", in, code, f.asked, out)
		}
	}
}

// TestApproveRefusedBatchSaysWhyAndAsksNoCode: a batch the ledger refuses
// (or one already applied) asks for no code.
func TestApproveRefusedBatchSaysWhyAndAsksNoCode(t *testing.T) {
	f := &fake{loadErr: &core.Refusal{Reason: "no batch 3f9c0a1b2d4e on the ledger", Next: "Check the hash."}}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || f.asked != 0 || !strings.Contains(out, "refused: no batch 3f9c0a1b2d4e on the ledger.") {
		t.Fatalf("exit %d, asked %d:\n%s", code, f.asked, out)
	}
	f = &fake{loadErr: errors.New("GitHub answered 502")}
	if code, _ := runPlain(t, f.deps(), "y\n"); code != tui.ExitFailed || f.asked != 0 {
		t.Fatalf("exit %d, asked %d", code, f.asked)
	}
}

// TestApproveScreenGolden: the full screen at 40, 80 and 120 columns, at
// the question and then with the code shown; y asks for the code through a
// command, never inside Update; c copies the code; the result follows.
func TestApproveScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fake{st: stored(hostile)}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			var mdl tea.Model = m
			mdl, _ = mdl.Update(tui.ReadMsg[core.Stored]{Value: f.st})
			tuitest.AssertInert(t, "full screen", ansi.Strip(mdl.View().Content))
			t.Run("asking", func(t *testing.T) { tuitest.GoldenView(t, mdl.View().Content, w, 24) })
			_, cmd := mdl.Update(tuitest.Key("y"))
			if f.asked != 0 || cmd == nil {
				t.Fatalf("y: asked %d inside Update, command %v", f.asked, cmd)
			}
			_, cmd = mdl.Update(cmd())
			if f.asked != 1 || cmd == nil || !m.waiting() {
				t.Fatalf("the code was not asked for once (asked %d) or is not waited for", f.asked)
			}
			t.Run("code", func(t *testing.T) { tuitest.GoldenView(t, mdl.View().Content, w, 24) })
			if _, c := mdl.Update(tuitest.Key("c")); c == nil {
				t.Errorf("c copied nothing while the code waits")
			}
			mdl.Update(cmd())
			if done, code := m.Done(); done || code != tui.ExitOK || !strings.Contains(strings.Join(m.Transcript(), "\n"), "Batch 3f9c0a1b2d4e applied.") {
				t.Errorf("after the wait: done %v (the full screen waits for q), exit %d", done, code)
			}
		})
	}
}

// TestApproveFullHelpGolden: ? while the code waits lists c (copy the
// code) and enter (open the link), at 40, 80 and 120 columns.
func TestApproveFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fake{st: stored("Deductible tables")}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			m.Update(tui.ReadMsg[core.Stored]{Value: f.st})
			_, cmd := m.Update(tuitest.Key("y"))
			m.Update(cmd())
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestApprovePlainHelpGolden: the plain ? while approve asks.
func TestApprovePlainHelpGolden(t *testing.T) {
	f := &fake{st: stored("Deductible tables")}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Stored]{Value: f.st})
	tuitest.GoldenPlainHelp(t, m)
}

// TestApproveStopWhileTheCodeWaitsEndsTheWaitAndWritesNothing: q while
// the code waits for its approval cancels the wait itself (it did not: the
// screen waited until the code expired), and the waiting function sees its
// context end before anything could be applied.
func TestApproveStopWhileTheCodeWaitsEndsTheWaitAndWritesNothing(t *testing.T) {
	for _, stop := range []string{"q", "esc", "ctrl+c"} {
		t.Run(stop, func(t *testing.T) {
			f := &fake{st: stored("Deductible tables")}
			d := f.deps()
			d.Wait = func(ctx context.Context, _ core.Code) ([]string, int) {
				select {
				case <-ctx.Done():
					return []string{"Not applied: the wait was stopped."}, tui.ExitRefused
				case <-time.After(5 * time.Second):
					return []string{"Batch 3f9c0a1b2d4e applied."}, tui.ExitOK
				}
			}
			m := New(context.Background(), tuitest.Common(80, 24), d)
			var mdl tea.Model = m
			mdl, _ = mdl.Update(tui.ReadMsg[core.Stored]{Value: f.st})
			_, cmd := mdl.Update(tuitest.Key("y"))
			_, cmd = mdl.Update(cmd())
			if !m.waiting() || cmd == nil {
				t.Fatal("no code waits")
			}
			mdl.Update(tuitest.Key(stop))
			start := time.Now()
			msg := cmd()
			if time.Since(start) > 4*time.Second {
				t.Fatalf("%s did not stop the wait", stop)
			}
			mdl.Update(msg)
			if done, code := m.Done(); !done && code != tui.ExitRefused {
				t.Errorf("after stopping: done %v, exit %d", done, code)
			}
			if got := strings.Join(m.Transcript(), "\n"); strings.Contains(got, "applied.") && !strings.Contains(got, "Not applied") {
				t.Errorf("stopping the wait applied the batch:\n%s", got)
			}
		})
	}
}

// TestBatchLinesShowShipAndPlanInTheSeedsWords: a ship step (and a plan
// step) says what approving does in the batch's words — the merge pinned
// to its head, the plan review — then the item as it was, its door and
// the options, the approved one marked; a hostile title stays text.
func TestBatchLinesShowShipAndPlanInTheSeedsWords(t *testing.T) {
	ship := core.NewShipItem(4, "main", "0123456789abcdef0123456789abcdef01234567", hostile, "body", false)
	plan := core.NewPlanItem(7, []string{"L04"}, hostile, "body", false)
	rec, err := core.NewRecordOf("acme/benefits", []core.Item{ship, plan}, "founder", "agent-bot[bot]", core.WayDevice, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(BatchLines("acme/benefits", core.Stored{Hash: rec.Hash(), Record: rec}), "\n")
	for _, want := range []string{"1. aayu ship 4: Merges PR #4 (", ") at head 0123456 into main.", "One-way door: it cannot be undone.",
		"   ▸ 1. Approve: merge it (recommended)  ← approve", "2. aayu plan 7: Records your review of the plan of Story #7 (never layers L04) on the ledger.",
		"Two-way door: it can be undone later."} {
		if !strings.Contains(out, want) {
			t.Errorf("the batch's lines lack %q:\n%s", want, out)
		}
	}
	tuitest.AssertInert(t, "batch lines", out)
}
