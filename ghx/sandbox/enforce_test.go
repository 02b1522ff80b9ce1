package sandbox_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func errMessage(err error) string {
	if e, ok := err.(*github.ErrorResponse); ok {
		return e.Message
	}
	return ""
}

// TestMergeRefusedByRulesetWhenRequiredCheckFails: a writer's merge of a
// pull request whose required check is red (the gate's run, GitHub
// Actions, reported failure) gets GitHub's 405 naming the rule; the
// ruleset's bypass actor (the admin role) merges it.
func TestMergeRefusedByRulesetWhenRequiredCheckFails(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	writer := client(t, base, "sandbox-writer")
	head := s.HeadSHA(sandbox.DemoPRReady)
	tok, endJob := s.WorkflowToken(s.RunID(sandbox.RunQualifying), map[string]string{"statuses": "write"})
	defer endJob()
	if _, _, err := client(t, base, tok).Repositories.CreateStatus(ctx, "acme", "benefits", head, &github.RepoStatus{
		State: github.String("failure"), Context: github.String(sandbox.GateCheck)}); err != nil {
		t.Fatal(err)
	}
	opts := &github.PullRequestOptions{MergeMethod: "squash", SHA: head}
	_, _, err := writer.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", opts)
	if statusOf(err) != http.StatusMethodNotAllowed || !strings.HasPrefix(errMessage(err), "Repository rule violations found") ||
		!strings.Contains(errMessage(err), `Required status check "aayudha/merge-gate" is failing.`) {
		t.Fatalf("a merge past a failing required check: %v, want 405 naming the rule", err)
	}
	if _, _, err := client(t, base, "sandbox-founder").PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", opts); err != nil {
		t.Errorf("the admin role bypasses the ruleset, yet: %v", err)
	}
}

// TestMergeMethodsFollowTheRepositorySettings: a method the settings turn
// off is GitHub's 405; an admin turns merge commits on and squash off.
func TestMergeMethodsFollowTheRepositorySettings(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	founder := client(t, base, "sandbox-founder")
	repo, _, err := founder.Repositories.Get(ctx, "acme", "benefits")
	if err != nil || !repo.GetAllowSquashMerge() || repo.GetAllowMergeCommit() || repo.GetAllowRebaseMerge() {
		t.Fatalf("the demo's settings: %v %v", repo, err)
	}
	_, _, err = founder.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", &github.PullRequestOptions{MergeMethod: "merge"})
	if statusOf(err) != http.StatusMethodNotAllowed || errMessage(err) != "Merge commits are not allowed on this repository." {
		t.Errorf("a merge commit: %v", err)
	}
	if _, _, err := client(t, base, "sandbox-writer").Repositories.Edit(ctx, "acme", "benefits", &github.Repository{AllowMergeCommit: github.Bool(true)}); statusOf(err) != http.StatusForbidden {
		t.Errorf("a writer changed the merge settings: %v", err)
	}
	if _, _, err := founder.Repositories.Edit(ctx, "acme", "benefits", &github.Repository{AllowMergeCommit: github.Bool(true), AllowSquashMerge: github.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	_, _, err = founder.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", &github.PullRequestOptions{MergeMethod: "squash"})
	if statusOf(err) != http.StatusMethodNotAllowed || errMessage(err) != "Squash merges are not allowed on this repository." {
		t.Errorf("a squash merge with squash off: %v", err)
	}
	head := s.HeadSHA(sandbox.DemoPRReady)
	res, _, err := founder.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", &github.PullRequestOptions{MergeMethod: "merge"})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := founder.Git.GetCommit(ctx, "acme", "benefits", res.GetSHA())
	if err != nil || len(c.Parents) != 2 || c.Parents[1].GetSHA() != head || !strings.HasPrefix(c.GetMessage(), "Merge pull request #4 from acme/") {
		t.Errorf("the merge commit: %v %v", c, err)
	}
}

// TestBranchAndRetitle: GET branches/{branch} shows the ruleset's checks;
// the agent retitles its own pull request with PATCH pulls/{number}.
func TestBranchAndRetitle(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	agent := client(t, base, "sandbox-agent-bot")
	b, _, err := agent.Repositories.GetBranch(ctx, "acme", "benefits", "dev", 0)
	if err != nil || !b.GetProtected() || b.GetCommit().GetSHA() == "" {
		t.Fatalf("dev: %v %v", b, err)
	}
	if got := b.GetProtection().GetRequiredStatusChecks().GetContexts(); len(got) != 1 || got[0] != sandbox.GateCheck {
		t.Errorf("dev's required checks: %v", got)
	}
	if _, _, err := agent.Repositories.GetBranch(ctx, "acme", "benefits", "no-such-branch", 0); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("an unknown branch: %v", err)
	}
	pr, _, err := agent.PullRequests.Edit(ctx, "acme", "benefits", sandbox.DemoPRReady, &github.PullRequest{Title: github.String("A better title")})
	if err != nil || pr.GetTitle() != "A better title" {
		t.Fatalf("retitling: %v %v", pr, err)
	}
	if _, _, err := client(t, base, "sandbox-reader").PullRequests.Edit(ctx, "acme", "benefits", sandbox.DemoPRReady, &github.PullRequest{Title: github.String("x")}); statusOf(err) != http.StatusForbidden {
		t.Errorf("a reader retitled: %v", err)
	}
}

// TestPushOfMainRefusedByRuleset: the agent's push of main is declined
// with git's rule-violation words as GitHub sends them; the admin role
// bypasses; a ref update through the API is refused the same way.
func TestPushOfMainRefusedByRuleset(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()})
	work := t.TempDir()
	auth := func(tok string) string { return "http.extraHeader=Authorization: Bearer " + tok }
	if out, err := gitIn(t, work, "-c", auth("sandbox-agent-bot"), "clone", base+"/acme/benefits.git", "repo"); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	repo := filepath.Join(work, "repo")
	if err := os.WriteFile(filepath.Join(repo, "NOTE.md"), []byte("straight onto main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "NOTE.md"}, {"commit", "-m", "Skip the gate"}} {
		if out, err := gitIn(t, repo, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	before := s.BranchSHA("main")
	out, err := gitIn(t, repo, "-c", auth("sandbox-agent-bot"), "push", "origin", "HEAD:main")
	if err == nil || !strings.Contains(out, "remote: error: GH013: Repository rule violations found for refs/heads/main.") ||
		!strings.Contains(out, `Required status check "aayudha/merge-gate" is expected.`) ||
		!strings.Contains(out, "[remote rejected] HEAD -> main (push declined due to repository rule violations)") {
		t.Fatalf("the agent's push of main: %v\n%s", err, out)
	}
	if s.BranchSHA("main") != before {
		t.Fatal("the declined push moved main")
	}
	ctx := context.Background()
	writer := client(t, base, "sandbox-writer")
	tip, _, err := writer.Git.GetCommit(ctx, "acme", "benefits", before)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := writer.Git.CreateCommit(ctx, "acme", "benefits", &github.Commit{Message: github.String("Skip the gate"), Tree: tip.Tree,
		Parents: []*github.Commit{{SHA: github.String(before)}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = writer.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/main"), Object: &github.GitObject{SHA: c.SHA}}, false)
	if statusOf(err) != http.StatusUnprocessableEntity || !strings.HasPrefix(errMessage(err), "Repository rule violations found") {
		t.Errorf("a writer's ref update of main: %v", err)
	}
	if out, err := gitIn(t, repo, "-c", auth("sandbox-founder"), "push", "origin", "HEAD:main"); err != nil {
		t.Errorf("the admin role's push (a bypass actor): %v\n%s", err, out)
	}
	if out, err := gitIn(t, repo, "-c", auth("sandbox-agent-bot"), "push", "origin", "HEAD:story/3-elsewhere"); err != nil {
		t.Errorf("a push of an unruled branch: %v\n%s", err, out)
	}
}

// TestRequiredCheckReadsCheckRuns: a required check is met or broken by a
// check run of its name as well as by a status; a skipped one is green.
func TestRequiredCheckReadsCheckRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		conclusion string
		refused    bool
	}{{"failure", true}, {"skipped", false}, {"neutral", false}} {
		s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
		head := s.HeadSHA(sandbox.DemoPRReady)
		if _, err := s.ReportCheckRun(head, sandbox.GateCheck, tc.conclusion); err != nil {
			t.Fatal(err)
		}
		_, _, err := client(t, base, "sandbox-writer").PullRequests.Merge(context.Background(), "acme", "benefits", sandbox.DemoPRReady, "",
			&github.PullRequestOptions{MergeMethod: "squash"})
		if refused := statusOf(err) == http.StatusMethodNotAllowed; refused != tc.refused {
			t.Errorf("a %s check run of the required check: merge %v, want refused=%v", tc.conclusion, err, tc.refused)
		}
	}
}
