package ship

import (
	"bytes"
	"context"
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
)

// TestShipPlainSaysWhatARepeatedOutcomeAdds: a refused ship tells the
// human pass's refusal again once it has commented Ready to ship; the
// plain transcript says the added line (the comment it posted, which the
// inbox then reads) once, and neither the gate's line nor its earlier
// detail twice. Before, a repeated state was dropped whole, so a person
// following the README in plain mode never read that the comment landed.
func TestShipPlainSaysWhatARepeatedOutcomeAdds(t *testing.T) {
	t.Parallel()
	refusal := "only your Solo-mode bypass could pass head d113e1271f68: run aayu ship 4 --solo-bypass"
	posted := "commented Ready to ship on #4 for head d113e1271f68: http://127.0.0.1:8765/acme/fresh/issues/4#issuecomment-1"
	run := script(core.Result{ExitCode: core.ExitRefused, Refusals: []string{refusal}, ReadyToShip: "http://127.0.0.1:8765/acme/fresh/issues/4#issuecomment-1"}, nil,
		core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into main"},
		core.Event{Gate: core.GateHumanPass, State: core.Refused, Words: refusal, Detail: []string{refusal}},
		core.Event{Gate: core.GateHumanPass, State: core.Refused, Words: refusal, Detail: []string{refusal, posted}},
	)
	var out bytes.Buffer
	m := New(context.Background(), tui.Common{Plain: true}, Options{PR: 4, Run: run})
	if _, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if n := strings.Count(got, posted); n != 1 {
		t.Errorf("the Ready to ship comment is said %d times, want once:\n%s", n, got)
	}
	if n := strings.Count(got, "human pass: refused"); n != 1 {
		t.Errorf("the human pass's line is said %d times, want once:\n%s", n, got)
	}
	if n := strings.Count(got, "  "+refusal); n != 1 {
		t.Errorf("the refusal's detail is said %d times, want once:\n%s", n, got)
	}
}
