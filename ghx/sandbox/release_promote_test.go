package sandbox_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestReleasesEnforceWhatGitHubEnforces: creating a release needs push
// access (403 otherwise); a second release for a tag is 422
// already_exists on tag_name; a release on a new tag creates the tag at
// target_commitish; a tag no release names is 404; moving a branch by the
// refs API without force refuses anything but a fast-forward (422).
func TestReleasesEnforceWhatGitHubEnforces(t *testing.T) {
	t.Parallel()
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, StateDir: t.TempDir(), Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ctx := context.Background()
	founder, reader := client(t, base, "sandbox-founder"), client(t, base, "sandbox-reader")
	rel := &github.RepositoryRelease{TagName: github.String("v1.0.0"), TargetCommitish: github.String("dev"), Body: github.String("notes")}
	_, resp, err := reader.Repositories.CreateRelease(ctx, "acme", "benefits", rel)
	if err == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a reader's release: %v", err)
	}
	if _, _, err := founder.Repositories.CreateRelease(ctx, "acme", "benefits", rel); err != nil {
		t.Fatal(err)
	}
	ref, _, err := founder.Git.GetRef(ctx, "acme", "benefits", "tags/v1.0.0")
	if err != nil || ref.GetObject().GetSHA() != srv.BranchSHA("dev") {
		t.Fatalf("the release's tag: %v %v", ref, err)
	}
	_, resp, err = founder.Repositories.CreateRelease(ctx, "acme", "benefits", rel)
	var ge *github.ErrorResponse
	if !errors.As(err, &ge) || resp.StatusCode != http.StatusUnprocessableEntity || len(ge.Errors) != 1 || ge.Errors[0].Code != "already_exists" || ge.Errors[0].Field != "tag_name" {
		t.Fatalf("a second release for v1.0.0: %v", err)
	}
	got, _, err := founder.Repositories.GetReleaseByTag(ctx, "acme", "benefits", "v1.0.0")
	if err != nil || got.GetBody() != "notes" || got.GetAuthor().GetLogin() != "founder" {
		t.Fatalf("reading the release: %v %v", got, err)
	}
	if _, resp, err := founder.Repositories.GetReleaseByTag(ctx, "acme", "benefits", "v9.9.9"); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a tag no release names: %v", err)
	}
	// main to dev's tip is a fast-forward; dev back to main's old tip is not.
	mainTip := srv.BranchSHA("main")
	if _, _, err := founder.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("heads/main"), Object: &github.GitObject{SHA: github.String(srv.BranchSHA("dev"))}}, false); err != nil {
		t.Fatal(err)
	}
	_, resp, err = founder.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("heads/main"), Object: &github.GitObject{SHA: github.String(mainTip)}}, false)
	if err == nil || resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("moving main back without force: %v", err)
	}
}
