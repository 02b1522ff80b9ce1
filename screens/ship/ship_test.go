package ship

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// script is a Runner that reports a fixed sequence of gate events.
func script(res core.Result, err error, events ...core.Event) Runner {
	return func(ctx context.Context, pr int, out chan<- core.Event, _ Ask) (core.Result, error) {
		for _, g := range core.Gates() {
			out <- core.Event{Gate: g, State: core.Waiting}
		}
		for _, e := range events {
			out <- e
		}
		return res, err
	}
}

var shipped = script(core.Result{Merged: true, Shipped: true, MergeCommit: "3543d4864c49e7d4e263e8770cc50436855798f7", LedgerDir: "proof/3/d113e1271f68a3f3737a0bcbff3c306e1417ea61/authoritative"}, nil,
	core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into dev at head d113e1271f68"},
	core.Event{Gate: core.GatePolicy, State: core.Passed, Words: "read from dev; approver @founder; no local value is looser"},
	core.Event{Gate: core.GatePack, State: core.Passed, Words: "run 30000004051: the pack verifies and every floor holds", Detail: []string{"passed over run 30000004058 (pull_request): the pull request's own copy of the gate (pull_request)", "passed over run 30000004053 (pull_request_target): its artifact expired"}},
	core.Event{Gate: core.GateHumanPass, State: core.Passed, Words: "solo-mode bypass by @founder for head d113e1271f68"},
	core.Event{Gate: core.GatePresence, State: core.Passed, Words: "approved by @founder by the presence check (device-flow)"},
	core.Event{Gate: core.GateConfirm, State: core.Passed, Words: "yes, by @founder: 4 writes"},
	core.Event{Gate: core.GateBypass, State: core.Passed, Words: "posted for head d113e1271f68"},
	core.Event{Gate: core.GateMerge, State: core.Passed, Words: "squash-merged into dev as 3543d4864c49"},
	core.Event{Gate: core.GateLedger, State: core.Passed, Words: "pack.json, 3 data artifacts, ship.json"},
	core.Event{Gate: core.GateStory, State: core.Passed, Words: "Story #3: labelled status:merged, removed status:building, commented, removed aayu:lease"},
	core.Event{Gate: core.GateDone, State: core.Passed, Words: "merged as 3543d4864c49; the record is on the ledger"},
)

var refused = script(core.Result{ExitCode: core.ExitRefused, Refusals: []string{"no merge-gate run qualifies"}}, nil,
	core.Event{Gate: core.GatePR, State: core.Passed, Words: "#8 is open into dev at head 735b66b00b1c"},
	core.Event{Gate: core.GatePolicy, State: core.Passed, Words: "read from dev"},
	core.Event{Gate: core.GatePack, State: core.Refused, Words: "no merge-gate run qualifies for head 735b66b00b1c", Detail: []string{"passed over run 30000004070 (pull_request_target): its pack does not verify: criterion 2 has no evidence"}},
	core.Event{Gate: core.GateHumanPass, State: core.Refused, Words: "no review of head 735b66b00b1c by @founder, the approver"},
	core.Event{Gate: core.GatePresence, State: core.Skipped, Words: "not reached: a gate above refused, so nobody was asked for anything and nothing was written"},
	core.Event{Gate: core.GateConfirm, State: core.Skipped, Words: "not reached"},
	core.Event{Gate: core.GateBypass, State: core.Skipped, Words: "not reached"},
	core.Event{Gate: core.GateMerge, State: core.Skipped, Words: "not reached"},
	core.Event{Gate: core.GateLedger, State: core.Skipped, Words: "not reached"},
	core.Event{Gate: core.GateStory, State: core.Skipped, Words: "not reached"},
	core.Event{Gate: core.GateDone, State: core.Skipped, Words: "not reached"},
)

// finished drives the screen through a scripted run to its end.
func finished(t *testing.T, c tui.Common, run Runner) *Model {
	t.Helper()
	m := New(context.Background(), c, Options{PR: 4, Run: run, Summary: func(core.Result) []string { return []string{"pack.json sha256: 78f1…", "criterion 1: proven"} }})
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	cmd := m.Init()
	msgs := make(chan tea.Msg, 64)
	var runCmds func(tea.Cmd)
	runCmds = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		go func() {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					runCmds(c)
				}
				return
			}
			msgs <- msg
		}()
	}
	runCmds(cmd)
	deadline := time.After(10 * time.Second)
	for m.run.result == nil {
		select {
		case msg := <-msgs:
			_, next := m.Update(msg)
			if _, quit := msg.(tea.QuitMsg); !quit {
				runCmds(next)
			}
		case <-deadline:
			t.Fatal("the run did not finish")
		}
	}
	return m
}

func TestShipScreenGolden(t *testing.T) {
	for name, run := range map[string]Runner{"shipped": shipped, "refused": refused} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				m := finished(t, tui.Common{Width: w, Height: 30, Styles: tui.NewStyles(true)}, run)
				view := m.View().Content
				tuitest.AssertFits(t, view, w, 30)
				xgolden.RequireEqual(t, ansi.Strip(view))
			})
		}
	}
}

func TestShipScreenPlainGolden(t *testing.T) {
	for name, run := range map[string]Runner{"shipped": shipped, "refused": refused} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			m := New(context.Background(), tui.Common{Plain: true}, Options{PR: 4, Run: run, URL: "https://github.com/acme/benefits/pull/4"})
			code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
			if err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if strings.ContainsRune(text, '\x1b') {
				t.Error("escape sequence in plain output")
			}
			// The outcome is the last thing said, after every gate.
			lines := strings.Split(strings.TrimSpace(text), "\n")
			if !strings.HasPrefix(lines[len(lines)-1], "result: exit ") {
				t.Errorf("the result is not the last line:\n%s", text)
			}
			xgolden.RequireEqual(t, fmt.Sprintf("%sexit %d\n", text, code))
		})
	}
}

func TestShipScreenPackIsOneKeyAway(t *testing.T) {
	m := finished(t, tui.Common{Width: 80, Height: 30, Styles: tui.NewStyles(true)}, shipped)
	// No pack in the result: the key stays visible and says why.
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "unavailable: no merge-gate run qualified") {
		t.Fatalf("the disabled pack key does not say why:\n%s", v)
	}
	m.run.result.Pack = nil
	m.opts.Summary = func(core.Result) []string { return []string{"criterion 1: proven"} }
	m.run.result.Pack = &proofReport
	m.Update(tea.KeyPressMsg{Code: 'p', Text: "p"})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "criterion 1: proven") {
		t.Fatalf("p did not show the pack:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.packView.showPack {
		t.Fatal("esc did not go back to the gates")
	}
}

func TestShipScreenSanitisesGateWords(t *testing.T) {
	run := script(core.Result{ExitCode: core.ExitRefused}, nil,
		core.Event{Gate: core.GatePR, State: core.Refused, Words: "#4's branch is \x1b]52;c;ZXZpbA==\x07evil\x1b[2J"})
	m := finished(t, tui.Common{Width: 120, Height: 30, Styles: tui.NewStyles(true), Plain: true}, run)
	for _, l := range m.Transcript() {
		if strings.ContainsAny(l, "\x1b\x07") {
			t.Fatalf("control characters reached the plain twin: %q", l)
		}
	}
	// The full screen holds the styles' own escapes, so look for the
	// attack's: the OSC 52 opener, its BEL and the screen clear.
	view := m.View().Content
	for _, attack := range []string{"\x1b]52", "\x07", "\x1b[2J"} {
		if strings.Contains(view, attack) {
			t.Fatalf("%q reached the full screen: %q", attack, view)
		}
	}
	if !strings.Contains(ansi.Strip(view), "evil") {
		t.Fatal("the gate's words were not shown at all")
	}
}

// TestShipNeverSaysNothingMergedWhenItCannotTell: a merge whose answer was
// lost, with GitHub unreachable afterwards, may have landed; the screen and
// its plain twin say so and how to find out, never "Nothing was merged".
func TestShipNeverSaysNothingMergedWhenItCannotTell(t *testing.T) {
	lost := fmt.Errorf("merging: GitHub answered 503; %w, so run it again: it merges only once", core.ErrMergeUnknown)
	run := script(core.Result{ExitCode: tui.ExitFailed}, lost)
	m := finished(t, tui.Common{Width: 100, Height: 40, Styles: tui.NewStyles(true)}, run)
	view := ansi.Strip(m.View().Content)
	page := strings.Join(m.Transcript(), "\n")
	for where, text := range map[string]string{"screen": strings.Join(strings.Fields(view), " "), "transcript": page} {
		if strings.Contains(text, "Nothing was merged") || !strings.Contains(text, "It may have merged: run aayu ship 4 again") {
			t.Errorf("the %s does not say the merge may have landed:\n%s", where, text)
		}
	}
}
