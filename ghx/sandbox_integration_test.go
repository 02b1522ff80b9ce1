//go:build sandbox

// Run with: go test -tags sandbox ./ghx/ (once ghx/sandbox builds).

package ghx_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/google/go-github/v66/github"
)

func TestAgainstSandbox(t *testing.T) {
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: base + "/", Token: ghx.NewToken("sandbox-founder", "test"),
		CacheDir: t.TempDir(), CacheNamespace: "founder",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list := func(opts *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, "acme", "benefits", &github.IssueListByRepoOptions{State: "all", ListOptions: *opts})
	}
	first, err := ghx.ListAll(ctx, list)
	if err != nil || len(first) == 0 {
		t.Fatalf("ListAll: %d issues, %v", len(first), err)
	}
	before, _, err := client.RateLimit.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second, err := ghx.ListAll(ctx, list)
	after, _, err2 := client.RateLimit.Get(ctx)
	if err != nil || err2 != nil || len(second) != len(first) {
		t.Fatalf("refresh: %d vs %d issues, %v %v", len(second), len(first), err, err2)
	}
	if before.GetCore().Remaining != after.GetCore().Remaining {
		t.Errorf("refresh cost rate limit: %d → %d", before.GetCore().Remaining, after.GetCore().Remaining)
	}

	runs, _, err := client.Actions.ListWorkflowRunsByFileName(ctx, "acme", "benefits", "aayudha-merge-gate.yml", nil)
	if err != nil {
		t.Fatal(err)
	}
	downloaded, expired := 0, 0
	for _, run := range runs.WorkflowRuns {
		arts, _, err := client.Actions.ListWorkflowRunArtifacts(ctx, "acme", "benefits", run.GetID(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arts.Artifacts {
			var buf bytes.Buffer
			_, err := ghx.DownloadArtifact(ctx, client, "acme", "benefits", a.GetID(), &buf, 64<<20)
			switch {
			case a.GetExpired() && ghx.IsExpired(err):
				expired++
			case !a.GetExpired() && err == nil && buf.Len() > 0:
				downloaded++
			default:
				t.Errorf("artifact %d (expired %v): %v", a.GetID(), a.GetExpired(), err)
			}
		}
	}
	t.Logf("%d issues; %d artifacts downloaded, %d expired; rate remaining %d", len(first), downloaded, expired, after.GetCore().Remaining)
	if downloaded == 0 || expired == 0 {
		t.Errorf("downloaded %d, expired %d; the sandbox seeds both", downloaded, expired)
	}
}
