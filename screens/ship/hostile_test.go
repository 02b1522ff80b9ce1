package ship

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// attack is text from GitHub planted in a gate's words and details: an
// OSC 52 clipboard write, a screen clear, a title change and a bidi override.
const attack = tuitest.Attack

// hostile is a refused ship whose gate words, details and refusal carry
// the attack, as a branch name, a reviewer's login or a run's name would.
var hostile = script(core.Result{ExitCode: core.ExitRefused, Refusals: []string{"no merge-gate run qualifies: " + attack}}, nil,
	core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into dev from " + attack},
	core.Event{Gate: core.GatePolicy, State: core.Passed, Words: "read from dev"},
	core.Event{Gate: core.GatePack, State: core.Refused, Words: "no merge-gate run qualifies for head d113e1271f68", Detail: []string{"passed over run 30000004070 (" + attack + "): its pack does not verify"}},
	core.Event{Gate: core.GateHumanPass, State: core.Refused, Words: "no review by @" + attack},
)

// TestShipScreenHostileGolden: the attack shows as visible caret text on
// the full screen at 40, 80 and 120 columns, never as escapes; the verdict
// stays in view.
func TestShipScreenHostileGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := finished(t, tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}, hostile)
			view := m.View().Content
			tuitest.AssertDefused(t, view)
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}

// TestShipScreenHostilePlainGolden: the same run's plain twin.
func TestShipScreenHostilePlainGolden(t *testing.T) {
	var out bytes.Buffer
	m := New(context.Background(), tui.Common{Plain: true}, Options{PR: 4, Run: hostile})
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "EVIL") < 3 || strings.ContainsRune(out.String(), '\u202e') {
		t.Errorf("the attack is not shown defused in every place it was planted:\n%s", out.String())
	}
	tuitest.GoldenPlain(t, out.String(), code)
}
