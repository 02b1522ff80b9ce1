package checks

import "testing"

// TestJudgeCountsSkippedAndNeutralGreen: as GitHub judges a required
// check — skipped and neutral pass, a name never reported is missing, an
// unfinished one pending, and a red status or check run of any name fails.
func TestJudgeCountsSkippedAndNeutralGreen(t *testing.T) {
	list := []Check{
		FromCheckRun("lint", "completed", "skipped", "github-actions", ""),
		FromCheckRun("docs", "completed", "NEUTRAL", "github-actions", ""),
		FromCheckRun("build", "in_progress", "", "github-actions", ""),
		FromStatus("aayudha/merge-gate", "success", "github-actions[bot]", ""),
		FromCheckRun("aayudha/merge-gate", "completed", "failure", "github-actions", ""),
		FromCheckRun("go test", "completed", "timed_out", "github-actions", ""),
	}
	v := Judge(list, []Required{{"lint", "a ruleset"}, {"docs", "a ruleset"}, {"build", "a ruleset"}, {"deploy", "branch protection"}, {"aayudha/merge-gate", "a ruleset"}})
	if v.Green() {
		t.Fatal("judged green")
	}
	if len(v.Missing) != 1 || v.Missing[0].Name != "deploy" || len(v.Pending) != 1 || v.Pending[0].Name != "build" {
		t.Errorf("missing %v, pending %v", v.Missing, v.Pending)
	}
	if len(v.Failing) != 2 || v.Failing[0].Name != "aayudha/merge-gate" || v.Failing[1].Name != "go test" || v.Failing[1].Detail != "timed_out" {
		t.Errorf("failing %+v", v.Failing)
	}
	if ok := Judge(list[:2], []Required{{"lint", "a ruleset"}, {"docs", "a ruleset"}}); !ok.Green() {
		t.Errorf("skipped and neutral required checks: %+v", ok)
	}
}
