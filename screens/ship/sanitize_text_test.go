package ship

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostileText is text a hostileText writer or server could get into what ship
// shows: a screen clear, an OSC 52 clipboard write, a C1 CSI, a bidi
// override and a zero-width space.
const hostileText = tuitest.Hostile

// hostileRun passes the read-only gates with words and details quoting
// hostileText text, asks with a plan quoting it, and ends with res and err.
func hostileRun(res core.Result, err error) Runner {
	return func(ctx context.Context, pr int, out chan<- core.Event, ask Ask) (core.Result, error) {
		out <- core.Event{Gate: core.GatePR, State: core.Passed, Words: "open " + hostileText, Detail: []string{"passed over run " + hostileText}}
		out <- core.Event{Gate: core.GateHumanPass, State: core.Passed, Words: "bypass " + hostileText}
		out <- core.Event{Gate: core.GateConfirm, State: core.Running}
		plan := demoPlan
		plan.Viewer = "founder" + hostileText
		plan.Writes = []string{"squash-merges #4 " + hostileText}
		if yes, aerr := ask.Confirm(ctx, plan); aerr != nil || !yes {
			return core.Result{ExitCode: core.ExitRefused}, aerr
		}
		out <- core.Event{Gate: core.GateConfirm, State: core.Passed, Words: "yes"}
		return res, err
	}
}

// TestShipHostileTextIsNeutralised: every outcome of a run, in the full
// screen and in the screen's own transcript, shows the hostileText text in
// caret and <U+…> notation and holds no control.
func TestShipHostileTextIsNeutralised(t *testing.T) {
	cases := map[string]struct {
		res core.Result
		err error
	}{
		"shipped":              {core.Result{Merged: true, Shipped: true, MergeCommit: "3543" + hostileText, LedgerDir: "proof/" + hostileText, Pack: &proof.Report{}}, nil},
		"merged, not finished": {core.Result{Merged: true, MergeCommit: "3543" + hostileText, Unfinished: "the label " + hostileText}, nil},
		"failed":               {core.Result{}, errors.New("GitHub answered " + hostileText)},
		"merged, then failed":  {core.Result{Merged: true, MergeCommit: "3543" + hostileText}, errors.New("GitHub answered " + hostileText)},
	}
	demo := demoPlan
	defer func() { demoPlan = demo }()
	demoPlan.PassBy = "founder" + hostileText
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, send := untilAsked(t, tui.Common{Width: 120, Height: 60, Styles: tui.NewStyles(true)}, hostileRun(tc.res, tc.err))
			confirm := ansi.Strip(m.View().Content)
			tuitest.AssertInert(t, "the confirmation", confirm)
			m.opts.Summary = func(core.Result) []string { return []string{"criterion 1: " + hostileText} }
			send(tea.KeyPressMsg{Code: 'y', Text: "y"})
			view := ansi.Strip(m.View().Content)
			tuitest.AssertInert(t, "the view", view)
			transcript := strings.Join(m.Transcript(), "\n")
			tuitest.AssertInert(t, "the transcript", transcript)
			shown := map[string]string{"the confirmation": confirm, "the view": view, "the transcript": transcript}
			if tc.res.Shipped {
				m.Update(tea.KeyPressMsg{Code: 'p', Text: "p"}) // the pack as verified
				shown["the pack view"] = ansi.Strip(m.View().Content)
				tuitest.AssertInert(t, "the pack view", shown["the pack view"])
				if !strings.Contains(shown["the pack view"], "criterion 1: x^[[2J") {
					t.Errorf("the pack view does not show its lines neutralised:\n%s", shown["the pack view"])
				}
			}
			for where, s := range shown {
				if !strings.Contains(strings.Join(strings.Fields(s), ""), "x^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>") {
					t.Errorf("%s does not show the hostileText text neutralised:\n%s", where, s)
				}
			}
		})
	}
}
