package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestAgentsCommittedLocalPackFailsTheGate: an agent forces a local pack
// (.aayudha/proof/3/) into its branch beside a change whose tests pass and
// opens a pull request; the sandbox's runner runs the real merge gate,
// whose pack job builds and attests its own pack, and the gate still
// fails: its comment names the committed files and aayudha/merge-gate on
// the head is a failure. A local pack never passes as proof.
func TestAgentsCommittedLocalPackFailsTheGate(t *testing.T) {
	t.Parallel()
	r := startGateRig(t)
	git, work, logs := r.git, r.work, r.logs
	git("checkout", "-q", "-b", "story/3-with-its-pack", "origin/story/3-remaining-deductible")
	local := filepath.Join(work, ".aayudha", "proof", "3")
	if err := os.MkdirAll(local, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, "pack.json"), []byte(`{"schema":"aayudha.proof/1","story":3}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-f", ".aayudha/proof/3/pack.json")
	git("commit", "-q", "-m", "Add the story's pack")
	head := git("rev-parse", "HEAD")
	git("push", "-q", "origin", "story/3-with-its-pack")

	gh, ctx := r.person, context.Background()
	pr := r.openPR("story/3-with-its-pack", "Remaining deductible, with its pack")
	run := r.completedRun(head)
	if run == nil || run.GetConclusion() != "failure" {
		t.Fatalf("no failed pull_request_target run for %s within 90 s: %v\n%s", head, run, logs.String())
	}
	// The pack job built and signed its own pack: only the local pack the
	// pull request carries fails the gate.
	concluded := r.jobConclusions(run)
	if concluded != "map[aayudha/comment:failure aayudha/inspect:success aayudha/pack:success aayudha/tests:success]" {
		t.Errorf("the run's check runs: %v\n%s", concluded, logs.String())
	}
	statuses, _, err := gh.Repositories.ListStatuses(ctx, "acme", "benefits", head, nil)
	if err != nil || len(statuses) == 0 || statuses[0].GetContext() != "aayudha/merge-gate" || statuses[0].GetState() != "failure" {
		t.Errorf("the head's status: %v %v", statuses, err)
	}
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "benefits", pr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gate string
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = strings.Join(strings.Fields(c.GetBody()), " ")
		}
	}
	if !strings.Contains(gate, "adds files under .aayudha/proof/") || !strings.Contains(gate, "never passes as proof") {
		t.Errorf("the gate's comment does not name the committed local pack:\n%s\n%s", gate, logs.String())
	}
}
