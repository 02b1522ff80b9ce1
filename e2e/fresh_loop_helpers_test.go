package e2e

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gogit "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// Shared set-up for the fresh-repository Bug loop (the Story loop is the
// README's walkthrough, which TestReadmeFirstStory runs as written): one sandbox GitHub with its Actions runner, serving
// acme/fresh, which aayu reaches as it reaches GitHub (--api-url), the
// person by their token and the presence check, an agent by its own token,
// git over the sandbox's smart HTTP and the REST API.

// freshLoop is one sandbox with a runner and the person's aayu home.
type freshLoop struct {
	t    *testing.T
	srv  *sandbox.Server
	base string // the sandbox's URL, no trailing slash
	home string // the person's HOME
	logs *lockedBuffer
	// trustedRoot is the sandbox's Sigstore root (trusted_root.json), which
	// the person's aayu is told of as a person would point it at their
	// GitHub Enterprise's: init sets require_attestation, so ship checks
	// the gate's attestation against it.
	trustedRoot string
}

// startFreshLoop builds aayu (the runner runs the gate's aayu steps with
// it) and starts a sandbox whose runner runs every new pull request head.
func startFreshLoop(t *testing.T) *freshLoop {
	t.Helper()
	if testing.Short() {
		t.Skip("builds aayu and runs the merge gate's go test")
	}
	dir := t.TempDir()
	srv, base, logs := runnerSandbox(t, sandbox.Options{StateDir: filepath.Join(dir, "state"), Device: &sandbox.DeviceOptions{Interval: 0, Expiry: 5 * time.Minute}})
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	f := &freshLoop{t: t, srv: srv, base: base, home: home, logs: logs, trustedRoot: filepath.Join(dir, "state", sandbox.TrustedRootFile)}
	trustSandboxSigstore(t, home, f.trustedRoot)
	return f
}

// args puts the sandbox and acme/fresh in front of a command line, as a
// person pointing aayu at their GitHub would.
func (f *freshLoop) args(args ...string) []string {
	return append([]string{"--api-url", f.base + "/", "--oauth-url", f.base, "--repo", "acme/fresh", "--plain"}, args...)
}

// person is the founder's environment: their token, no agent marker.
func (f *freshLoop) person() map[string]string {
	return map[string]string{"HOME": f.home, "AAYU_GITHUB_TOKEN": "sandbox-founder"}
}

// aayu runs one command to its end with no terminal and stdin as given.
func (f *freshLoop) aayu(vars map[string]string, stdin string, args ...string) (int, string) {
	f.t.Helper()
	return runAs(vars, stdin, f.args(args...)...)
}

// personWithPresence runs a person's write command with no terminal: the
// presence check's device code, when it comes, is approved on the
// sandbox's device page as founder, and the question, when it comes, is
// answered y.
func (f *freshLoop) personWithPresence(args ...string) (int, string) {
	f.t.Helper()
	a := startAayu(f.t, f.person(), f.args(args...)...)
	if m := a.waitFor(deviceCodeLine + `|result: exit \d`); m[1] != "" {
		approveOnSandbox(f.t, m[1], m[2], "founder")
	}
	if m := a.waitFor(`(Type y\b)|result: exit \d`); m[1] != "" {
		a.send("y")
	}
	a.waitFor(`result: exit \d`)
	return a.exit(), a.out.String()
}

// client is a REST client acting as a sandbox account (founder, agent-bot).
func (f *freshLoop) client(key string) *github.Client {
	c := github.NewClient(nil).WithAuthToken(sandbox.TokenPrefix + key)
	c.BaseURL, _ = url.Parse(f.base + "/")
	return c
}

// merge squash-merges a pull request as the founder, as a person does on
// GitHub (the ruleset's admin bypass lets the set-up through before the
// gate it adds has ever run).
func (f *freshLoop) merge(pr int) {
	f.t.Helper()
	if _, _, err := f.client("founder").PullRequests.Merge(context.Background(), "acme", "fresh", pr, "", &github.PullRequestOptions{MergeMethod: "squash"}); err != nil {
		f.t.Fatalf("merging #%d: %v", pr, err)
	}
}

// newIssue opens an issue as the founder.
func (f *freshLoop) newIssue(title, body string, labels ...string) int {
	f.t.Helper()
	is, _, err := f.client("founder").Issues.Create(context.Background(), "acme", "fresh", &github.IssueRequest{Title: &title, Body: &body, Labels: &labels})
	if err != nil {
		f.t.Fatal(err)
	}
	return is.GetNumber()
}

// agentCheckout is an agent's clone of acme/fresh, made with go-git over
// the sandbox's smart HTTP with the agent bot's token.
type agentCheckout struct {
	f    *freshLoop
	dir  string
	repo *gogit.Repository
	auth *githttp.BasicAuth
}

// agentClone clones acme/fresh's default branch into a fresh folder.
func (f *freshLoop) agentClone() *agentCheckout {
	f.t.Helper()
	dir := f.t.TempDir()
	auth := &githttp.BasicAuth{Username: "x-access-token", Password: "sandbox-agent-bot"}
	repo, err := gogit.PlainClone(dir, false, &gogit.CloneOptions{URL: f.base + "/acme/fresh.git", Auth: auth})
	if err != nil {
		f.t.Fatalf("cloning acme/fresh over smart HTTP: %v", err)
	}
	return &agentCheckout{f: f, dir: dir, repo: repo, auth: auth}
}

// commit writes files (path → content) on a new branch from the checked-out
// head and commits them as the agent; it returns the commit's SHA.
func (a *agentCheckout) commit(branch, msg string, files map[string]string) string {
	a.f.t.Helper()
	wt, err := a.repo.Worktree()
	if err != nil {
		a.f.t.Fatal(err)
	}
	if err := wt.Checkout(&gogit.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: true}); err != nil && !strings.Contains(err.Error(), "already exists") {
		a.f.t.Fatal(err)
	}
	for p, body := range files {
		full := filepath.Join(a.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			a.f.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			a.f.t.Fatal(err)
		}
		if _, err := wt.Add(p); err != nil {
			a.f.t.Fatal(err)
		}
	}
	h, err := wt.Commit(msg, &gogit.CommitOptions{Author: &object.Signature{Name: "aayudha agent", Email: "agent@example.com", When: time.Now()}})
	if err != nil {
		a.f.t.Fatal(err)
	}
	return h.String()
}

// push pushes the branch to acme/fresh over smart HTTP.
func (a *agentCheckout) push(branch string) {
	a.f.t.Helper()
	spec := gitconfig.RefSpec("refs/heads/" + branch + ":refs/heads/" + branch)
	if err := a.repo.Push(&gogit.PushOptions{RefSpecs: []gitconfig.RefSpec{spec}, Auth: a.auth}); err != nil {
		a.f.t.Fatalf("pushing %s: %v", branch, err)
	}
}

// openPR opens a pull request as the agent bot through the REST API.
func (f *freshLoop) openPR(head, base, title, body string) int {
	f.t.Helper()
	pr, _, err := f.client("agent-bot").PullRequests.Create(context.Background(), "acme", "fresh", &github.NewPullRequest{
		Title: &title, Head: &head, Base: &base, Body: &body})
	if err != nil {
		f.t.Fatal(err)
	}
	return pr.GetNumber()
}

// waitForGate waits (up to three minutes: the gate runs go test twice)
// for the merge gate's pull_request_target run on head to complete, and
// returns it.
func (f *freshLoop) waitForGate(head string) *github.WorkflowRun {
	f.t.Helper()
	gh := f.client("founder")
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		runs, _, err := gh.Actions.ListWorkflowRunsByFileName(context.Background(), "acme", "fresh", sandbox.GateFile, &github.ListWorkflowRunsOptions{Event: "pull_request_target"})
		if err != nil {
			f.t.Fatal(err)
		}
		for _, r := range runs.WorkflowRuns {
			if len(r.PullRequests) == 1 && r.PullRequests[0].GetHead().GetSHA() == head && r.GetStatus() == "completed" {
				return r
			}
		}
	}
	f.t.Fatalf("no completed merge-gate run for %s within three minutes:\n%s", head, f.logs.String())
	return nil
}

// gateComment is the body of github-actions[bot]'s comment on a pull request.
func (f *freshLoop) gateComment(pr int) string {
	f.t.Helper()
	list, _, err := f.client("founder").Issues.ListComments(context.Background(), "acme", "fresh", pr, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range list {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			return c.GetBody()
		}
	}
	return ""
}

// ledgerFile reads a file of the ledger branch ("" when absent).
func (f *freshLoop) ledgerFile(p string) string {
	f.t.Helper()
	fc, _, _, err := f.client("founder").Repositories.GetContents(context.Background(), "acme", "fresh", p, &github.RepositoryContentGetOptions{Ref: "ledger"})
	if err != nil || fc == nil {
		return ""
	}
	s, _ := fc.GetContent()
	return s
}

// labels lists an issue's labels.
func (f *freshLoop) labels(n int) []string {
	f.t.Helper()
	is, _, err := f.client("founder").Issues.Get(context.Background(), "acme", "fresh", n)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, l := range is.Labels {
		out = append(out, l.GetName())
	}
	return out
}

// setUp runs what a person does once on a new repository: aayu init --yes
// (the set-up pull request, #1), the presence check's client ID, and the
// merge of the set-up pull request after reading it.
func (f *freshLoop) setUp() {
	f.t.Helper()
	if code, out := f.aayu(f.person(), "", "init", "--yes"); code != tui.ExitOK || !strings.Contains(out, "opened pull request #1") {
		f.t.Fatalf("aayu init --yes exited %d:\n%s", code, out)
	}
	if code, out := f.personWithPresence("init", "--identity", "--client-id", sandbox.DeviceClientID); code != tui.ExitOK {
		f.t.Fatalf("aayu init --identity --client-id exited %d:\n%s", code, out)
	}
	f.merge(1)
}

// trustSandboxSigstore puts the sandbox's Sigstore root where
// `aayu sandbox` keeps it, in the person's cache (HOME/.cache/aayu/sandbox),
// and sets nothing: aayu finds the root of a sandbox on this machine by
// itself, as the README's walkthrough says.
func trustSandboxSigstore(t *testing.T, home, trustedRoot string) {
	t.Helper()
	b, err := os.ReadFile(trustedRoot)
	if err != nil {
		t.Fatalf("the sandbox wrote no Sigstore root: %v", err)
	}
	dir := filepath.Join(home, ".cache", "aayu", "sandbox")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, sandbox.TrustedRootFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
