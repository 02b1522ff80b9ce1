package sandbox_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestRerunOfASeededRunMovesToItsNextAttempt: with no runner behind it, a
// seeded run re-run as a writer answers 201 and moves to its next attempt,
// keeping the conclusion it was seeded with and its id.
func TestRerunOfASeededRunMovesToItsNextAttempt(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	gh := client(t, base, sandbox.TokenPrefix+"founder")
	id := s.RunID(sandbox.RunFailed)
	resp, err := gh.Actions.RerunWorkflowByID(context.Background(), "acme", "benefits", id)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("rerun: %v %v", resp, err)
	}
	run, _, err := gh.Actions.GetWorkflowRunByID(context.Background(), "acme", "benefits", id)
	if err != nil || run.GetRunAttempt() != 2 || run.GetStatus() != "completed" || run.GetConclusion() != "failure" {
		t.Fatalf("after the rerun: %v attempt %d, %s %s", err, run.GetRunAttempt(), run.GetStatus(), run.GetConclusion())
	}
}

// TestRerunRefusesARunStillGoing and TestRerunRefusesAReader: GitHub's
// 403 for a run not yet completed, and for a caller without write access;
// the run is left as it was.
func TestRerunRefusals(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	for _, c := range []struct {
		name, as, run, want string
	}{
		{"TestRerunRefusesARunStillGoing", "founder", sandbox.RunInProgress, "This workflow is already running"},
		{"TestRerunRefusesAReader", "reader", sandbox.RunFailed, "Must have write access to re-run a workflow."},
	} {
		t.Run(c.name, func(t *testing.T) {
			gh := client(t, base, sandbox.TokenPrefix+c.as)
			id := s.RunID(c.run)
			resp, err := gh.Actions.RerunWorkflowByID(context.Background(), "acme", "benefits", id)
			if resp == nil || resp.StatusCode != http.StatusForbidden || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("rerun as %s: %v %v, want 403 %q", c.as, resp, err, c.want)
			}
			var run *github.WorkflowRun
			if run, _, err = gh.Actions.GetWorkflowRunByID(context.Background(), "acme", "benefits", id); err != nil || run.GetRunAttempt() != 1 {
				t.Fatalf("a refused rerun moved the run: %v attempt %d", err, run.GetRunAttempt())
			}
		})
	}
}
