package sandbox_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestGoGitHubReads drives every read operation through go-github v66 with
// the validator on, and checks the demo's facts on the way.
func TestGoGitHubReads(t *testing.T) {
	t.Parallel()
	s, v, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")

	issues, resp, err := gh.Issues.ListByRepo(ctx, "acme", "benefits", &github.IssueListByRepoOptions{State: "all", ListOptions: github.ListOptions{PerPage: 4}})
	if err != nil {
		t.Fatalf("list issues: %v", err)
	}
	if len(issues) != 4 || resp.NextPage != 2 || resp.LastPage != 5 {
		t.Errorf("page 1 of 18 items by 4: got %d items, next %d, last %d", len(issues), resp.NextPage, resp.LastPage)
	}
	pr4, _, err := gh.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRReady)
	if err != nil {
		t.Fatalf("get PR 4: %v", err)
	}
	if pr4.GetHead().GetSHA() != s.HeadSHA(4) || pr4.GetBase().GetRef() != "dev" || !pr4.GetMergeable() {
		t.Errorf("PR 4: head %s base %s mergeable %v", pr4.GetHead().GetSHA(), pr4.GetBase().GetRef(), pr4.GetMergeable())
	}
	if _, _, err := gh.PullRequests.List(ctx, "acme", "benefits", &github.PullRequestListOptions{State: "all"}); err != nil {
		t.Errorf("list PRs: %v", err)
	}
	files, _, err := gh.PullRequests.ListFiles(ctx, "acme", "benefits", 4, nil)
	if err != nil || len(files) != 3 {
		t.Errorf("PR 4 files: %d, %v", len(files), err)
	}
	if _, _, err := gh.PullRequests.ListReviews(ctx, "acme", "benefits", 4, nil); err != nil {
		t.Errorf("reviews: %v", err)
	}
	if _, _, err := gh.Issues.Get(ctx, "acme", "benefits", 1); err != nil {
		t.Errorf("issue 1: %v", err)
	}
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "benefits", 4, nil)
	if err != nil || len(comments) != 1 || !strings.HasPrefix(comments[0].GetBody(), "Ready to ship") {
		t.Errorf("PR 4 comments: %v %v", comments, err)
	}
	perm, _, err := gh.Repositories.GetPermissionLevel(ctx, "acme", "benefits", "reader")
	if err != nil || perm.GetPermission() != "read" {
		t.Errorf("reader's permission: %v %v", perm, err)
	}
	me, _, err := gh.Users.Get(ctx, "")
	if err != nil || me.GetLogin() != "founder" {
		t.Errorf("/user: %v %v", me, err)
	}
	repo, _, err := gh.Repositories.Get(ctx, "acme", "benefits")
	if err != nil || repo.GetDefaultBranch() != "main" || !repo.GetPermissions()["admin"] {
		t.Errorf("repo: %v %v", repo, err)
	}
	fc, _, _, err := gh.Repositories.GetContents(ctx, "acme", "benefits", ".aayudha/config.toml", &github.RepositoryContentGetOptions{Ref: "dev"})
	if err != nil {
		t.Fatalf("config.toml: %v", err)
	}
	if text, _ := fc.GetContent(); !strings.Contains(text, `approver = "founder"`) {
		t.Errorf("config.toml on dev: %q", text)
	}
	_, dir, _, err := gh.Repositories.GetContents(ctx, "acme", "benefits", "deductible", nil)
	if err != nil || len(dir) != 2 {
		t.Errorf("deductible/ on main: %d entries, %v", len(dir), err)
	}
	cmp, _, err := gh.Repositories.CompareCommits(ctx, "acme", "benefits", "dev", "story/3-remaining-deductible", nil)
	if err != nil || cmp.GetStatus() != "diverged" || cmp.GetAheadBy() != 2 {
		t.Errorf("compare: %v %v", cmp, err)
	}
	ref, _, err := gh.Git.GetRef(ctx, "acme", "benefits", "heads/story/3-remaining-deductible")
	if err != nil || ref.GetObject().GetSHA() != s.HeadSHA(4) {
		t.Errorf("ref: %v %v", ref, err)
	}
	tree, _, err := gh.Git.GetTree(ctx, "acme", "benefits", "ledger", true)
	if err != nil || len(tree.Entries) < 10 {
		t.Errorf("ledger tree: %v", err)
	}
	combined, _, err := gh.Repositories.GetCombinedStatus(ctx, "acme", "benefits", s.HeadSHA(6), nil)
	if err != nil || combined.GetState() != "pending" {
		t.Errorf("PR 6 combined status: %v %v", combined.GetState(), err)
	}
	if _, _, err := gh.RateLimit.Get(ctx); err != nil {
		t.Errorf("rate limit: %v", err)
	}
	var retention struct{ Days, MaximumAllowedDays int }
	req, _ := gh.NewRequest(http.MethodGet, "repos/acme/benefits/actions/permissions/artifact-and-log-retention", nil)
	if _, err := gh.Do(ctx, req, &retention); err != nil || retention.Days != 30 {
		t.Errorf("retention: %+v %v", retention, err)
	}
	for _, op := range []string{"issues/list-for-repo", "pulls/get", "repos/get-content", "git/get-tree", "rate-limit/get"} {
		if !v.SeenOperation(op) {
			t.Errorf("operation %s was not validated", op)
		}
	}
}
