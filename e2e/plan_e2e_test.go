package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

const policyPlanBody = "## Completion Goal\n1. The dental cap holds\n\n## Plan\n- `policy/dental.go`: the cap\n"

// TestPlanRefusesCI: CI is refused at once, for the review and the
// bypass, with the reason and no device code, and nothing lands; an agent
// lane inside CI too (aayu's own lane alone makes a batch instead:
// batch_plan_e2e_test.go); --dry-run is allowed in aayu's own lane, shows
// the never layers and writes nothing.
func TestPlanRefusesCI(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	story := newStoryIssue(t, home, "Story: dental cap", policyPlanBody, "type:story")
	for _, tc := range []struct {
		vars map[string]string
		args []string
	}{
		{map[string]string{"HOME": home, "AAYU_AGENT": "1", "GITHUB_ACTIONS": "true"}, nil},
		{map[string]string{"HOME": home, "AAYU_AGENT": "1"}, []string{"--ci", "--solo-bypass"}},
		{map[string]string{"HOME": home}, []string{"--ci", "--solo-bypass"}},
		{map[string]string{"HOME": home, "GITHUB_ACTIONS": "true"}, nil},
	} {
		code, out, errOut := runAayuEnv(t, tc.vars, append([]string{"--sandbox", "--plain", "plan", itoa(story)}, tc.args...)...)
		all := out + errOut
		if code != tui.ExitRefused || !strings.Contains(all, "human-only") || !strings.Contains(all, "the person's act") || strings.Contains(all, "/login/device") {
			t.Errorf("%v %v: exit %d, want 4 with the reason and no code:\n%s", tc.vars, tc.args, code, all)
		}
	}
	code, out, errOut := runAayuEnv(t, map[string]string{"HOME": home, "AAYU_AGENT": "1"}, "--sandbox", "--plain", "--dry-run", "plan", itoa(story))
	if code != tui.ExitOK || !strings.Contains(out, "--dry-run: nothing was written.") || !strings.Contains(out, "L04 policy:") || !strings.Contains(out, "policy/dental.go (planned)") {
		t.Errorf("--dry-run in the agent lane: exit %d:\n%s%s", code, out, errOut)
	}
	c := sandboxState(t, home)
	if _, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", "ledger", pass.PlanRecordPath(story)); !ghx.IsNotFound(err) {
		t.Errorf("the agent lane wrote the record (%v)", err)
	}
	if comments, _, err := c.Issues.ListComments(context.Background(), "acme", "benefits", story, nil); err != nil || len(comments) != 0 {
		t.Errorf("the agent lane commented (%d, %v)", len(comments), err)
	}
}

// TestPlanUsage: --solo-bypass belongs to plan and ship and no other
// command; plan takes one STORY.
func TestPlanUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ready", "3", "--solo-bypass"}, "--solo-bypass belongs to aayu plan and aayu ship, not aayu ready"},
		{[]string{"plan"}, "aayu plan needs one argument, STORY"},
	} {
		code, out, errOut := runAayuEnv(t, map[string]string{}, tc.args...)
		if code != tui.ExitUsage || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: exit %d, want 2 saying %q:\n%s%s", tc.args, code, tc.want, out, errOut)
		}
	}
}
