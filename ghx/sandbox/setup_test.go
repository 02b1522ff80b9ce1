package sandbox_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestSetupReads: what init and doctor read — the repository variable, the
// branch rules and protection, the workflows — served as GitHub does and
// validated against its description.
func TestSetupReads(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")

	v, _, err := gh.Actions.GetRepoVariable(ctx, "acme", "benefits", sandbox.DeviceClientVariable)
	if err != nil || v.Value != sandbox.DeviceClientID {
		t.Fatalf("benefits' %s: %v %v", sandbox.DeviceClientVariable, v, err)
	}
	if list, _, err := gh.Actions.ListRepoVariables(ctx, "acme", "benefits", nil); err != nil || list.TotalCount != 1 {
		t.Errorf("list variables: %v %v", list, err)
	}
	if _, resp, _ := gh.Actions.GetRepoVariable(ctx, "acme", "fresh", sandbox.DeviceClientVariable); resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("fresh has no variable, want 404: %v", resp)
	}

	rules, _, err := gh.Repositories.GetRulesForBranch(ctx, "acme", "benefits", "main")
	var types []string
	for _, r := range rules {
		types = append(types, r.Type)
	}
	if err != nil || strings.Join(types, " ") != "required_status_checks non_fast_forward deletion" ||
		!strings.Contains(string(*rules[0].Parameters), `{"context":"aayudha/merge-gate","integration_id":15368}`) {
		t.Fatalf("benefits' main rules: %v %v", types, err)
	}
	// fresh carries the ruleset before aayu init proposes the gate (issue 25).
	if rules, _, err := gh.Repositories.GetRulesForBranch(ctx, "acme", "fresh", "main"); err != nil || len(rules) != 1 || rules[0].Type != "required_status_checks" {
		t.Errorf("fresh's main requires the merge gate: %v %v", rules, err)
	}
	if _, resp, err := gh.Repositories.GetBranchProtection(ctx, "acme", "benefits", "main"); resp == nil || resp.StatusCode != http.StatusNotFound || err == nil {
		t.Errorf("branch protection: %v, want 404 Branch not protected", err)
	}
	if _, resp, _ := client(t, base, "sandbox-writer").Repositories.GetBranchProtection(ctx, "acme", "benefits", "main"); resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a writer reading branch protection: %v, want 403", resp)
	}

	wfs, _, err := gh.Actions.ListWorkflows(ctx, "acme", "benefits", nil)
	if err != nil || wfs.GetTotalCount() != 3 || wfs.Workflows[0].GetPath() != templates.MergeGatePath {
		t.Fatalf("benefits' workflows: %v %v", wfs, err)
	}
	if wf, _, err := gh.Actions.GetWorkflowByFileName(ctx, "acme", "benefits", sandbox.GateFile); err != nil || wf.GetState() != "active" {
		t.Errorf("the merge gate: %v %v", wf, err)
	}
	if wfs, _, err := gh.Actions.ListWorkflows(ctx, "acme", "fresh", nil); err != nil || wfs.GetTotalCount() != 0 {
		t.Errorf("fresh has no workflows: %v %v", wfs, err)
	}

	// The demo's merge gate is the template init writes, byte for byte.
	b, _, _, err := gh.Repositories.GetContents(ctx, "acme", "benefits", templates.MergeGatePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := b.GetContent(); text != templates.MergeGate {
		t.Error("the demo's merge gate is not the template init writes")
	}

	if _, _, err := gh.Issues.ListLabels(ctx, "acme", "benefits", nil); err != nil {
		t.Errorf("labels: %v", err)
	}
	if _, _, err := gh.Repositories.ListStatuses(ctx, "acme", "benefits", "main", nil); err != nil {
		t.Errorf("statuses: %v", err)
	}
}

// TestSetupWrites: the variable is set by an admin only, and a set-up pull
// request on acme/fresh is built through the Git Data API without touching
// main.
func TestSetupWrites(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")

	if _, err := client(t, base, "sandbox-writer").Actions.CreateRepoVariable(ctx, "acme", "fresh", &github.ActionsVariable{Name: sandbox.DeviceClientVariable, Value: "x"}); statusOf(err) != 403 {
		t.Errorf("a writer setting a variable: %v, want 403", err)
	}
	if _, err := gh.Actions.CreateRepoVariable(ctx, "acme", "fresh", &github.ActionsVariable{Name: sandbox.DeviceClientVariable, Value: "Ov23liFresh"}); err != nil {
		t.Fatalf("create variable: %v", err)
	}
	if _, err := gh.Actions.CreateRepoVariable(ctx, "acme", "fresh", &github.ActionsVariable{Name: sandbox.DeviceClientVariable, Value: "again"}); statusOf(err) != 409 {
		t.Errorf("creating it twice: %v, want 409", err)
	}
	if _, err := gh.Actions.UpdateRepoVariable(ctx, "acme", "fresh", &github.ActionsVariable{Name: sandbox.DeviceClientVariable, Value: "Ov23liFresh2"}); err != nil {
		t.Fatalf("update variable: %v", err)
	}
	if v, _, err := gh.Actions.GetRepoVariable(ctx, "acme", "fresh", sandbox.DeviceClientVariable); err != nil || v.Value != "Ov23liFresh2" {
		t.Errorf("after update: %v %v", v, err)
	}

	repo, _, err := gh.Repositories.Get(ctx, "acme", "fresh")
	if err != nil || repo.GetFullName() != "acme/fresh" || repo.GetDefaultBranch() != "main" {
		t.Fatalf("acme/fresh: %v %v", repo.GetFullName(), err)
	}
	mainRef, _, err := gh.Git.GetRef(ctx, "acme", "fresh", "heads/main")
	if err != nil {
		t.Fatal(err)
	}
	tip := mainRef.GetObject().GetSHA()
	blob, _, err := gh.Git.CreateBlob(ctx, "acme", "fresh", &github.Blob{Content: github.String("hello\n"), Encoding: github.String("utf-8")})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := gh.Git.GetBlob(ctx, "acme", "fresh", blob.GetSHA()); err != nil || got.GetSize() != 6 {
		t.Errorf("get blob: %v %v", got, err)
	}
	parent, _, _ := gh.Git.GetCommit(ctx, "acme", "fresh", tip)
	tree, _, err := gh.Git.CreateTree(ctx, "acme", "fresh", parent.GetTree().GetSHA(), []*github.TreeEntry{{Path: github.String("NOTE.md"), Mode: github.String("100644"), Type: github.String("blob"), SHA: blob.SHA}})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := gh.Git.CreateCommit(ctx, "acme", "fresh", &github.Commit{Message: github.String("note"), Tree: tree, Parents: []*github.Commit{{SHA: github.String(tip)}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Git.CreateRef(ctx, "acme", "fresh", &github.Reference{Ref: github.String("refs/heads/setup"), Object: &github.GitObject{SHA: c.SHA}}); err != nil {
		t.Fatal(err)
	}
	pr, _, err := gh.PullRequests.Create(ctx, "acme", "fresh", &github.NewPullRequest{Title: github.String("Set up"), Head: github.String("setup"), Base: github.String("main")})
	if err != nil || pr.GetNumber() != 1 || pr.GetBase().GetRepo().GetFullName() != "acme/fresh" {
		t.Fatalf("create PR on fresh: %v %v", pr, err)
	}
	if _, _, err := gh.Issues.CreateLabel(ctx, "acme", "fresh", &github.Label{Name: github.String("type:story"), Color: github.String("1d76db")}); err != nil {
		t.Errorf("create label: %v", err)
	}
	if after, _, _ := gh.Git.GetRef(ctx, "acme", "fresh", "heads/main"); after.GetObject().GetSHA() != tip {
		t.Error("main moved")
	}
	// The demo is untouched by fresh's writes: its issue 1 is still its own.
	if is, _, err := gh.Issues.Get(ctx, "acme", "benefits", 1); err != nil || is.GetPullRequestLinks() != nil {
		t.Errorf("benefits' issue 1: %v %v", is, err)
	}

	// Both repositories persist.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
