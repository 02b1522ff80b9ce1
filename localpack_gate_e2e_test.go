package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestAgentsCommittedLocalPackFailsTheGate: an agent forces a local pack
// (.aayudha/proof/3/) into its branch beside a change whose tests pass and
// opens a pull request; the sandbox's runner runs the real merge gate,
// whose pack job builds and attests its own pack, and the gate still
// fails: its comment names the committed files and aayudha/merge-gate on
// the head is a failure. A local pack never passes as proof.
func TestAgentsCommittedLocalPackFailsTheGate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the gate's go test")
	}
	dir := t.TempDir()
	bin := buildAayu(t)
	var logs lockedBuffer
	srv, err := sandbox.New(sandbox.Options{StateDir: filepath.Join(dir, "state"), Runner: &sandbox.RunnerOptions{Aayu: bin},
		Logf: func(f string, a ...any) { fmt.Fprintf(&logs, f+"\n", a...) }})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })

	work := filepath.Join(dir, "work")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "http.extraHeader=Authorization: Bearer sandbox-agent-bot"}, args...)...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	_ = os.MkdirAll(work, 0o755)
	git("clone", "-q", base+"/acme/benefits.git", ".")
	git("checkout", "-q", "-b", "story/3-with-its-pack", "origin/story/3-remaining-deductible")
	local := filepath.Join(work, ".aayudha", "proof", "3")
	if err := os.MkdirAll(local, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, "pack.json"), []byte(`{"schema":"aayudha.proof/1","story":3}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-f", ".aayudha/proof/3/pack.json")
	git("commit", "-q", "-m", "Add the story's pack")
	head := git("rev-parse", "HEAD")
	git("push", "-q", "origin", "story/3-with-its-pack")

	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(base + "/")
	ctx := context.Background()
	agent := github.NewClient(nil).WithAuthToken("sandbox-agent-bot")
	agent.BaseURL = gh.BaseURL
	opened, _, err := agent.PullRequests.Create(ctx, "acme", "benefits", &github.NewPullRequest{
		Title: github.String("Remaining deductible, with its pack"), Head: github.String("story/3-with-its-pack"),
		Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil {
		t.Fatal(err)
	}
	pr := opened.GetNumber()
	var run *github.WorkflowRun
	for deadline := time.Now().Add(90 * time.Second); run == nil && time.Now().Before(deadline); time.Sleep(time.Second) {
		runs, _, err := gh.Actions.ListWorkflowRunsByFileName(ctx, "acme", "benefits", sandbox.GateFile, &github.ListWorkflowRunsOptions{Event: "pull_request_target"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs.WorkflowRuns {
			if len(r.PullRequests) == 1 && r.PullRequests[0].GetHead().GetSHA() == head && r.GetStatus() == "completed" {
				run = r
			}
		}
	}
	if run == nil || run.GetConclusion() != "failure" {
		t.Fatalf("no failed pull_request_target run for %s within 90 s: %v\n%s", head, run, logs.String())
	}
	// The pack job built and signed its own pack: only the local pack the
	// pull request carries fails the gate.
	checks, _, err := gh.Checks.ListCheckRunsForRef(ctx, "acme", "benefits", run.GetHeadSHA(), &github.ListCheckRunsOptions{Filter: github.String("all")})
	if err != nil {
		t.Fatal(err)
	}
	concluded := map[string]string{}
	for _, c := range checks.CheckRuns {
		if c.GetCheckSuite().GetID() == run.GetCheckSuiteID() {
			concluded[c.GetName()] = c.GetConclusion()
		}
	}
	if fmt.Sprint(concluded) != "map[aayudha/comment:failure aayudha/pack:success aayudha/tests:success]" {
		t.Errorf("the run's check runs: %v\n%s", concluded, logs.String())
	}
	statuses, _, err := gh.Repositories.ListStatuses(ctx, "acme", "benefits", head, nil)
	if err != nil || len(statuses) == 0 || statuses[0].GetContext() != "aayudha/merge-gate" || statuses[0].GetState() != "failure" {
		t.Errorf("the head's status: %v %v", statuses, err)
	}
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "benefits", pr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gate string
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = strings.Join(strings.Fields(c.GetBody()), " ")
		}
	}
	if !strings.Contains(gate, "adds files under .aayudha/proof/") || !strings.Contains(gate, "never passes as proof") {
		t.Errorf("the gate's comment does not name the committed local pack:\n%s\n%s", gate, logs.String())
	}
}
