package ship

import (
	"context"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/pass"
)

// TestShipDoesNotTrustAPlanReviewTheLedgerShowsWidened: the founder's
// plan review of L04 is widened to L04, L07 by the agent's ordinary ledger
// commit (same comment); ship does not count it, and names the commit,
// its author and the path.
func TestShipDoesNotTrustAPlanReviewTheLedgerShowsWidened(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n", ".github/CODEOWNERS": "* @founder\n"})
	f.planReviewed("founder", 3, "L04")
	ctx := context.Background()
	path := pass.PlanRecordPath(3)
	b, err := ghx.ReadFile(ctx, f.client("founder"), owner, repo, "ledger", path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := pass.ParsePlanRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	rec.Layers = []string{"L04", "L07"}
	sha, err := ghx.CommitFiles(ctx, f.client("agent-bot"), owner, repo, "ledger", map[string][]byte{path: rec.Encode()}, "ledger: layers", ghx.CommitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "Ledger tampering: commit "+sha[:12]) || !mentions(res, events, "rewrote "+path) ||
		!mentions(res, events, "the plan review of Story #3 is not trusted") {
		t.Fatalf("a widened plan review counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}
