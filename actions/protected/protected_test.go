package protected_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/actions/protected"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// TestProtectedPathsGateOnFresh: once init's CODEOWNERS is on main, a pull
// request that changes only product code passes, one that changes a
// workflow is refused until a CODEOWNER approves its head.
func TestProtectedPathsGateOnFresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	as := func(login string) *github.Client {
		c := github.NewClient(nil).WithAuthToken("sandbox-" + login)
		c.BaseURL, _ = url.Parse(base + "/")
		return c
	}
	founder, writer := as("founder"), as("writer")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: founder, Owner: "acme", Repo: "fresh", Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := initrepo.Apply(ctx, founder, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := founder.PullRequests.Merge(ctx, "acme", "fresh", res.PR, "", &github.PullRequestOptions{MergeMethod: "squash"}); err != nil {
		t.Fatal(err)
	}
	// The branch is pushed with the founder's token: a workflow file needs
	// the workflow scope, which the writer's token (gh's repo, read:org,
	// gist) lacks; the writer opens the pull request.
	open := func(branch, path string) int {
		t.Helper()
		ref, _, _ := founder.Git.GetRef(ctx, "acme", "fresh", "heads/main")
		parent, _, _ := founder.Git.GetCommit(ctx, "acme", "fresh", ref.GetObject().GetSHA())
		tree, _, err := founder.Git.CreateTree(ctx, "acme", "fresh", parent.GetTree().GetSHA(), []*github.TreeEntry{{Path: github.String(path), Mode: github.String("100644"), Type: github.String("blob"), Content: github.String("x\n")}})
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := founder.Git.CreateCommit(ctx, "acme", "fresh", &github.Commit{Message: github.String("change"), Tree: tree, Parents: []*github.Commit{{SHA: parent.SHA}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := founder.Git.CreateRef(ctx, "acme", "fresh", &github.Reference{Ref: github.String("refs/heads/" + branch), Object: &github.GitObject{SHA: c.SHA}}); err != nil {
			t.Fatal(err)
		}
		pr, _, err := writer.PullRequests.Create(ctx, "acme", "fresh", &github.NewPullRequest{Title: github.String(branch), Head: github.String(branch), Base: github.String("main")})
		if err != nil {
			t.Fatal(err)
		}
		return pr.GetNumber()
	}

	product := open("story/1-greet", "greet/extra.go")
	if code, lines, err := protected.Check(ctx, founder, "acme", "fresh", product); err != nil || code != protected.ExitOK || !strings.Contains(strings.Join(lines, "\n"), "changes no protected path") {
		t.Errorf("a product change: exit %d %v\n%s", code, err, strings.Join(lines, "\n"))
	}
	gate := open("story/2-ci", ".github/workflows/other.yml")
	code, lines, err := protected.Check(ctx, founder, "acme", "fresh", gate)
	if err != nil || code != protected.ExitRefused || !strings.Contains(strings.Join(lines, "\n"), "refused: protected path .github/workflows/other.yml needs an approval") {
		t.Fatalf("a workflow change without approval: exit %d %v\n%s", code, err, strings.Join(lines, "\n"))
	}
	pr, _, _ := founder.PullRequests.Get(ctx, "acme", "fresh", gate)
	if _, _, err := founder.PullRequests.CreateReview(ctx, "acme", "fresh", gate, &github.PullRequestReviewRequest{CommitID: pr.GetHead().SHA, Event: github.String("APPROVE")}); err != nil {
		t.Fatal(err)
	}
	if code, lines, err := protected.Check(ctx, founder, "acme", "fresh", gate); err != nil || code != protected.ExitOK || !strings.Contains(strings.Join(lines, "\n"), "approved by @founder") {
		t.Errorf("after the CODEOWNER's approval: exit %d %v\n%s", code, err, strings.Join(lines, "\n"))
	}
}
