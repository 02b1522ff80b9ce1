package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"
)

// freshWorkflow names its repository into the one artifact it uploads.
const freshWorkflow = `name: fresh
on:
  pull_request_target:
permissions: {}
jobs:
  only:
    permissions:
      contents: read
    steps:
      - run: mkdir out && echo "$GITHUB_REPOSITORY" > out/repo
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        with:
          name: out
          path: out/
`

// TestRunnerRunsFreshsGateAndServesItsArtifact: a pull request on
// acme/fresh gets its run in acme/fresh (GITHUB_REPOSITORY, the run and its
// artifact are fresh's, none in the demo), and the artifact's signed
// download serves fresh's bytes, as ship downloads the pack there.
func TestRunnerRunsFreshsGateAndServesItsArtifact(t *testing.T) {
	t.Parallel()
	s, err := New(Options{ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(ts.URL + "/")
	ctx := context.Background()
	main, _, err := gh.Git.GetRef(ctx, "acme", "fresh", "heads/main")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Git.CreateRef(ctx, "acme", "fresh", &github.Reference{Ref: github.String("refs/heads/story/1-x"), Object: main.Object}); err != nil {
		t.Fatal(err)
	}
	pr, _, err := gh.PullRequests.Create(ctx, "acme", "fresh", &github.NewPullRequest{Title: github.String("x"), Head: github.String("story/1-x"), Base: github.String("main")})
	if err != nil {
		t.Fatal(err)
	}
	demoRuns := len(s.st.Runs)
	run := s.runWorkflow(ctx, ts.URL, RunnerOptions{Aayu: "/bin/true"}, FreshRepoName, pr.GetNumber(), []byte(freshWorkflow))
	if run.Conclusion != "success" {
		t.Fatalf("the run concluded %s", run.Conclusion)
	}
	if len(s.st.Runs) != demoRuns {
		t.Errorf("the demo has %d runs, had %d: fresh's run landed in the demo", len(s.st.Runs), demoRuns)
	}
	arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, "acme", "fresh", run.ID, nil)
	if err != nil || len(arts.Artifacts) != 1 {
		t.Fatalf("fresh's run artifacts: %v %v", arts, err)
	}
	u, _, err := gh.Actions.DownloadArtifact(ctx, "acme", "fresh", arts.Artifacts[0].GetID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("the signed download answered %d: %s", resp.StatusCode, b)
	}
	rc, err := zr.Open("repo")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	if strings.TrimSpace(string(got)) != "acme/fresh" {
		t.Errorf("the run's GITHUB_REPOSITORY was %q, want acme/fresh", got)
	}
}
