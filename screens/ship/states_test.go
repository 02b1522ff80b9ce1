package ship

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// running is the screen part-way through a run: two gates passed, the
// pack gate being checked, the rest waiting.
func running(c tui.Common) *Model {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := &at
	m := New(context.Background(), c, Options{PR: 4, Run: shipped, Now: func() time.Time { return *clock }})
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	for _, g := range core.Gates() {
		m.Update(eventMsg(core.Event{Gate: g, State: core.Waiting}))
	}
	m.Update(eventMsg(core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into dev at head d113e1271f68"}))
	m.Update(eventMsg(core.Event{Gate: core.GatePolicy, State: core.Passed, Words: "read from dev; approver @founder; no local value is looser"}))
	m.Update(eventMsg(core.Event{Gate: core.GatePack, State: core.Running, Words: "reading run 30000004051's pack"}))
	at = at.Add(12 * time.Second) // GitHub is slow: the gate has waited 12 s
	return m
}

var errGitHubDown = errors.New("GitHub could not be reached: dial tcp: i/o timeout")

// failedBeforeMerge: GitHub went away during the human pass gate, after
// the pack gate had found its pack.
var failedBeforeMerge = script(core.Result{ExitCode: core.ExitFailed, Pack: &proofReport}, errGitHubDown,
	core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into dev at head d113e1271f68"},
	core.Event{Gate: core.GatePolicy, State: core.Passed, Words: "read from dev"},
	core.Event{Gate: core.GatePack, State: core.Passed, Words: "run 30000004051: the pack verifies and every floor holds"},
	core.Event{Gate: core.GateHumanPass, State: core.Failed, Words: "the reviews could not be read"},
)

// mergedNotFinished: the merge landed, the Story's update did not.
var mergedNotFinished = script(core.Result{Pack: &proofReport, Merged: true, MergeCommit: "3543d4864c49e7d4e263e8770cc50436855798f7", Unfinished: "the Story's labels were not updated", ExitCode: core.ExitFailed}, nil,
	core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into dev at head d113e1271f68"},
	core.Event{Gate: core.GatePolicy, State: core.Passed, Words: "read from dev"},
	core.Event{Gate: core.GatePack, State: core.Passed, Words: "run 30000004051: the pack verifies and every floor holds"},
	core.Event{Gate: core.GateHumanPass, State: core.Passed, Words: "solo-mode bypass by @founder for head d113e1271f68"},
	core.Event{Gate: core.GatePresence, State: core.Passed, Words: "approved by @founder by the presence check (device-flow)"},
	core.Event{Gate: core.GateConfirm, State: core.Passed, Words: "yes, by @founder: 4 writes"},
	core.Event{Gate: core.GateBypass, State: core.Passed, Words: "posted for head d113e1271f68"},
	core.Event{Gate: core.GateMerge, State: core.Passed, Words: "squash-merged into dev as 3543d4864c49"},
	core.Event{Gate: core.GateLedger, State: core.Passed, Words: "pack.json, 3 data artifacts, ship.json"},
	core.Event{Gate: core.GateStory, State: core.Failed, Words: "GitHub answered 502 twice"},
)

// TestShipStatesGolden: at 24 lines, a run under way, a refusal, a failure
// before the merge, and a merge whose record is not finished; the outcome
// and q stay in view at 40, 80 and 120 columns.
func TestShipStatesGolden(t *testing.T) {
	states := []struct {
		name string
		run  Runner
		says string
	}{
		{"running", nil, "checking every gate…"},
		{"refused", refused, "refused:"},
		{"failed", failedBeforeMerge, "Nothing was merged"},
		{"unfinished", mergedNotFinished, "not finished"},
	}
	for _, s := range states {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", s.name, w), func(t *testing.T) {
				c := tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}
				var m *Model
				if s.run == nil {
					m = running(c)
				} else {
					m = finished(t, c, s.run)
				}
				view := m.View().Content
				flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
				if !strings.Contains(flat, s.says) || !strings.Contains(flat, "q quit") {
					t.Errorf("the %s ship does not say %q or lost q:\n%s", s.name, s.says, ansi.Strip(view))
				}
				tuitest.GoldenView(t, view, w, 24)
			})
		}
	}
}

// TestShipPackViewGolden: p after a ship shows the pack, at 40, 80 and 120.
func TestShipPackViewGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := finished(t, tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}, shipped)
			m.run.result.Pack = &proofReport
			m.Update(tea.KeyPressMsg{Code: 'p', Text: "p"})
			view := m.View().Content
			if !m.packView.showPack || !strings.Contains(ansi.Strip(view), "criterion 1: proven") {
				t.Fatalf("p did not show the pack:\n%s", ansi.Strip(view))
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}
