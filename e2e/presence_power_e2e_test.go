package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
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

// TestAgentDeviceCodeWithRepoScopeCannotWrite is issue 30's swap: an agent
// starts a device code itself with the presence client ID the repository
// publishes, asks scope=repo, and gets the founder to approve it (say, by
// editing it into a batch comment). The presence client is a GitHub App
// with no permissions, so the token that code yields names the founder and
// does nothing else: go-github's writes answer 403 "Resource not accessible
// by integration", git's push is refused, and the repository is as it was.
func TestAgentDeviceCodeWithRepoScopeCannotWrite(t *testing.T) {
	t.Parallel()
	srv, base := startSandboxServer(t)
	ctx := context.Background()
	client := func(tok string) *github.Client {
		c := github.NewClient(nil).WithAuthToken(tok)
		c.BaseURL, _ = url.Parse(base + "/")
		return c
	}

	// The client ID is public: the agent reads it as aayu does.
	v, _, err := client("sandbox-agent-bot").Actions.GetRepoVariable(ctx, "acme", "benefits", "AAYUDHA_DEVICE_CLIENT_ID")
	if err != nil || v.Value != sandbox.DeviceClientID {
		t.Fatalf("reading the presence client ID: %v", err)
	}
	form := func(path string, vals url.Values) url.Values {
		t.Helper()
		resp, err := http.PostForm(base+path, vals)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		out, _ := url.ParseQuery(string(b))
		return out
	}
	code := form("/login/device/code", url.Values{"client_id": {v.Value}, "scope": {"repo workflow"}})
	if code.Get("user_code") == "" {
		t.Fatalf("the agent's device code was refused: %v", code.Get("error"))
	}
	approveOnSandbox(t, base+"/login/device", code.Get("user_code"), "founder")
	var tok string
	for i := 0; i < 50 && tok == ""; i++ {
		got := form("/login/oauth/access_token", url.Values{"client_id": {v.Value}, "device_code": {code.Get("device_code")},
			"grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}})
		tok = got.Get("access_token")
		if tok == "" {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if tok == "" {
		t.Fatal("the approved code gave no token")
	}
	agent := client(tok)

	me, _, err := agent.Users.Get(ctx, "")
	if err != nil || me.GetLogin() != "founder" {
		t.Fatalf("/user with the code's token: %v", err)
	}
	before, _, err := client("sandbox-founder").Issues.ListComments(ctx, "acme", "benefits", 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	refused := func(what string, err error) {
		t.Helper()
		var er *github.ErrorResponse
		if !errors.As(err, &er) || er.Response.StatusCode != http.StatusForbidden || er.Message != "Resource not accessible by integration" {
			t.Errorf("%s with the code's token: %v, want 403 Resource not accessible by integration", what, describeStatus(err))
		}
	}
	_, _, err = agent.Issues.CreateComment(ctx, "acme", "benefits", 4, &github.IssueComment{Body: github.String("/approve")})
	refused("a comment", err)
	_, _, err = agent.PullRequests.CreateReview(ctx, "acme", "benefits", 4, &github.PullRequestReviewRequest{Event: github.String("APPROVE")})
	refused("a review", err)
	_, _, err = agent.PullRequests.Merge(ctx, "acme", "benefits", 4, "", &github.PullRequestOptions{MergeMethod: "squash"})
	refused("a merge", err)
	_, err = agent.Actions.UpdateRepoVariable(ctx, "acme", "benefits", &github.ActionsVariable{Name: "AAYUDHA_DEVICE_CLIENT_ID", Value: "Ov23liAgentsOwn"})
	refused("changing the presence variable", err)
	_, _, err = agent.Repositories.CreateStatus(ctx, "acme", "benefits", strings.Repeat("a", 40), &github.RepoStatus{State: github.String("success"), Context: github.String("aayudha/merge-gate")})
	refused("a status", err)

	// git itself, with the token as git's bearer: clone works (the
	// repository is public), push does not.
	work := t.TempDir()
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-c", "http.extraHeader=Authorization: Bearer " + tok}, args...)...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		return strings.ReplaceAll(string(out), tok, "[token]"), err
	}
	if out, err := git("clone", "-q", base+"/acme/benefits.git", "."); err != nil {
		t.Fatalf("cloning the public repository: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(work, "agent.txt"), []byte("written with the founder's presence\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := git("add", "agent.txt"); err != nil {
		t.Fatal(out)
	}
	if out, err := git("commit", "-q", "-m", "agent"); err != nil {
		t.Fatal(out)
	}
	if out, err := git("push", "-q", "origin", "HEAD:refs/heads/agent-with-presence"); err == nil || !strings.Contains(out, "denied") {
		t.Errorf("git push with the code's token: %v\n%s", err, out)
	}

	after, _, err := client("sandbox-founder").Issues.ListComments(ctx, "acme", "benefits", 4, nil)
	if err != nil || len(after) != len(before) {
		t.Errorf("comments on #4: %d before, %d after (%v)", len(before), len(after), err)
	}
	if _, _, err := client("sandbox-founder").Git.GetRef(ctx, "acme", "benefits", "heads/agent-with-presence"); err == nil {
		t.Error("the push landed a branch")
	}
	v2, _, err := client("sandbox-founder").Actions.GetRepoVariable(ctx, "acme", "benefits", "AAYUDHA_DEVICE_CLIENT_ID")
	if err != nil || v2.Value != sandbox.DeviceClientID {
		t.Errorf("the presence variable changed under the attempt (%v)", err)
	}
	_ = srv
}

// describeStatus names an API error by its status and message only: the
// request it carries holds the token.
func describeStatus(err error) string {
	var er *github.ErrorResponse
	if errors.As(err, &er) {
		b, _ := json.Marshal(map[string]any{"status": er.Response.StatusCode, "message": er.Message})
		return string(b)
	}
	if err == nil {
		return "no error (the write went through)"
	}
	return "another error"
}

// TestPresenceCheckWithTheAppClientAsksNoScopeAndReadsOnlyUser: aayu's own
// presence check keeps working with the no-permission App client: it asks
// for a code with no scope, and the token it gets reads /user and nothing
// else (who approved is checked against the writing token, never this one).
func TestPresenceCheckWithTheAppClientAsksNoScopeAndReadsOnlyUser(t *testing.T) {
	t.Parallel()
	srv, base := startSandboxServer(t)
	vars := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	a := startAayu(t, vars, "--api-url", base+"/", "--oauth-url", base, "--repo", "acme/benefits", "--plain", "login")
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`Approved by @founder`)
	if code := a.exit(); code != 0 {
		t.Fatalf("login exited %d:\n%s", code, a.out.String())
	}
	used := srv.DeviceTokensUsed()
	if len(used) != 1 {
		t.Fatalf("%d device tokens were minted, want 1", len(used))
	}
	if u := used[0]; u.AskedScope != "" || len(u.Scopes) != 0 || strings.Join(u.Requests, ",") != "GET /user" {
		t.Errorf("the presence check's token: asked scope %q, granted %v, requests %v; want none, none, GET /user", u.AskedScope, u.Scopes, u.Requests)
	}
}
