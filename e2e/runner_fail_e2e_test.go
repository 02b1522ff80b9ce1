package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestGateReportsAFailingPullRequest: a pushed head whose own test fails
// runs the merge gate to the end — the tests job keeps the raw outputs,
// the pack job builds and signs the pack whose floor does not hold (so a
// floor waiver can later be read against it), inspect judges it, and the
// comment job gives the verdict: github-actions[bot] sets aayudha/merge-gate to failure
// on the head and keeps the gate's comment naming the failing test; each
// job is a check run on the base's tip.
func TestGateReportsAFailingPullRequest(t *testing.T) {
	t.Parallel()
	r := startGateRig(t)
	git, work, logs := r.git, r.work, r.logs
	git("checkout", "-q", "-b", "story/3-breaks-a-test", "origin/story/3-remaining-deductible")
	failing := "package deductible\n\nimport \"testing\"\n\nfunc TestTheAgentBrokeThis(t *testing.T) { t.Fatal(\"broken on purpose\") }\n"
	if err := os.WriteFile(filepath.Join(work, "deductible", "broken_test.go"), []byte(failing), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "deductible/broken_test.go")
	git("commit", "-q", "-m", "Break a test")
	head := git("rev-parse", "HEAD")
	git("push", "-q", "origin", "story/3-breaks-a-test")

	gh, ctx := r.person, context.Background()
	pr := r.openPR("story/3-breaks-a-test", "Remaining deductible, broken")
	run := r.completedRun(head)
	if run == nil || run.GetConclusion() != "failure" {
		t.Fatalf("no failed run for %s: %v\n%s", head, run, logs.String())
	}
	concluded := r.jobConclusions(run)
	// aayu comment ends with the gate's verdict, so its job fails;
	// what matters is that it ran and reported.
	if concluded != "map[aayudha/comment:failure aayudha/inspect:success aayudha/pack:success aayudha/tests:success]" {
		t.Errorf("the run's check runs: %v\n%s", concluded, logs.String())
	}
	statuses, _, err := gh.Repositories.ListStatuses(ctx, "acme", "benefits", head, nil)
	if err != nil || len(statuses) == 0 {
		t.Fatalf("no status on the failing head: %v", err)
	}
	if st := statuses[0]; st.GetContext() != "aayudha/merge-gate" || st.GetState() != "failure" || st.GetCreator().GetLogin() != sandbox.ActionsBotLogin ||
		!strings.Contains(st.GetDescription(), "a floor does not hold") {
		t.Errorf("the head's status: %s %s by %s: %s", st.GetContext(), st.GetState(), st.GetCreator().GetLogin(), st.GetDescription())
	}
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "benefits", pr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gate string
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = c.GetBody()
		}
	}
	if !strings.Contains(gate, "TestTheAgentBrokeThis") || !strings.Contains(gate, "a floor does not hold") {
		t.Errorf("the gate's comment does not report the failing floor:\n%s", gate)
	}
}
