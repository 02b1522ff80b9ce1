package e2e

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

// gateRig is a sandbox whose runner runs the real merge gate with the
// built aayu, and an agent's clone of acme/benefits to push from.
type gateRig struct {
	t      *testing.T
	base   string
	work   string
	logs   *lockedBuffer
	person *github.Client // the founder's token
	agent  *github.Client // the agent bot's
}

// startGateRig builds aayu, starts the sandbox with its runner and clones
// acme/benefits as the agent.
func startGateRig(t *testing.T) *gateRig {
	t.Helper()
	if testing.Short() {
		t.Skip("builds aayu and runs the gate's go test")
	}
	dir := t.TempDir()
	r := &gateRig{t: t, work: filepath.Join(dir, "work")}
	_, r.base, r.logs = runnerSandbox(t, sandbox.Options{StateDir: filepath.Join(dir, "state")})
	r.person = github.NewClient(nil).WithAuthToken("sandbox-founder")
	r.person.BaseURL, _ = url.Parse(r.base + "/")
	r.agent = github.NewClient(nil).WithAuthToken("sandbox-agent-bot")
	r.agent.BaseURL = r.person.BaseURL
	_ = os.MkdirAll(r.work, 0o755)
	r.git("clone", "-q", r.base+"/acme/benefits.git", ".")
	return r
}

// git runs git in the agent's clone with the agent's token and identity.
func (r *gateRig) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "http.extraHeader=Authorization: Bearer sandbox-agent-bot"}, args...)...)
	cmd.Dir = r.work
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// openPR opens the agent's pull request of branch into dev for Story #3.
func (r *gateRig) openPR(branch, title string) int {
	r.t.Helper()
	opened, _, err := r.agent.PullRequests.Create(context.Background(), "acme", "benefits", &github.NewPullRequest{
		Title: github.String(title), Head: github.String(branch), Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil {
		r.t.Fatal(err)
	}
	return opened.GetNumber()
}

// completedRun waits up to 90 s for the gate's completed
// pull_request_target run for head.
func (r *gateRig) completedRun(head string) *github.WorkflowRun {
	r.t.Helper()
	for deadline := time.Now().Add(e2eWait); time.Now().Before(deadline); time.Sleep(time.Second) {
		runs, _, err := r.person.Actions.ListWorkflowRunsByFileName(context.Background(), "acme", "benefits", sandbox.GateFile, &github.ListWorkflowRunsOptions{Event: "pull_request_target"})
		if err != nil {
			r.t.Fatal(err)
		}
		for _, run := range runs.WorkflowRuns {
			if len(run.PullRequests) == 1 && run.PullRequests[0].GetHead().GetSHA() == head && run.GetStatus() == "completed" {
				return run
			}
		}
	}
	r.t.Fatalf("no completed pull_request_target run for %s within 90 s\n%s", head, r.logs.String())
	return nil
}

// jobConclusions are the run's check runs (its jobs) by name.
func (r *gateRig) jobConclusions(run *github.WorkflowRun) string {
	r.t.Helper()
	checks, _, err := r.person.Checks.ListCheckRunsForRef(context.Background(), "acme", "benefits", run.GetHeadSHA(), &github.ListCheckRunsOptions{Filter: github.String("all")})
	if err != nil {
		r.t.Fatal(err)
	}
	concluded := map[string]string{}
	for _, c := range checks.CheckRuns {
		if c.GetCheckSuite().GetID() == run.GetCheckSuiteID() {
			concluded[c.GetName()] = c.GetConclusion()
		}
	}
	return fmt.Sprint(concluded)
}
