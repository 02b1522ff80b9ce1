package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// rawCall sends one REST request with a token and returns the status and
// the body.
func rawCall(t *testing.T, base, token, method, path string, body any) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestRulesetsKeepGitHubsShape: the demo's rulesets come back as GitHub's
// REST ruleset JSON, the gate's check pinned by integration_id 15368 and
// the bypass list shown to the admin only; an admin creates, narrows and
// deletes one and rules/branches follows; a writer may not.
func TestRulesetsKeepGitHubsShape(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	status, body := rawCall(t, base, "sandbox-founder", "GET", "/repos/acme/benefits/rulesets", nil)
	if status != 200 || !strings.Contains(body, `"name":"aayudha merge gate"`) || !strings.Contains(body, `"name":"aayudha ledger"`) {
		t.Fatalf("list rulesets: %d %s", status, body)
	}
	status, body = rawCall(t, base, "sandbox-founder", "GET", fmt.Sprintf("/repos/acme/benefits/rulesets/%d", sandbox.RulesetID), nil)
	for _, want := range []string{`{"context":"aayudha/merge-gate","integration_id":15368}`, `"type":"non_fast_forward"`, `"type":"deletion"`,
		`"include":["refs/heads/dev","refs/heads/main"]`, `"bypass_actors":[{"actor_id":5,"actor_type":"RepositoryRole","bypass_mode":"always"}]`} {
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("the gate's ruleset lacks %s: %d %s", want, status, body)
		}
	}
	if strings.Contains(body, `"type":"pull_request"`) {
		t.Errorf("the solo demo requires reviews: %s", body)
	}
	if _, body := rawCall(t, base, "sandbox-writer", "GET", fmt.Sprintf("/repos/acme/benefits/rulesets/%d", sandbox.LedgerRulesetID), nil); strings.Contains(body, "bypass_actors") ||
		!strings.Contains(body, `"current_user_can_bypass":"never"`) || !strings.Contains(body, `"include":["refs/heads/ledger"]`) {
		t.Errorf("the ledger's ruleset as a writer reads it: %s", body)
	}

	rs := map[string]any{"name": "release", "target": "branch", "enforcement": "active",
		"conditions": map[string]any{"ref_name": map[string]any{"include": []string{"refs/heads/release-*"}, "exclude": []string{}}},
		"rules": []any{map[string]any{"type": "required_status_checks", "parameters": map[string]any{
			"strict_required_status_checks_policy": false,
			"required_status_checks":               []any{map[string]any{"context": "lint", "integration_id": 9001}}}}}}
	if status, body := rawCall(t, base, "sandbox-writer", "POST", "/repos/acme/benefits/rulesets", rs); status != 403 {
		t.Errorf("a writer created a ruleset: %d %s", status, body)
	}
	status, body = rawCall(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/rulesets", rs)
	var created struct{ ID int64 }
	if status != 201 || json.Unmarshal([]byte(body), &created) != nil || created.ID == 0 {
		t.Fatalf("creating a ruleset: %d %s", status, body)
	}
	gh := client(t, base, "sandbox-reader")
	rules, _, err := gh.Repositories.GetRulesForBranch(context.Background(), "acme", "benefits", "release-1")
	if err != nil || len(rules) != 1 || !strings.Contains(string(*rules[0].Parameters), `"integration_id":9001`) || rules[0].RulesetID != created.ID {
		t.Fatalf("rules on release-1: %v %v", rules, err)
	}
	if status, body := rawCall(t, base, "sandbox-founder", "PUT", fmt.Sprintf("/repos/acme/benefits/rulesets/%d", created.ID), map[string]any{"enforcement": "evaluate"}); status != 200 || !strings.Contains(body, `"enforcement":"evaluate"`) {
		t.Fatalf("narrowing the ruleset: %d %s", status, body)
	}
	if rules, _, _ := gh.Repositories.GetRulesForBranch(context.Background(), "acme", "benefits", "release-1"); len(rules) != 0 {
		t.Errorf("an evaluate ruleset's rules are listed: %v", rules)
	}
	if status, _ := rawCall(t, base, "sandbox-founder", "DELETE", fmt.Sprintf("/repos/acme/benefits/rulesets/%d", created.ID), nil); status != 204 {
		t.Errorf("deleting the ruleset: %d", status)
	}
}

// TestRequiredCheckPinnedToActionsCountsOnlyActions: on PR 8, whose gate
// failed, the agent's own success status and its App's success check run
// of the gate's name leave the merge refused ("is expected"); the gate's
// run (a job's token, GitHub Actions) posting success lets it merge.
func TestRequiredCheckPinnedToActionsCountsOnlyActions(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	agent := client(t, base, "sandbox-agent-bot")
	head := s.HeadSHA(sandbox.DemoPRStopped)
	if _, _, err := agent.Repositories.CreateStatus(ctx, "acme", "benefits", head, &github.RepoStatus{
		State: github.String("success"), Context: github.String(sandbox.GateCheck)}); err != nil {
		t.Fatal(err)
	}
	if status, body := rawCall(t, base, "sandbox-agent-bot", "POST", "/repos/acme/benefits/check-runs", map[string]any{
		"name": sandbox.GateCheck, "head_sha": head, "status": "completed", "conclusion": "success"}); status != 201 {
		t.Fatalf("the agent's App's check run: %d %s", status, body)
	}
	pr, _, err := agent.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRStopped)
	if err != nil || pr.GetMergeableState() != "blocked" {
		t.Errorf("PR 8's mergeable_state: %q %v, want blocked", pr.GetMergeableState(), err)
	}
	_, _, err = agent.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRStopped, "", &github.PullRequestOptions{MergeMethod: "squash"})
	if statusOf(err) != http.StatusMethodNotAllowed || !strings.Contains(errMessage(err), `Required status check "aayudha/merge-gate" is expected.`) {
		t.Fatalf("a merge on the agent's own status: %v, want 405 naming the check", err)
	}
	tok, endJob := s.WorkflowToken(s.RunID(sandbox.RunUnverifiedPR), map[string]string{"statuses": "write"})
	defer endJob()
	if _, _, err := client(t, base, tok).Repositories.CreateStatus(ctx, "acme", "benefits", head, &github.RepoStatus{
		State: github.String("success"), Context: github.String(sandbox.GateCheck)}); err != nil {
		t.Fatal(err)
	}
	if pr, _, _ := agent.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRStopped); pr.GetMergeableState() != "clean" {
		t.Errorf("with the gate's own status PR 8 is %q, want clean", pr.GetMergeableState())
	}
	if _, _, err := agent.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRStopped, "", &github.PullRequestOptions{MergeMethod: "squash"}); err != nil {
		t.Errorf("the gate's own status did not let it merge: %v", err)
	}
}

// newCommitOn writes, through the Git Data API as token, a commit on
// parent adding path, and returns its sha.
func newCommitOn(t *testing.T, base, token, parent, path string) string {
	t.Helper()
	status, body := rawCall(t, base, token, "GET", "/repos/acme/benefits/git/commits/"+parent, nil)
	var pc struct{ Tree struct{ SHA string } }
	if status != 200 || json.Unmarshal([]byte(body), &pc) != nil {
		t.Fatalf("reading %s: %d %s", parent, status, body)
	}
	status, body = rawCall(t, base, token, "POST", "/repos/acme/benefits/git/trees", map[string]any{"base_tree": pc.Tree.SHA,
		"tree": []any{map[string]any{"path": path, "mode": "100644", "type": "blob", "content": "on: push\n"}}})
	var tree struct{ SHA string }
	if status != 201 || json.Unmarshal([]byte(body), &tree) != nil {
		t.Fatalf("a tree with %s: %d %s", path, status, body)
	}
	status, body = rawCall(t, base, token, "POST", "/repos/acme/benefits/git/commits", map[string]any{"message": "add " + path, "tree": tree.SHA, "parents": []string{parent}})
	var c struct{ SHA string }
	if status != 201 || json.Unmarshal([]byte(body), &c) != nil {
		t.Fatalf("a commit: %d %s", status, body)
	}
	return c.SHA
}

// TestWorkflowFileNeedsTheWorkflowGrant: a ref write whose new commit adds
// .github/workflows/x.yml is refused for the agent's App (no workflows
// permission) and the writer's token (no workflow scope), each in
// GitHub's words, and goes through for the founder's token; a commit
// adding any other file goes through for the agent.
func TestWorkflowFileNeedsTheWorkflowGrant(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	main := s.BranchSHA("main")
	for _, tc := range []struct{ token, want string }{
		{"sandbox-agent-bot", "refusing to allow a GitHub App to create or update workflow `.github/workflows/x.yml` without `workflows` permission"},
		{"sandbox-writer", "refusing to allow an OAuth App to create or update workflow `.github/workflows/x.yml` without `workflow` scope"},
	} {
		sha := newCommitOn(t, base, tc.token, main, ".github/workflows/x.yml")
		status, body := rawCall(t, base, tc.token, "POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/wf-" + tc.token, "sha": sha})
		if status != 422 || !strings.Contains(body, tc.want) {
			t.Errorf("%s creating a branch with a workflow file: %d %s", tc.token, status, body)
		}
	}
	sha := newCommitOn(t, base, "sandbox-founder", main, ".github/workflows/x.yml")
	if status, body := rawCall(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/wf-founder", "sha": sha}); status != 201 {
		t.Errorf("the founder (workflow scope): %d %s", status, body)
	}
	plain := newCommitOn(t, base, "sandbox-agent-bot", main, "notes/x.md")
	if status, body := rawCall(t, base, "sandbox-agent-bot", "POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/notes", "sha": plain}); status != 201 {
		t.Errorf("the agent's ordinary branch: %d %s", status, body)
	}
	// A branch built on the founder's branch brings no new workflow change.
	onTop := newCommitOn(t, base, "sandbox-agent-bot", sha, "notes/y.md")
	if status, body := rawCall(t, base, "sandbox-agent-bot", "POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/on-top", "sha": onTop}); status != 201 {
		t.Errorf("a branch on a workflow change already pushed: %d %s", status, body)
	}
}

// TestTokensCarryRealisticScopes: X-OAuth-Scopes names workflow for the
// founder only; the App tokens (the agent bot) report none.
func TestTokensCarryRealisticScopes(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	for token, want := range map[string]string{"sandbox-founder": "gist, read:org, repo, workflow", "sandbox-writer": "gist, read:org, repo", "sandbox-agent-bot": "-"} {
		req, _ := http.NewRequest("GET", base+"/repos/acme/benefits", nil)
		req.Header.Set("Authorization", "token "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got, ok := resp.Header["X-Oauth-Scopes"]
		if (want == "-") == ok || ok && got[0] != want {
			t.Errorf("%s's X-OAuth-Scopes: %v, want %s", token, got, want)
		}
	}
}

// TestCheckRunWritesNeedAGitHubApp: the agent's App creates a failing
// check run and updates it, and opens a check suite; a person's token is
// refused in GitHub's words; a job's token writes as GitHub Actions but
// may not change another App's run.
func TestCheckRunWritesNeedAGitHubApp(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	head := s.HeadSHA(sandbox.DemoPRReady)
	run := map[string]any{"name": "unit tests", "head_sha": head, "status": "completed", "conclusion": "failure",
		"output": map[string]any{"title": "2 failed", "summary": "TestCopay failed"}}
	if status, body := rawCall(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/check-runs", run); status != 403 || !strings.Contains(body, "You must authenticate via a GitHub App.") {
		t.Errorf("a person's check run: %d %s", status, body)
	}
	status, body := rawCall(t, base, "sandbox-agent-bot", "POST", "/repos/acme/benefits/check-runs", run)
	var cr github.CheckRun
	if status != 201 || json.Unmarshal([]byte(body), &cr) != nil || cr.GetApp().GetSlug() != sandbox.BotAppSlug || cr.GetConclusion() != "failure" {
		t.Fatalf("the agent's App's check run: %d %s", status, body)
	}
	gh := client(t, base, "sandbox-reader")
	list, _, err := gh.Checks.ListCheckRunsForRef(context.Background(), "acme", "benefits", head, &github.ListCheckRunsOptions{CheckName: github.String("unit tests")})
	if err != nil || list.GetTotal() != 1 || list.CheckRuns[0].GetOutput().GetTitle() != "2 failed" {
		t.Errorf("the check run on the head: %v %+v", err, list)
	}
	tok, endJob := s.WorkflowToken(s.RunID(sandbox.RunQualifying), map[string]string{"checks": "write"})
	defer endJob()
	path := fmt.Sprintf("/repos/acme/benefits/check-runs/%d", cr.GetID())
	if status, body := rawCall(t, base, tok, "PATCH", path, map[string]any{"conclusion": "success"}); status != 403 {
		t.Errorf("GitHub Actions changed the agent App's run: %d %s", status, body)
	}
	if status, body := rawCall(t, base, "sandbox-agent-bot", "PATCH", path, map[string]any{"conclusion": "success"}); status != 200 || !strings.Contains(body, `"conclusion":"success"`) {
		t.Errorf("the agent's App updating its run: %d %s", status, body)
	}
	if status, body := rawCall(t, base, tok, "POST", "/repos/acme/benefits/check-runs", map[string]any{"name": "lint", "head_sha": head, "status": "in_progress"}); status != 201 || !strings.Contains(body, `"slug":"github-actions"`) {
		t.Errorf("a job's check run: %d %s", status, body)
	}
	noChecks, endOther := s.WorkflowToken(s.RunID(sandbox.RunQualifying), map[string]string{"contents": "read"})
	defer endOther()
	if status, body := rawCall(t, base, noChecks, "POST", "/repos/acme/benefits/check-runs", map[string]any{"name": "lint", "head_sha": head}); status != 403 || !strings.Contains(body, "Resource not accessible by integration") {
		t.Errorf("a job without checks: write: %d %s", status, body)
	}
	if status, body := rawCall(t, base, "sandbox-agent-bot", "POST", "/repos/acme/benefits/check-suites", map[string]any{"head_sha": head}); status != 200 || !strings.Contains(body, `"slug":"agent-bot"`) {
		t.Errorf("the agent App's suite on the head (it has one already): %d %s", status, body)
	}
	if status, body := rawCall(t, base, "sandbox-writer", "POST", "/repos/acme/benefits/check-suites", map[string]any{"head_sha": head}); status != 403 || !strings.Contains(body, "You must authenticate via a GitHub App.") {
		t.Errorf("a person's check suite: %d %s", status, body)
	}
}

// TestJobTokenRefusedByRESTIsRefusedByGraphQL: a job token without issues
// permission is refused the issues by REST and by GraphQL alike, and
// GraphQL's viewer as REST's /user; with the permission both answer.
func TestJobTokenRefusedByRESTIsRefusedByGraphQL(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	tok, endJob := s.WorkflowToken(s.RunID(sandbox.RunQualifying), map[string]string{"contents": "read"})
	defer endJob()
	if status, _ := rawCall(t, base, tok, "GET", "/repos/acme/benefits/issues/3", nil); status != 403 {
		t.Errorf("REST issues with contents: read: %d, want 403", status)
	}
	for _, q := range []string{`{repository(owner:"acme",name:"benefits"){issue(number:3){title}}}`,
		`{repository(owner:"acme",name:"benefits"){issues(first:1){totalCount}}}`, `{viewer{login}}`} {
		status, body := rawCall(t, base, tok, "POST", "/graphql", map[string]any{"query": q})
		if status != 200 || !strings.Contains(body, `"type":"FORBIDDEN"`) || !strings.Contains(body, "Resource not accessible by integration") || strings.Contains(body, "Remaining deductible") {
			t.Errorf("GraphQL %s with contents: read: %d %s", q, status, body)
		}
	}
	ok, endOK := s.WorkflowToken(s.RunID(sandbox.RunQualifying), map[string]string{"issues": "read"})
	defer endOK()
	if status, body := rawCall(t, base, ok, "POST", "/graphql", map[string]any{"query": `{repository(owner:"acme",name:"benefits"){issue(number:3){number}}}`}); status != 200 || strings.Contains(body, "errors") {
		t.Errorf("GraphQL with issues: read: %d %s", status, body)
	}
}

// TestBotIdentityRulesetRequiresAReviewedPullRequest: with a bot identity
// the integration branch also takes changes only through a reviewed pull
// request: a direct ref write is refused ("Changes must be made through a
// pull request."), a merge without an approval of the head is refused,
// an approval by the last pusher alone does not count, and the founder's
// approval of PR 4's head lets a writer merge it.
func TestBotIdentityRulesetRequiresAReviewedPullRequest(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true, BotIdentity: true})
	ctx := context.Background()
	dev := s.BranchSHA("dev")
	next := newCommitOn(t, base, "sandbox-agent-bot", dev, "notes/direct.md")
	status, body := rawCall(t, base, "sandbox-agent-bot", "PATCH", "/repos/acme/benefits/git/refs/heads/dev", map[string]any{"sha": next})
	if status != 422 || !strings.Contains(body, "Changes must be made through a pull request.") {
		t.Errorf("a direct write to dev: %d %s", status, body)
	}
	writer := client(t, base, "sandbox-writer")
	opts := &github.PullRequestOptions{MergeMethod: "squash"}
	_, _, err := writer.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", opts)
	if statusOf(err) != http.StatusMethodNotAllowed || !strings.Contains(errMessage(err), "At least 1 approving review is required by reviewers with write access.") {
		t.Fatalf("a merge without an approval of the head: %v", err)
	}
	if pr, _, _ := writer.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRReady); pr.GetMergeableState() != "blocked" {
		t.Errorf("PR 4 without a review reads %q, want blocked", pr.GetMergeableState())
	}

	// The writer moves PR 4's branch, then approves its own push: GitHub
	// wants someone other than the last pusher.
	pr, _, err := writer.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRReady)
	if err != nil {
		t.Fatal(err)
	}
	moved := newCommitOn(t, base, "sandbox-writer", pr.GetHead().GetSHA(), "notes/writer.md")
	if status, body := rawCall(t, base, "sandbox-writer", "PATCH", "/repos/acme/benefits/git/refs/heads/"+pr.GetHead().GetRef(), map[string]any{"sha": moved}); status != 200 {
		t.Fatalf("the writer's push to the pull request's branch: %d %s", status, body)
	}
	if _, _, err := writer.PullRequests.CreateReview(ctx, "acme", "benefits", sandbox.DemoPRReady, &github.PullRequestReviewRequest{
		CommitID: github.String(moved), Event: github.String("APPROVE")}); err != nil {
		t.Fatal(err)
	}
	_, _, err = writer.PullRequests.Merge(ctx, "acme", "benefits", sandbox.DemoPRReady, "", opts)
	if statusOf(err) != http.StatusMethodNotAllowed || !strings.Contains(errMessage(err), "The most recent push must be approved by someone other than the person who pushed it.") {
		t.Fatalf("a merge approved only by the last pusher: %v", err)
	}
}

// TestCreationAndUpdateRules: a ruleset's creation rule refuses a new
// branch it covers, and its update rule a move of one, in GitHub's words;
// the admin role, its bypass actor, does both.
func TestCreationAndUpdateRules(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	admin := []any{map[string]any{"actor_id": 5, "actor_type": "RepositoryRole", "bypass_mode": "always"}}
	rs := map[string]any{"name": "frozen", "target": "branch", "enforcement": "active", "bypass_actors": admin,
		"conditions": map[string]any{"ref_name": map[string]any{"include": []string{"refs/heads/frozen-*"}, "exclude": []string{}}},
		"rules":      []any{map[string]any{"type": "creation"}, map[string]any{"type": "update"}}}
	if status, body := rawCall(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/rulesets", map[string]any{"target": "branch", "enforcement": "active"}); status != 422 || !strings.Contains(body, "Name can't be blank") {
		t.Errorf("a ruleset without a name: %d %s", status, body)
	}
	if status, body := rawCall(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/rulesets", rs); status != 201 {
		t.Fatalf("creating the ruleset: %d %s", status, body)
	}
	main := s.BranchSHA("main")
	status, body := rawCall(t, base, "sandbox-writer", "POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/frozen-1", "sha": main})
	if status != 422 || !strings.Contains(body, "Cannot create ref due to creations being restricted.") {
		t.Errorf("the writer creating frozen-1: %d %s", status, body)
	}
	if status, body := rawCall(t, base, "sandbox-founder", "POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/frozen-1", "sha": main}); status != 201 {
		t.Fatalf("the admin creating frozen-1: %d %s", status, body)
	}
	next := newCommitOn(t, base, "sandbox-writer", main, "notes/frozen.md")
	status, body = rawCall(t, base, "sandbox-writer", "PATCH", "/repos/acme/benefits/git/refs/heads/frozen-1", map[string]any{"sha": next})
	if status != 422 || !strings.Contains(body, "Cannot update this protected ref.") {
		t.Errorf("the writer moving frozen-1: %d %s", status, body)
	}
}
