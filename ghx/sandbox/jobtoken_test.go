package sandbox_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestReadOnlyWorkflowTokenGets403OnAWrite: a job token with contents:
// read reads the repository but gets GitHub's 403 "Resource not
// accessible by integration" on a status, a comment and /user; the same
// job's token with statuses: write sets a status as github-actions[bot];
// once the job ends the token is refused with 401.
func TestReadOnlyWorkflowTokenGets403OnAWrite(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	run := s.RunID(sandbox.RunInProgress)
	head := s.HeadSHA(sandbox.DemoPRReady)

	ro, endRO := s.WorkflowToken(run, map[string]string{"contents": "read"})
	gh := client(t, base, ro)
	if _, _, err := gh.Repositories.GetCommit(ctx, "acme", "benefits", "dev", nil); err != nil {
		t.Errorf("contents: read cannot read a commit: %v", err)
	}
	refused := func(what string, resp *github.Response, err error) {
		t.Helper()
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden || !strings.Contains(err.Error(), "Resource not accessible by integration") {
			t.Errorf("%s with a read-only token: %v, want GitHub's 403", what, err)
		}
	}
	_, resp, err := gh.Repositories.CreateStatus(ctx, "acme", "benefits", head, &github.RepoStatus{State: github.String("success"), Context: github.String("aayudha/merge-gate")})
	refused("a status", resp, err)
	_, resp, err = gh.Issues.CreateComment(ctx, "acme", "benefits", sandbox.DemoPRReady, &github.IssueComment{Body: github.String("x")})
	refused("a comment", resp, err)
	_, resp, err = gh.Users.Get(ctx, "")
	refused("/user", resp, err)
	endRO()
	if _, resp, err := gh.Repositories.GetCommit(ctx, "acme", "benefits", "dev", nil); err == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a token whose job ended still reads: %v", err)
	}

	rw, endRW := s.WorkflowToken(run, map[string]string{"statuses": "write"})
	defer endRW()
	st, _, err := client(t, base, rw).Repositories.CreateStatus(ctx, "acme", "benefits", head,
		&github.RepoStatus{State: github.String("success"), Context: github.String("aayudha/merge-gate")})
	if err != nil || st.GetCreator().GetLogin() != sandbox.ActionsBotLogin || st.GetCreator().GetType() != "Bot" {
		t.Errorf("statuses: write: %v, creator %v", err, st.GetCreator())
	}
}
