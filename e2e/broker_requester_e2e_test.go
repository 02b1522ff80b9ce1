package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestBrokerRefusesAWriter: @writer (write access, named nowhere in the
// default branch's policy) dispatches aayudha-token.yml with their own
// key, as an agent holding a write token would. aayu token seal, in the
// run, refuses the requester before it seals anything: the run fails, no
// artifact is left, and Mint gives no token. The founder's dispatch, on
// the same sandbox, still gets one.
func TestBrokerRefusesAWriter(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the broker's workflow")
	}
	_, base, _, logs := brokerSandbox(t, 0)
	ctx := context.Background()
	writer, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken("sandbox-writer", "test"), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	broker := ghx.Broker{Client: writer, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, Poll: 100 * time.Millisecond, Timeout: 60 * time.Second}
	tok, err := broker.Mint(ctx)
	if err == nil || !tok.IsZero() {
		t.Fatalf("a writer's broker request gave a token (%v); log:\n%s", err, logs.String())
	}
	founder := founderClient(t, base)
	runs, _, err := founder.Actions.ListRepositoryWorkflowRuns(ctx, sandbox.RepoOwner, sandbox.RepoName, &github.ListWorkflowRunsOptions{Event: "workflow_dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	if runs.GetTotalCount() != 1 || runs.WorkflowRuns[0].GetActor().GetLogin() != "writer" || runs.WorkflowRuns[0].GetConclusion() != "failure" {
		t.Fatalf("want one failed run by @writer; got %d runs: %+v", runs.GetTotalCount(), runs.WorkflowRuns)
	}
	if left, _ := brokerArtifacts(t, founder); len(left) != 0 {
		t.Errorf("a writer's request left artifacts: %v", left)
	}
	if !strings.Contains(logs.String(), "@writer dispatched the broker, but only a person the default branch names") {
		t.Errorf("the run does not say why it refused; log:\n%s", logs.String())
	}

	ok := ghx.Broker{Client: founder, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, Poll: 100 * time.Millisecond, Timeout: 90 * time.Second}
	if tok, err := ok.Mint(ctx); err != nil || tok.IsZero() {
		t.Fatalf("the founder's request gave no token: %v; log:\n%s", err, logs.String())
	}
}
