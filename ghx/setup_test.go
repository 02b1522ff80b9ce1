package ghx_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestRepositorySetupThroughGhx: what init and doctor ask GitHub, through
// aayu's own client stack and validated against GitHub's description: the
// presence check's variable read, created and updated; the checks a branch
// requires by ruleset or protection; a workflow's state; the set-up pull
// request.
func TestRepositorySetupThroughGhx(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx, gh := context.Background(), env.client

	if v, err := ghx.RepoVariable(ctx, gh, owner, repo, ghx.DeviceClientVariable); err != nil || v != sandbox.DeviceClientID {
		t.Fatalf("the demo's variable: %q %v", v, err)
	}
	if _, err := ghx.RepoVariable(ctx, gh, owner, sandbox.FreshRepoName, ghx.DeviceClientVariable); !errors.Is(err, ghx.ErrNoVariable) {
		t.Fatalf("fresh's variable: %v, want ErrNoVariable", err)
	}
	for _, val := range []string{"Ov23liOne", "Ov23liTwo"} { // created, then updated
		if err := ghx.SetRepoVariable(ctx, gh, owner, sandbox.FreshRepoName, ghx.DeviceClientVariable, val); err != nil {
			t.Fatal(err)
		}
		if got, _ := ghx.RepoVariable(ctx, gh, owner, sandbox.FreshRepoName, ghx.DeviceClientVariable); got != val {
			t.Errorf("after setting %s: %s", val, got)
		}
	}

	reqs, unread, err := ghx.RequiredChecks(ctx, gh, owner, repo, "dev")
	if err != nil || unread || len(reqs) != 1 || reqs[0].Check != sandbox.GateCheck || reqs[0].By != "a ruleset" {
		t.Fatalf("dev's required checks: %+v unread %v %v", reqs, unread, err)
	}
	reader := env.newClient(t, "sandbox-reader", nil)
	if _, unread, err := ghx.RequiredChecks(ctx, reader, owner, repo, "main"); err != nil || !unread {
		t.Errorf("a reader cannot read branch protection: unread %v %v", unread, err)
	}
	if state, err := ghx.WorkflowState(ctx, gh, owner, repo, sandbox.GateFile); err != nil || state != "active" {
		t.Errorf("the merge gate's state: %q %v", state, err)
	}
	if state, err := ghx.WorkflowState(ctx, gh, owner, sandbox.FreshRepoName, sandbox.GateFile); err != nil || state != "" {
		t.Errorf("fresh has no merge gate: %q %v", state, err)
	}

	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: owner, Repo: sandbox.FreshRepoName, Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := initrepo.Apply(ctx, gh, p); err != nil || res.PR != 1 {
		t.Fatalf("the set-up pull request: %+v %v", res, err)
	}
}
