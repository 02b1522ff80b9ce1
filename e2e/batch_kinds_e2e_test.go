package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// batchComment is the one comment on issue carrying hash's marker.
func batchComment(t *testing.T, c *github.Client, issue int, hash string) *github.IssueComment {
	t.Helper()
	cs, _, err := c.Issues.ListComments(context.Background(), "acme", "benefits", issue, nil)
	if err != nil {
		t.Fatal(err)
	}
	var batch *github.IssueComment
	for _, cm := range cs {
		if approve.MarkerIn(cm.GetBody()) == hash {
			if batch != nil {
				t.Fatal("two batch comments for one command")
			}
			batch = cm
		}
	}
	if batch == nil {
		t.Fatalf("no batch %s comment on #%d", hash, issue)
	}
	return batch
}

// TestAgentReadyIsABatchNotARefusal: an agent lane's aayu ready N is no
// longer refused: it posts one batch comment on the Story as the bot,
// saying what approving freezes (the goal's hash), its door, the options
// and the recommendation; the agent returns at once, and the founder
// approves aayu approve HASH's device code at their terminal; the Ready
// snapshot lands on the ledger and the Story is status:ready, once (a
// second approve writes nothing).
func TestAgentReadyIsABatchNotARefusal(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	labels := []string{"type:story", "status:building"}
	is, _, err := founder.Issues.Create(ctx, "acme", "benefits", &github.IssueRequest{Title: github.String("Story: leave balance"), Body: github.String(readyGoalBody), Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	story := is.GetNumber()
	a := startAayu(t, botAgent(t), append(agentAt(url), "ready", itoa(story))...)
	m := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @agent-bot\[bot\] on #` + itoa(story) + `|result: exit`)
	if len(m) < 2 || m[1] == "" {
		t.Fatalf("no batch:\n%s", a.out.String())
	}
	hash := m[1]
	a.waitFor(`It waits for @founder to run aayu approve ` + hash)
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("the agent's ready exited %d:\n%s", code, a.out.String())
	}
	if ledgerSnapshot(t, founder, "ledger", story) != nil {
		t.Fatal("the snapshot landed before anyone approved")
	}
	batch := batchComment(t, founder, story, hash)
	if batch.GetUser().GetLogin() != sandbox.BotLogin {
		t.Errorf("the batch was posted by %s, want the bot", batch.GetUser().GetLogin())
	}
	body := batch.GetBody()
	for _, want := range []string{"@founder 1 human-only step waits for your approval (batch " + hash + ").",
		"1. `aayu ready " + itoa(story) + "`: Freezes the Completion Goal of Story #" + itoa(story) + " (2 criteria, completion_goal_hash ",
		"Two-way door", "Options: 1. Approve: freeze the goal (recommended) / 2. Leave it: nothing is written", "Recommendation: option 1"} {
		if !strings.Contains(body, want) {
			t.Errorf("the batch lacks %q:\n%s", want, body)
		}
	}
	a = approveAtTerminal(t, url, hash, "founder")
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, a.out.String())
	}
	if !strings.Contains(a.out.String(), "done: #"+itoa(story)+": Completion Goal frozen") {
		t.Errorf("the output does not say the goal was frozen:\n%s", a.out.String())
	}
	r := ledgerSnapshot(t, founder, "ledger", story)
	if r == nil || !r.SelfConsistent() || r.Story != story || len(r.Criteria) != 2 || !strings.Contains(body, r.RecordedHash[:12]) {
		t.Fatalf("the ledger's snapshot is not the goal the batch showed: %+v", r)
	}
	if got := labelsOf(t, founder, story); !contains(got, "status:ready") || contains(got, "status:building") {
		t.Errorf("labels after the approved batch: %v", got)
	}
	applied, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.AppliedPath(hash))
	if err != nil || !strings.Contains(string(applied), `"by": "founder"`) {
		t.Fatalf("no applied record naming founder: %v %s", err, applied)
	}
	approvedAlready(t, url, hash)
}
