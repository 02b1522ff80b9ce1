package sandbox_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func statusOf(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) {
		return er.Response.StatusCode
	}
	return 0
}

// TestInboxWrites performs each write the inbox makes, through go-github.
func TestInboxWrites(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")

	if _, _, err := gh.Issues.CreateComment(ctx, "acme", "benefits", 1, &github.IssueComment{Body: github.String("Accepted option 1 (Keep them in Go code) by @founder")}); err != nil {
		t.Fatalf("comment: %v", err)
	}
	labels, _, err := gh.Issues.AddLabelsToIssue(ctx, "acme", "benefits", 1, []string{"status:accepted"})
	if err != nil || len(labels) != 3 {
		t.Fatalf("add label: %d labels, %v", len(labels), err)
	}
	if _, err := gh.Issues.RemoveLabelForIssue(ctx, "acme", "benefits", 1, "status:proposed"); err != nil {
		t.Fatalf("remove label: %v", err)
	}
	if got, _, _ := gh.Issues.Get(ctx, "acme", "benefits", 1); len(got.Labels) != 2 {
		t.Errorf("labels after removal: %d, want 2", len(got.Labels))
	}
	if _, err := gh.Issues.RemoveLabelForIssue(ctx, "acme", "benefits", 1, "no-such-label"); statusOf(err) != 404 {
		t.Errorf("removing a missing label: %v, want 404", err)
	}
	is, _, err := gh.Issues.Edit(ctx, "acme", "benefits", 1, &github.IssueRequest{State: github.String("closed"), StateReason: github.String("completed")})
	if err != nil || is.GetState() != "closed" || is.GetStateReason() != "completed" || is.GetClosedBy().GetLogin() != "founder" {
		t.Fatalf("close: %v %v", is, err)
	}
	created, resp, err := gh.Issues.Create(ctx, "acme", "benefits", &github.IssueRequest{Title: github.String("Staged by a script"), Labels: &[]string{"type:bug"}})
	if err != nil || created.GetNumber() != sandbox.DemoPRScreenshot+1 || resp.Header.Get("Location") == "" {
		t.Fatalf("create issue: %v %v", created, err)
	}
	if _, _, err := gh.Issues.Create(ctx, "acme", "benefits", &github.IssueRequest{}); statusOf(err) != 422 {
		t.Errorf("issue without title: %v, want 422", err)
	}

	// The reader may not label; the author may not approve their own PR:
	// in the solo demo agents write as the founder, so that is the founder.
	reader := client(t, base, "sandbox-reader")
	if _, _, err := reader.Issues.AddLabelsToIssue(ctx, "acme", "benefits", 2, []string{"x"}); statusOf(err) != 403 {
		t.Errorf("reader labelling: %v, want 403", err)
	}
	head6 := s.HeadSHA(6)
	if _, _, err := gh.PullRequests.CreateReview(ctx, "acme", "benefits", 6, &github.PullRequestReviewRequest{CommitID: &head6, Event: github.String("APPROVE")}); statusOf(err) != 422 {
		t.Errorf("author approving own PR: %v, want 422", err)
	}
	writer := client(t, base, "sandbox-writer")
	rv, _, err := writer.PullRequests.CreateReview(ctx, "acme", "benefits", 6, &github.PullRequestReviewRequest{CommitID: &head6, Event: github.String("APPROVE"), Body: github.String("checked the copay tests")})
	if err != nil || rv.GetState() != "APPROVED" || rv.GetCommitID() != head6 {
		t.Fatalf("writer's approval: %v %v", rv, err)
	}
	st, _, err := gh.Repositories.CreateStatus(ctx, "acme", "benefits", head6, &github.RepoStatus{State: github.String("success"), Context: github.String("aayudha/inspect"), Description: github.String("human rung: approved by founder")})
	if err != nil || st.GetState() != "success" {
		t.Fatalf("status: %v", err)
	}
	combined, _, _ := gh.Repositories.GetCombinedStatus(ctx, "acme", "benefits", head6, nil)
	if combined.GetState() != "success" {
		t.Errorf("combined after approval: %s", combined.GetState())
	}
}

// TestMergeSquash covers 409 on a moved head, 405, and a real squash commit.
func TestMergeSquash(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")
	opts := &github.PullRequestOptions{MergeMethod: "squash", SHA: s.HeadSHA(3 + 1)}
	wrong := &github.PullRequestOptions{MergeMethod: "squash", SHA: s.BranchSHA("main")}
	if _, _, err := gh.PullRequests.Merge(ctx, "acme", "benefits", 4, "", wrong); statusOf(err) != http.StatusConflict {
		t.Errorf("merge with a stale sha: %v, want 409", err)
	}
	if _, _, err := gh.PullRequests.Merge(ctx, "acme", "benefits", 10, "", opts); statusOf(err) != http.StatusMethodNotAllowed {
		t.Errorf("merging a merged PR: %v, want 405", err)
	}
	devBefore := s.BranchSHA("dev")
	res, _, err := gh.PullRequests.Merge(ctx, "acme", "benefits", 4, "", opts)
	if err != nil || !res.GetMerged() {
		t.Fatalf("merge: %v %v", res, err)
	}
	if s.BranchSHA("dev") != res.GetSHA() {
		t.Errorf("dev is %s, the squash commit is %s", s.BranchSHA("dev"), res.GetSHA())
	}
	c, _, err := gh.Git.GetCommit(ctx, "acme", "benefits", res.GetSHA())
	if err != nil || len(c.Parents) != 1 || c.Parents[0].GetSHA() != devBefore {
		t.Fatalf("squash commit parents: %v %v", c, err)
	}
	fc, _, _, err := gh.Repositories.GetContents(ctx, "acme", "benefits", "deductible/remaining.go", &github.RepositoryContentGetOptions{Ref: "dev"})
	if err != nil || fc == nil {
		t.Errorf("remaining.go on dev after the merge: %v", err)
	}
	pr, _, _ := gh.PullRequests.Get(ctx, "acme", "benefits", 4)
	if !pr.GetMerged() || pr.GetMergeCommitSHA() != res.GetSHA() || pr.GetState() != "closed" {
		t.Errorf("PR 4 after merge: merged %v sha %s state %s", pr.GetMerged(), pr.GetMergeCommitSHA(), pr.GetState())
	}
}

// TestGitDataWrite writes a ledger file the way aayu does, then shows a
// non-fast-forward is refused.
func TestGitDataWrite(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")
	ref, _, err := gh.Git.GetRef(ctx, "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	tip := ref.GetObject().GetSHA()
	parent, _, err := gh.Git.GetCommit(ctx, "acme", "benefits", tip)
	if err != nil {
		t.Fatal(err)
	}
	blob, _, err := gh.Git.CreateBlob(ctx, "acme", "benefits", &github.Blob{Content: github.String(`{"pr":15}` + "\n"), Encoding: github.String("utf-8")})
	if err != nil {
		t.Fatal(err)
	}
	tree, _, err := gh.Git.CreateTree(ctx, "acme", "benefits", parent.GetTree().GetSHA(), []*github.TreeEntry{
		{Path: github.String("autonomy/samples.jsonl"), Mode: github.String("100644"), Type: github.String("blob"), SHA: blob.SHA},
		{Path: github.String("autonomy/audit/15.json"), Mode: github.String("100644"), Type: github.String("blob")},
	})
	if err != nil {
		t.Fatalf("tree: %v", err)
	}
	commit, _, err := gh.Git.CreateCommit(ctx, "acme", "benefits", &github.Commit{Message: github.String("ledger: audit PR 15"), Tree: &github.Tree{SHA: tree.SHA}, Parents: []*github.Commit{{SHA: &tip}}}, nil)
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	if _, _, err := gh.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/ledger"), Object: &github.GitObject{SHA: commit.SHA}}, false); err != nil {
		t.Fatalf("fast-forward: %v", err)
	}
	if s.BranchSHA("ledger") != commit.GetSHA() {
		t.Errorf("ledger did not move")
	}
	_, _, err = gh.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/ledger"), Object: &github.GitObject{SHA: &tip}}, false)
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != 422 || er.Message != "Update is not a fast forward" {
		t.Errorf("moving the ledger back: %v, want 422 Update is not a fast forward", err)
	}
	if _, _, err := gh.Git.CreateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/ledger"), Object: &github.GitObject{SHA: &tip}}); statusOf(err) != 422 {
		t.Errorf("creating an existing ref: %v, want 422", err)
	}
	if _, _, err := gh.Git.CreateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/story/99-new"), Object: &github.GitObject{SHA: &tip}}); err != nil {
		t.Errorf("create ref: %v", err)
	}
}
