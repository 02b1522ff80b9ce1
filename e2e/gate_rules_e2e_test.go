package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// An agent that holds a write token tries, with real clients (git over
// the sandbox's smart HTTP, go-github for REST), to get around the merge
// gate and the ledger; the sandbox enforces the rulesets aayu init offers
// as GitHub enforces them.

// gitAs runs the real git in dir as the holder of token; it returns the
// combined output and the error.
func gitAs(t *testing.T, dir, token string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "http.extraHeader=Authorization: Bearer " + token}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=agent@example.com",
		"GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=agent@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// mustGit is gitAs that fails the test when git does.
func mustGit(t *testing.T, dir, token string, args ...string) string {
	t.Helper()
	out, err := gitAs(t, dir, token, args...)
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(out)
}

// cloneAs clones acme/benefits from the sandbox at base as token's holder.
func cloneAs(t *testing.T, base, token string) string {
	t.Helper()
	dir := t.TempDir()
	mustGit(t, dir, token, "clone", "-q", base+"/acme/benefits.git", ".")
	return dir
}

func ghAs(t *testing.T, base, token string) *github.Client {
	t.Helper()
	c := github.NewClient(nil).WithAuthToken(token)
	u, err := url.Parse(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	c.BaseURL = u
	return c
}

func ghMessage(err error) string {
	var e *github.ErrorResponse
	if errors.As(err, &e) {
		return e.Message
	}
	return ""
}

func ghStatus(err error) int {
	var e *github.ErrorResponse
	if errors.As(err, &e) && e.Response != nil {
		return e.Response.StatusCode
	}
	return 0
}

// TestAgentOwnMergeGateStatusDoesNotMerge: PR 8's gate failed. The agent's
// token posts success for aayudha/merge-gate on its head; the merge is
// still refused with GitHub's 405 naming the check, the pull request
// stays blocked, and the agent cannot push the head (or a commit it gave
// its own success status) to dev. The gate's own run (a job's
// GITHUB_TOKEN, GitHub Actions) posting success is what lets it merge.
func TestAgentOwnMergeGateStatusDoesNotMerge(t *testing.T) {
	t.Parallel()
	srv, base := startSandboxServer(t)
	ctx := context.Background()
	agent := ghAs(t, base, "sandbox-agent-bot")
	head := srv.HeadSHA(sandbox.DemoPRStopped)
	if _, _, err := agent.Repositories.CreateStatus(ctx, "acme", "benefits", head, &github.RepoStatus{
		State: github.String("success"), Context: github.String(sandbox.GateCheck), Description: github.String("trust me")}); err != nil {
		t.Fatalf("the agent's status (GitHub lets anyone with push access post one): %v", err)
	}
	_, _, err := agent.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRStopped, "", &github.PullRequestOptions{MergeMethod: "squash"})
	if ghStatus(err) != http.StatusMethodNotAllowed || !strings.Contains(ghMessage(err), "Repository rule violations found") ||
		!strings.Contains(ghMessage(err), `Required status check "aayudha/merge-gate" is expected.`) {
		t.Fatalf("merging PR 8 on the agent's own status: %v, want 405 naming the required check", err)
	}
	pr, _, err := agent.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRStopped)
	if err != nil || pr.GetMerged() || pr.GetMergeableState() != "blocked" {
		t.Fatalf("PR 8 after the refusal: merged %v, mergeable_state %q (%v), want unmerged and blocked", pr.GetMerged(), pr.GetMergeableState(), err)
	}

	dev := srv.BranchSHA("dev")
	work := cloneAs(t, base, "sandbox-agent-bot")
	mustGit(t, work, "sandbox-agent-bot", "fetch", "-q", "origin", "refs/heads/"+pr.GetHead().GetRef())
	out, err := gitAs(t, work, "sandbox-agent-bot", "push", "--force", "origin", head+":refs/heads/dev")
	if err == nil || !strings.Contains(out, "GH013: Repository rule violations found for refs/heads/dev") ||
		!strings.Contains(out, `Required status check "aayudha/merge-gate" is expected.`) {
		t.Fatalf("pushing PR 8's head to dev: %v\n%s", err, out)
	}
	// A fast-forward of dev carrying the agent's own success status is
	// refused for the same reason, and only that one.
	mustGit(t, work, "sandbox-agent-bot", "checkout", "-q", "-b", "sneak", "origin/dev")
	if err := os.WriteFile(filepath.Join(work, "SNEAK.md"), []byte("around the gate\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, work, "sandbox-agent-bot", "add", "SNEAK.md")
	mustGit(t, work, "sandbox-agent-bot", "commit", "-q", "-m", "Around the gate")
	sneak := mustGit(t, work, "sandbox-agent-bot", "rev-parse", "HEAD")
	mustGit(t, work, "sandbox-agent-bot", "push", "-q", "origin", "sneak")
	if _, _, err := agent.Repositories.CreateStatus(ctx, "acme", "benefits", sneak, &github.RepoStatus{
		State: github.String("success"), Context: github.String(sandbox.GateCheck)}); err != nil {
		t.Fatal(err)
	}
	out, err = gitAs(t, work, "sandbox-agent-bot", "push", "origin", "sneak:dev")
	if err == nil || !strings.Contains(out, `Required status check "aayudha/merge-gate" is expected.`) || strings.Contains(out, "force-push") {
		t.Fatalf("pushing a fast-forward of dev with the agent's own status: %v\n%s", err, out)
	}
	if got := srv.BranchSHA("dev"); got != dev {
		t.Fatalf("dev moved from %s to %s", dev, got)
	}

	// The gate's own run reporting success is what counts.
	tok, endJob := srv.WorkflowToken(srv.RunID(sandbox.RunUnverifiedPR), map[string]string{"statuses": "write"})
	defer endJob()
	if _, _, err := ghAs(t, base, tok).Repositories.CreateStatus(ctx, "acme", "benefits", head, &github.RepoStatus{
		State: github.String("success"), Context: github.String(sandbox.GateCheck)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := agent.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRStopped, "", &github.PullRequestOptions{MergeMethod: "squash"}); err != nil {
		t.Errorf("with GitHub Actions' success the merge is still refused: %v", err)
	}
}

// TestAgentCannotForcePushOrDeleteLedger: the agent's token may append to
// the ledger (a fast-forward, as aayu's own writes are) but its
// force-push and its deletion of the ledger are refused, by git and by
// the Git Data API, in GitHub's words; the ledger keeps its history.
func TestAgentCannotForcePushOrDeleteLedger(t *testing.T) {
	t.Parallel()
	srv, base := startSandboxServer(t)
	ctx := context.Background()
	work := cloneAs(t, base, "sandbox-agent-bot")
	mustGit(t, work, "sandbox-agent-bot", "checkout", "-q", "-b", "ledger", "origin/ledger")
	if err := os.WriteFile(filepath.Join(work, "note.md"), []byte("an append\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, work, "sandbox-agent-bot", "add", "note.md")
	mustGit(t, work, "sandbox-agent-bot", "commit", "-q", "-m", "ledger: an append")
	mustGit(t, work, "sandbox-agent-bot", "push", "-q", "origin", "ledger")
	kept := srv.BranchSHA("ledger")

	// Rewrite history: drop the audit record and force the result.
	mustGit(t, work, "sandbox-agent-bot", "rm", "-q", "autonomy/audit/15.json")
	mustGit(t, work, "sandbox-agent-bot", "commit", "-q", "--amend", "-m", "ledger: tidy")
	out, err := gitAs(t, work, "sandbox-agent-bot", "push", "--force", "origin", "ledger")
	if err == nil || !strings.Contains(out, "GH013: Repository rule violations found for refs/heads/ledger") || !strings.Contains(out, "Cannot force-push to this branch") {
		t.Fatalf("the agent's force-push of the ledger: %v\n%s", err, out)
	}
	out, err = gitAs(t, work, "sandbox-agent-bot", "push", "origin", ":ledger")
	if err == nil || !strings.Contains(out, "Cannot delete this branch") {
		t.Fatalf("the agent's deletion of the ledger: %v\n%s", err, out)
	}

	agent := ghAs(t, base, "sandbox-agent-bot")
	first, _, err := agent.Git.GetCommit(ctx, "acme", "benefits", kept)
	if err != nil || len(first.Parents) == 0 {
		t.Fatalf("the ledger's tip: %v", err)
	}
	_, _, err = agent.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/ledger"),
		Object: &github.GitObject{SHA: first.Parents[0].SHA}}, true)
	if ghStatus(err) != http.StatusUnprocessableEntity || !strings.Contains(ghMessage(err), "Cannot force-push to this branch") {
		t.Errorf("a forced update-ref of the ledger: %v", err)
	}
	if _, err := agent.Git.DeleteRef(ctx, "acme", "benefits", "heads/ledger"); ghStatus(err) != http.StatusUnprocessableEntity || !strings.Contains(ghMessage(err), "Cannot delete this branch") {
		t.Errorf("deleting the ledger through the API: %v", err)
	}
	if got := srv.BranchSHA("ledger"); got != kept {
		t.Fatalf("the ledger moved from %s to %s", kept, got)
	}
	if _, _, _, err := agent.Repositories.GetContents(ctx, "acme", "benefits", "autonomy/audit/15.json", &github.RepositoryContentGetOptions{Ref: "ledger"}); err != nil {
		t.Errorf("the audit record is gone: %v", err)
	}
}

// TestAgentCannotPushAWorkflowFile: the agent bot's App holds no
// workflows permission, so its push of a new .github/workflows/x.yml is
// refused in GitHub's words and the branch is not created; the writer's
// token (no workflow scope) is refused too, and the founder's goes
// through.
func TestAgentCannotPushAWorkflowFile(t *testing.T) {
	t.Parallel()
	srv, base := startSandboxServer(t)
	work := cloneAs(t, base, "sandbox-agent-bot")
	mustGit(t, work, "sandbox-agent-bot", "checkout", "-q", "-b", "story/3-ci", "origin/dev")
	if err := os.WriteFile(filepath.Join(work, ".github", "workflows", "x.yml"), []byte("on: pull_request_target\njobs: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, work, "sandbox-agent-bot", "add", ".github/workflows/x.yml")
	mustGit(t, work, "sandbox-agent-bot", "commit", "-q", "-m", "A workflow of my own")
	out, err := gitAs(t, work, "sandbox-agent-bot", "push", "origin", "story/3-ci")
	if err == nil || !strings.Contains(out, "refusing to allow a GitHub App to create or update workflow `.github/workflows/x.yml` without `workflows` permission") {
		t.Fatalf("the agent's push of a workflow file: %v\n%s", err, out)
	}
	if sha := srv.BranchSHA("story/3-ci"); sha != "" {
		t.Fatalf("the branch was created at %s", sha)
	}
	out, err = gitAs(t, work, "sandbox-writer", "push", "origin", "story/3-ci")
	if err == nil || !strings.Contains(out, "refusing to allow an OAuth App to create or update workflow `.github/workflows/x.yml` without `workflow` scope") {
		t.Fatalf("the writer's push of a workflow file: %v\n%s", err, out)
	}
	mustGit(t, work, "sandbox-founder", "push", "-q", "origin", "story/3-ci")
	if srv.BranchSHA("story/3-ci") == "" {
		t.Fatal("the founder's push (workflow scope) did not land")
	}
}

// postJSON sends one REST request with token and returns the status and
// the decoded body.
func postJSON(t *testing.T, base, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, base+path, strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestCheckRunsByAnAppNotByAPerson: the agent's App posts a failing "unit
// tests" check run on PR 4's head, as a CI App would, and it shows under
// that App; the founder's token is answered as GitHub answers a person
// ("You must authenticate via a GitHub App.").
func TestCheckRunsByAnAppNotByAPerson(t *testing.T) {
	t.Parallel()
	srv, base := startSandboxServer(t)
	head := srv.HeadSHA(sandbox.DemoPRReady)
	run := map[string]any{"name": "unit tests", "head_sha": head, "status": "completed", "conclusion": "failure"}
	status, body := postJSON(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/check-runs", run)
	if status != http.StatusForbidden || body["message"] != "You must authenticate via a GitHub App." {
		t.Errorf("a person's check run: %d %v", status, body)
	}
	status, body = postJSON(t, base, "sandbox-agent-bot", "POST", "/repos/acme/benefits/check-runs", run)
	app, _ := body["app"].(map[string]any)
	if status != http.StatusCreated || body["conclusion"] != "failure" || app["slug"] != sandbox.BotAppSlug {
		t.Fatalf("the agent App's check run: %d %v", status, body)
	}
	runs, _, err := ghAs(t, base, "sandbox-reader").Checks.ListCheckRunsForRef(context.Background(), "acme", "benefits", head,
		&github.ListCheckRunsOptions{CheckName: github.String("unit tests")})
	if err != nil || runs.GetTotal() != 1 || runs.CheckRuns[0].GetApp().GetSlug() != sandbox.BotAppSlug {
		t.Errorf("the check run on PR 4's head: %v %+v", err, runs)
	}
}

// TestMergeableStateBlockedWhileTheGateFails: PR 8, whose gate failed, is
// blocked; PR 4, whose gate run reported success, is clean.
func TestMergeableStateBlockedWhileTheGateFails(t *testing.T) {
	t.Parallel()
	_, base := startSandboxServer(t)
	gh := ghAs(t, base, "sandbox-reader")
	for n, want := range map[int]string{sandbox.DemoPRStopped: "blocked", sandbox.DemoPRReady: "clean"} {
		pr, _, err := gh.PullRequests.Get(context.Background(), "acme", "benefits", n)
		if err != nil || pr.GetMergeableState() != want {
			t.Errorf("PR %d: mergeable_state %q (%v), want %s", n, pr.GetMergeableState(), err, want)
		}
	}
}

// TestAttestationsOfAnUnattestedDigestAre404: GitHub answers 404 for a
// digest nothing attests; aayu reads it as "not attested", no error.
func TestAttestationsOfAnUnattestedDigestAre404(t *testing.T) {
	t.Parallel()
	_, base := startSandboxServer(t)
	sum := sha256.Sum256([]byte("a pack nothing attested"))
	digest := hex.EncodeToString(sum[:])
	status, _ := postJSON(t, base, "sandbox-reader", "GET", fmt.Sprintf("/repos/acme/benefits/attestations/sha256:%s", digest), nil)
	if status != http.StatusNotFound {
		t.Fatalf("attestations of an unattested digest: %d, want 404", status)
	}
	bundles, err := ghx.ListAttestations(context.Background(), ghAs(t, base, "sandbox-reader"), "acme", "benefits", digest)
	if err != nil || len(bundles) != 0 {
		t.Errorf("aayu's read of it: %d bundles, %v; want none and no error", len(bundles), err)
	}
}
