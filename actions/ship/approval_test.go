package ship

import (
	"context"
	"testing"

	"github.com/aayudha/aayu/model/identity"
)

// batchConfig is the waiting agent process applying an approved batch:
// the bot's token, no terminal, no one to confirm, the batch's approval.
func (f *fixture) batchConfig(a *Approval) Config {
	cfg := f.config("agent-bot[bot]")
	cfg.Client, cfg.Terminal, cfg.Confirm, cfg.Approval = f.client("agent-bot"), false, nil, a
	cfg.Env = envOf(map[string]string{identity.AgentVariable: "1"})
	return cfg
}

func (f *fixture) commentCount(n int) int {
	f.t.Helper()
	list, _, err := f.client("founder").Issues.ListComments(context.Background(), owner, repo, n, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return len(list)
}

// TestShipBatchApprovalRefusesAnApproverWithoutWriteAccess: a batch
// approval stands in for the presence check only at the access the
// approver holds now, read from GitHub: a reader's approval merges
// nothing.
func TestShipBatchApprovalRefusesAnApproverWithoutWriteAccess(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	head := f.srv.HeadSHA(4)
	f.review("founder", 4, "APPROVE", "")
	res, events, err := f.ship(f.batchConfig(&Approval{Batch: "0123456789ab", Login: "reader", Method: "device-code", Head: head, Base: "dev"}), 4)
	if err != nil || res.Merged || !mentions(res, events, "@reader approved batch 0123456789ab with read access") {
		t.Fatalf("a reader's batch approval: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipBatchApprovalRefusesABotApprover: a bot never stands in for a
// person, whatever access it has.
func TestShipBatchApprovalRefusesABotApprover(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	head := f.srv.HeadSHA(4)
	f.review("founder", 4, "APPROVE", "")
	res, events, err := f.ship(f.batchConfig(&Approval{Batch: "0123456789ab", Login: "agent-bot[bot]", Method: "device-code", Head: head, Base: "dev"}), 4)
	if err != nil || res.Merged || !mentions(res, events, "a bot, and a bot never stands in for a person") {
		t.Fatalf("a bot's batch approval: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipBatchApprovalRefusesABaseThatMoved: the batch pinned the base
// ref too; a pull request retargeted since is not the merge approved.
func TestShipBatchApprovalRefusesABaseThatMoved(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	head := f.srv.HeadSHA(4)
	f.review("founder", 4, "APPROVE", "")
	res, events, err := f.ship(f.batchConfig(&Approval{Batch: "0123456789ab", Login: "founder", Method: "device-code", Head: head, Base: "main"}), 4)
	if err != nil || res.Merged || !mentions(res, events, "#4 now merges into dev, not the main batch 0123456789ab showed") {
		t.Fatalf("a moved base: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipCheckOnlyWritesNothing: the batch's read runs every read-only
// gate and stops with the plan: nothing merged, no comment (not even
// Ready to ship), and a refused one leaves no comment either.
func TestShipCheckOnlyWritesNothing(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	before := f.commentCount(4)
	cfg := f.batchConfig(&Approval{Login: "founder"})
	cfg.CheckOnly = true
	res, _, err := f.ship(cfg, 4)
	if err != nil || res.Merged || res.Plan != nil || len(res.Refusals) == 0 || f.commentCount(4) != before {
		t.Fatalf("check-only without a review: err %v, merged %v, plan %v, refusals %q, comments %d→%d", err, res.Merged, res.Plan != nil, res.Refusals, before, f.commentCount(4))
	}
	f.review("founder", 4, "APPROVE", "")
	res, _, err = f.ship(cfg, 4)
	if err != nil || res.Merged || res.Plan == nil || res.Plan.Head != f.srv.HeadSHA(4) || f.commentCount(4) != before {
		t.Fatalf("check-only with the review: err %v, merged %v, plan %+v, refusals %q", err, res.Merged, res.Plan, res.Refusals)
	}
}
