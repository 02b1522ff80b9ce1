package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func gitIn(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
		"GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=agent@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=agent@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestGitSmartHTTP: an agent clones the demo over smart HTTP with its
// bearer token, pushes a story branch, and opens a pull request through the
// REST API that names the pushed head; a reader may clone but not push,
// and a bad token may do neither.
func TestGitSmartHTTP(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()})
	work := t.TempDir()
	auth := func(tok string) string { return "http.extraHeader=Authorization: Bearer " + tok }

	if out, err := gitIn(t, work, "-c", auth("sandbox-agent-bot"), "clone", base+"/acme/benefits.git", "repo"); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	repo := filepath.Join(work, "repo")
	if out, err := gitIn(t, repo, "log", "--oneline", "origin/dev"); err != nil || out == "" {
		t.Fatalf("the clone has no dev: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(repo, "NOTE.md"), []byte("from the agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"checkout", "-b", "story/3-note", "origin/dev"}, {"add", "NOTE.md"}, {"commit", "-m", "Add a note"}} {
		if out, err := gitIn(t, repo, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	head, _ := gitIn(t, repo, "rev-parse", "HEAD")
	head = strings.TrimSpace(head)
	if out, err := gitIn(t, repo, "-c", auth("sandbox-reader"), "push", "origin", "story/3-note"); err == nil || !strings.Contains(out, "403") {
		t.Errorf("a reader pushed: %v\n%s", err, out)
	}
	if out, err := gitIn(t, repo, "-c", auth("not-a-token"), "fetch", "origin"); err == nil {
		t.Errorf("a bad token fetched:\n%s", out)
	}
	if out, err := gitIn(t, repo, "-c", auth("sandbox-agent-bot"), "push", "origin", "story/3-note"); err != nil {
		t.Fatalf("the agent's push: %v\n%s", err, out)
	}

	gh := client(t, base, "sandbox-agent-bot")
	ctx := context.Background()
	ref, _, err := gh.Git.GetRef(ctx, "acme", "benefits", "heads/story/3-note")
	if err != nil || ref.GetObject().GetSHA() != head {
		t.Fatalf("the API does not see the pushed head %s: %v %v", head, ref, err)
	}
	pr, _, err := gh.PullRequests.Create(ctx, "acme", "benefits", &github.NewPullRequest{
		Title: github.String("Add a note"), Head: github.String("story/3-note"), Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil || pr.GetHead().GetSHA() != head || pr.GetUser().GetLogin() != sandbox.BotLogin {
		t.Fatalf("the pull request: %v %v", pr, err)
	}
	if files, _, err := gh.PullRequests.ListFiles(ctx, "acme", "benefits", pr.GetNumber(), nil); err != nil || len(files) != 1 || files[0].GetFilename() != "NOTE.md" {
		t.Errorf("its files: %v %v", files, err)
	}
}
