package packbuild

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestResolve reads each demo story's facts through the sandbox's REST API.
func TestResolve(t *testing.T) {
	t.Parallel()
	s, err := sandbox.New(sandbox.Options{Now: func() time.Time { return demoNow }})
	if err != nil {
		t.Fatal(err)
	}
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		story, pr int
		bug       bool
		base      string
		ready     bool
	}{
		{3, sandbox.DemoPRReady, false, "dev", true},
		{5, sandbox.DemoPRReview, false, "dev", true},
		{sandbox.DemoBug, sandbox.DemoPRBugFix, true, "dev", true},
		{sandbox.DemoBugGreenOnBase, sandbox.DemoPRBugFix, true, "dev", true},
		{sandbox.DemoReplaced, 0, false, "main", false},
	}
	for _, tc := range cases {
		got, err := Resolve(context.Background(), gh, sandbox.RepoOwner, sandbox.RepoName, tc.story)
		if err != nil {
			t.Fatalf("story %d: %v", tc.story, err)
		}
		if got.PR != tc.pr || got.Bug != tc.bug || got.BaseBranch != tc.base || (got.Ready != nil) != tc.ready {
			t.Errorf("story %d: pr %d bug %v base %q ready %v; want pr %d bug %v base %q ready %v",
				tc.story, got.PR, got.Bug, got.BaseBranch, got.Ready != nil, tc.pr, tc.bug, tc.base, tc.ready)
		}
		if tc.pr != 0 && got.HeadSHA != s.HeadSHA(tc.pr) {
			t.Errorf("story %d: head %s, want %s", tc.story, got.HeadSHA, s.HeadSHA(tc.pr))
		}
	}
	if _, err := Resolve(context.Background(), gh, sandbox.RepoOwner, sandbox.RepoName, 999); err == nil {
		t.Error("a story that does not exist resolved")
	}
}

// TestPrepareSandbox clones the demo under the cache folder and checks out
// the pull request's head, with the base branch as origin/dev.
func TestPrepareSandbox(t *testing.T) {
	t.Parallel()
	needTools(t)
	s, err := sandbox.New(sandbox.Options{StateDir: t.TempDir(), Now: func() time.Time { return demoNow }})
	if err != nil {
		t.Fatal(err)
	}
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	for range 2 { // the second run replaces the first checkout
		req, err := Prepare(context.Background(), Tools{}, gh, PrepareOptions{Owner: "acme", Repo: "benefits", Story: 3, SandboxGitDir: s.GitDir(), CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		head, err := Tools{}.git(context.Background(), req.Dir, "rev-parse", "HEAD")
		if err != nil || string(head) != s.HeadSHA(sandbox.DemoPRReady)+"\n" || req.BaseRef != "origin/dev" || req.PR != 4 ||
			req.Dir != SandboxCheckoutDir(cache, "acme/benefits", 3) || len(req.Ready) == 0 {
			t.Fatalf("prepared %+v, head %s %v", req, head, err)
		}
	}
}

// TestPrepareOutsideACloneSaysToClone: run outside any git working tree,
// verify used to advise "run git fetch origin dev", which cannot work
// there; it says the folder is not in a clone of OWNER/REPO and how to get
// one. RepoFromCheckout (no --repo) says the same, without a repository.
func TestPrepareOutsideACloneSaysToClone(t *testing.T) {
	t.Parallel()
	needTools(t)
	s, err := sandbox.New(sandbox.Options{StateDir: t.TempDir(), Now: func() time.Time { return demoNow }})
	if err != nil {
		t.Fatal(err)
	}
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// git must not find a repository above the temporary folder either.
	tools := Tools{Environ: append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))}
	_, err = Prepare(context.Background(), tools, gh, PrepareOptions{Owner: "acme", Repo: "benefits", Story: 3, Checkout: dir})
	if err == nil {
		t.Fatal("prepared a run outside a clone")
	}
	msg := err.Error()
	for _, want := range []string{dir + " is not in a clone of acme/benefits", "git clone ", "benefits.git && cd benefits && aayu verify 3"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the advice lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "git fetch") {
		t.Errorf("the advice still says to fetch: %s", msg)
	}
	_, _, err = tools.RepoFromCheckout(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "is not in a clone of a repository") || !strings.Contains(err.Error(), "--repo OWNER/NAME") {
		t.Errorf("RepoFromCheckout outside a clone: %v", err)
	}
	// Inside a clone that lacks the base branch, the fetch advice stays.
	if _, err := tools.git(context.Background(), dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	_, err = Prepare(context.Background(), tools, gh, PrepareOptions{Owner: "acme", Repo: "benefits", Story: 3, Checkout: dir})
	if err == nil || !strings.Contains(err.Error(), "git fetch origin dev") {
		t.Errorf("inside a clone without dev: %v", err)
	}
}
