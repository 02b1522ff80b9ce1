package e2e

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// TestInspectApproveRefusesAgentLanes: recording a review of a head is the
// person's act. aayu's own lane (AAYU_AGENT=1) and a host agent's lane
// (CLAUDECODE) are refused with exit 4, the command the person runs named,
// and nothing written: no review on the demo's PR 6, which waits at the
// human rung. Reading the judgement stays any lane's.
func TestInspectApproveRefusesAgentLanes(t *testing.T) {
	t.Parallel()
	pr := itoa(sandbox.DemoPRReview)
	for _, lane := range []map[string]string{{"AAYU_AGENT": "1"}, {"CLAUDECODE": "1"}} {
		code, out, errOut := runAayuEnv(t, lane, "--sandbox", "inspect", pr, "--approve", "--note", "looked")
		if code != tui.ExitRefused || !strings.Contains(errOut, "refused") || !strings.Contains(errOut, "aayu inspect "+pr+" --approve") ||
			!strings.Contains(errOut, "Nothing was done.") || strings.Contains(out, "approved:") {
			t.Errorf("%v: aayu inspect %s --approve exited %d:\n%s%s", lane, pr, code, out, errOut)
		}
		code, out, errOut = runAayuEnv(t, lane, "--sandbox", "inspect", pr)
		if code != tui.ExitOK || !strings.Contains(out, "inspect: pending — human rung") {
			t.Errorf("%v: aayu inspect %s (read-only) exited %d:\n%s%s", lane, pr, code, out, errOut)
		}
	}
}

// TestInspectApproveNeedsANote: approving a head without one line on what
// was checked is refused before anything is read or asked.
func TestInspectApproveNeedsANote(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAayuEnv(t, map[string]string{}, "--sandbox", "inspect", itoa(sandbox.DemoPRReview), "--approve")
	if code != tui.ExitRefused || !strings.Contains(errOut, `needs one line on what you checked: add --note`) {
		t.Errorf("aayu inspect --approve with no note exited %d:\n%s%s", code, out, errOut)
	}
}
