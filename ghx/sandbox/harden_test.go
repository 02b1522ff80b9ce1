package sandbox_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestSandboxRefusesInvalidRefNames: what git check-ref-format refuses,
// GitHub answers with 422, never 201 or 500.
func TestSandboxRefusesInvalidRefNames(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	gh := client(t, base, "sandbox-founder")
	ctx := context.Background()
	sha := s.BranchSHA("main")
	for _, ref := range []string{"refs/heads/a..b", "refs/heads/a\x01b", "refs/heads/a\x7fb", "refs/heads/a b", "refs/heads/x.lock",
		"refs/heads/.hidden", "refs/heads/a@{1}", "refs/heads/a~1", "refs/heads/a^", "refs/heads/a:b", "refs/heads/a?", "refs/heads/a*",
		"refs/heads/a[b", `refs/heads/a\b`, "refs/heads/trailing/", "refs/heads//double", "refs/heads/dot."} {
		_, resp, err := gh.Git.CreateRef(ctx, sandbox.RepoOwner, sandbox.RepoName, &github.Reference{Ref: github.String(ref), Object: &github.GitObject{SHA: github.String(sha)}})
		if err == nil || resp == nil || resp.StatusCode != http.StatusUnprocessableEntity {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			t.Errorf("creating %q: status %d, err %v; want 422", ref, status, err)
		}
	}
	if _, _, err := gh.Git.CreateRef(ctx, sandbox.RepoOwner, sandbox.RepoName, &github.Reference{Ref: github.String("refs/heads/feature/ok-1.2"),
		Object: &github.GitObject{SHA: github.String(sha)}}); err != nil {
		t.Errorf("a valid ref was refused: %v", err)
	}
}

// TestSandboxDeletesComments: the author (or push access) deletes a
// comment, as GitHub does; a reader cannot delete another's.
func TestSandboxDeletesComments(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	founder, reader := client(t, base, "sandbox-founder"), client(t, base, "sandbox-reader")
	c, _, err := founder.Issues.CreateComment(ctx, sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoPRReady, &github.IssueComment{Body: github.String("to delete")})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := reader.Issues.DeleteComment(ctx, sandbox.RepoOwner, sandbox.RepoName, c.GetID()); err == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a reader deleted the founder's comment: %v", err)
	}
	if _, err := founder.Issues.DeleteComment(ctx, sandbox.RepoOwner, sandbox.RepoName, c.GetID()); err != nil {
		t.Fatal(err)
	}
	if resp, err := founder.Issues.DeleteComment(ctx, sandbox.RepoOwner, sandbox.RepoName, c.GetID()); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("deleting it again: %v, want 404", err)
	}
	list, _, err := founder.Issues.ListComments(ctx, sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoPRReady, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range list {
		if x.GetID() == c.GetID() {
			t.Fatal("the deleted comment is still listed")
		}
	}
}
