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

// TestGateReportsAFailingPullRequest: a pushed head whose own test fails
// runs the merge gate to the end — the tests job keeps the raw outputs,
// the pack job's verdict fails (a floor does not hold), and the comment
// job runs anyway: github-actions[bot] sets aayudha/merge-gate to failure
// on the head and keeps the gate's comment naming the failing test; each
// job is a check run on the base's tip.
func TestGateReportsAFailingPullRequest(t *testing.T) {
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
	git("checkout", "-q", "-b", "story/3-breaks-a-test", "origin/story/3-remaining-deductible")
	failing := "package deductible\n\nimport \"testing\"\n\nfunc TestTheAgentBrokeThis(t *testing.T) { t.Fatal(\"broken on purpose\") }\n"
	if err := os.WriteFile(filepath.Join(work, "deductible", "broken_test.go"), []byte(failing), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "deductible/broken_test.go")
	git("commit", "-q", "-m", "Break a test")
	head := git("rev-parse", "HEAD")
	git("push", "-q", "origin", "story/3-breaks-a-test")

	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(base + "/")
	agent := github.NewClient(nil).WithAuthToken("sandbox-agent-bot")
	agent.BaseURL = gh.BaseURL
	ctx := context.Background()
	opened, _, err := agent.PullRequests.Create(ctx, "acme", "benefits", &github.NewPullRequest{
		Title: github.String("Remaining deductible, broken"), Head: github.String("story/3-breaks-a-test"),
		Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil {
		t.Fatal(err)
	}
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
		t.Fatalf("no failed run for %s: %v\n%s", head, run, logs.String())
	}
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
	// aayu comment ends with the gate's verdict, so its job fails too;
	// what matters is that it ran and reported.
	if fmt.Sprint(concluded) != "map[aayudha/comment:failure aayudha/pack:failure aayudha/tests:success]" {
		t.Errorf("the run's check runs: %v\n%s", concluded, logs.String())
	}
	statuses, _, err := gh.Repositories.ListStatuses(ctx, "acme", "benefits", head, nil)
	if err != nil || len(statuses) == 0 {
		t.Fatalf("no status on the failing head: %v", err)
	}
	if st := statuses[0]; st.GetContext() != "aayudha/merge-gate" || st.GetState() != "failure" || st.GetCreator().GetLogin() != sandbox.ActionsBotLogin ||
		!strings.Contains(st.GetDescription(), "a floor does not hold") {
		t.Errorf("the head's status: %s %s by %s: %s", st.GetContext(), st.GetState(), st.GetCreator().GetLogin(), st.GetDescription())
	}
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "benefits", opened.GetNumber(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var gate string
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = c.GetBody()
		}
	}
	if !strings.Contains(gate, "TestTheAgentBrokeThis") || !strings.Contains(gate, "a floor does not hold") {
		t.Errorf("the gate's comment does not report the failing floor:\n%s", gate)
	}
}
