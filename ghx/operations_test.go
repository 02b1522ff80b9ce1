package ghx_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestEveryOperationThroughGhx calls, through a ghx client and go-github,
// each operation aayu uses that the other tests of this package do not
// reach, checking one fact of the demo per call. With the validator on,
// every answer is GitHub's documented shape for its operation and status.
func TestEveryOperationThroughGhx(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	gh := env.client
	calls := []struct {
		name string
		call func() (bool, error)
	}{
		{"users/get-authenticated", func() (bool, error) {
			me, _, err := gh.Users.Get(ctx, "")
			return me.GetLogin() == "founder", err
		}},
		{"repos/get", func() (bool, error) {
			r, _, err := gh.Repositories.Get(ctx, owner, repo)
			return r.GetDefaultBranch() == "main" && r.GetPermissions()["admin"], err
		}},
		{"repos/get-collaborator-permission-level", func() (bool, error) {
			p, _, err := gh.Repositories.GetPermissionLevel(ctx, owner, repo, "writer")
			return p.GetPermission() == "write", err
		}},
		{"rate-limit/get", func() (bool, error) {
			l, _, err := gh.RateLimit.Get(ctx)
			return l.GetCore().Limit == 5000, err
		}},
		{"pulls/list", func() (bool, error) {
			prs, _, err := gh.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{State: "open", Base: "dev"})
			return len(prs) > 0, err
		}},
		{"pulls/get", func() (bool, error) {
			pr, _, err := gh.PullRequests.Get(ctx, owner, repo, sandbox.DemoPRReady)
			return pr.GetHead().GetSHA() == env.srv.HeadSHA(sandbox.DemoPRReady), err
		}},
		{"pulls/list-files", func() (bool, error) {
			files, err := ghx.ListAll(ctx, func(o *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
				return gh.PullRequests.ListFiles(ctx, owner, repo, sandbox.DemoPRReady, o)
			})
			return len(files) > 0, err
		}},
		{"pulls/list-reviews", func() (bool, error) {
			_, _, err := gh.PullRequests.ListReviews(ctx, owner, repo, sandbox.DemoPRReady, nil)
			return true, err
		}},
		{"issues/list-comments", func() (bool, error) {
			cs, _, err := gh.Issues.ListComments(ctx, owner, repo, sandbox.DemoPRReady, nil)
			return len(cs) == 1, err
		}},
		{"teams/get-membership-for-user-in-org", func() (bool, error) {
			if err := env.srv.SetTeam("policy-owners", "writer"); err != nil {
				return false, err
			}
			in, err := ghx.TeamMember(ctx, gh, "@acme/policy-owners", "Writer")
			if err != nil {
				return false, err
			}
			out, err := ghx.TeamMember(ctx, gh, "@acme/policy-owners", "reader")
			return in && !out, err
		}},
		{"issues/update-comment", func() (bool, error) {
			cs, _, err := gh.Issues.ListComments(ctx, owner, repo, sandbox.DemoPRReady, nil)
			if err != nil || len(cs) == 0 {
				return false, err
			}
			body := cs[0].GetBody() + "\n\n(edited)"
			c, _, err := gh.Issues.EditComment(ctx, owner, repo, cs[0].GetID(), &github.IssueComment{Body: &body})
			return c.GetID() == cs[0].GetID() && c.GetBody() == body, err
		}},
		{"repos/compare-commits-with-basehead", func() (bool, error) {
			c, _, err := gh.Repositories.CompareCommits(ctx, owner, repo, "dev", "story/3-remaining-deductible", nil)
			return c.GetAheadBy() > 0, err
		}},
		{"actions/get-workflow-run", func() (bool, error) {
			run, _, err := gh.Actions.GetWorkflowRunByID(ctx, owner, repo, env.srv.RunID(sandbox.RunQualifying))
			return run.GetConclusion() == "success" && len(run.PullRequests) == 1, err
		}},
		{"actions/get-artifact", func() (bool, error) {
			arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, env.srv.RunID(sandbox.RunExpired), nil)
			if err != nil || len(arts.Artifacts) != 1 {
				return false, err
			}
			a, _, err := gh.Actions.GetArtifact(ctx, owner, repo, arts.Artifacts[0].GetID())
			return a.GetExpired(), err
		}},
		{"actions/get-artifact-and-log-retention-settings-repository", func() (bool, error) {
			var retention struct {
				Days int `json:"days"`
			}
			req, err := gh.NewRequest(http.MethodGet, "repos/acme/benefits/actions/permissions/artifact-and-log-retention", nil)
			if err != nil {
				return false, err
			}
			_, err = gh.Do(ctx, req, &retention)
			return retention.Days > 0, err
		}},
		{"actions/create-workflow-dispatch", func() (bool, error) {
			_, err := gh.Actions.CreateWorkflowDispatchEventByFileName(ctx, owner, repo, sandbox.GateFile,
				github.CreateWorkflowDispatchEventRequest{Ref: "dev"})
			return true, err
		}},
		{"actions/re-run-workflow", func() (bool, error) {
			id := env.srv.RunID(sandbox.RunFailed)
			resp, err := gh.Actions.RerunWorkflowByID(ctx, owner, repo, id)
			if err != nil {
				return false, err
			}
			run, _, err := gh.Actions.GetWorkflowRunByID(ctx, owner, repo, id)
			return resp.StatusCode == http.StatusCreated && run.GetRunAttempt() == 2, err
		}},
		{"issues/add-labels", func() (bool, error) {
			ls, _, err := gh.Issues.AddLabelsToIssue(ctx, owner, repo, sandbox.DemoDecision, []string{"status:accepted"})
			return hasLabel(ls, "status:accepted"), err
		}},
		{"issues/remove-label", func() (bool, error) {
			_, err := gh.Issues.RemoveLabelForIssue(ctx, owner, repo, sandbox.DemoDecision, "status:accepted")
			return true, err
		}},
		{"issues/update", func() (bool, error) {
			is, _, err := gh.Issues.Edit(ctx, owner, repo, sandbox.DemoDecision,
				&github.IssueRequest{State: github.String("closed"), StateReason: github.String("completed")})
			return is.GetState() == "closed" && is.GetStateReason() == "completed", err
		}},
		{"pulls/merge", func() (bool, error) {
			res, _, err := gh.PullRequests.Merge(ctx, owner, repo, sandbox.DemoPRReady, "",
				&github.PullRequestOptions{MergeMethod: "squash", SHA: env.srv.HeadSHA(sandbox.DemoPRReady)})
			return res.GetMerged() && env.srv.BranchSHA("dev") == res.GetSHA(), err
		}},
	}
	for _, c := range calls {
		ok, err := c.call()
		if err != nil || !ok {
			t.Errorf("%s: fact ok %v, err %v", c.name, ok, err)
		}
	}
}

func hasLabel(ls []*github.Label, name string) bool {
	for _, l := range ls {
		if l.GetName() == name {
			return true
		}
	}
	return false
}
