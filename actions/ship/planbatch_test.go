package ship

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
)

// planBatchReply stages what approve --ci leaves for a plan step applied
// by reply: the batch record on the ledger, the batch comment on Story 3
// by poster, the reply `Approve batch HASH` by replier, and
// specs/3/plan-review.json recording that reply as replier's review of
// layers. It returns the batch's hash.
func (f *fixture) planBatchReply(poster, replier string, items []approve.Item, layers ...string) string {
	f.t.Helper()
	ctx := context.Background()
	rec, err := approve.NewRecordOf(owner+"/"+repo, items, "founder", "agent-bot[bot]", approve.WayReply, time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))
	if err != nil {
		f.t.Fatal(err)
	}
	hash := rec.Hash()
	st, _ := json.MarshalIndent(approve.Stored{Hash: hash, Record: rec, Rendered: approve.Render(rec)}, "", "  ")
	f.commit("ledger", map[string]string{approve.Path(hash): string(st)})
	if _, _, err := f.client(poster).Issues.CreateComment(ctx, owner, repo, 3, &github.IssueComment{Body: github.String(approve.Render(rec))}); err != nil {
		f.t.Fatal(err)
	}
	c, _, err := f.client(replier).Issues.CreateComment(ctx, owner, repo, 3, &github.IssueComment{Body: github.String("Approve batch " + hash)})
	if err != nil {
		f.t.Fatal(err)
	}
	pr := pass.PlanRecord{Story: 3, Layers: layers, Kind: pass.PlanKindReview, Reviewer: replier, ApprovedBy: replier, RecordedBy: replier,
		RecordedAt: "2026-12-02T09:05:00Z", CommentURL: c.GetHTMLURL(), Note: "staged by the test"}
	f.commit("ledger", map[string]string{pass.PlanRecordPath(3): string(pr.Encode())})
	return hash
}

func planStep(layers ...string) approve.Item {
	return approve.NewPlanItem(3, layers, "Story: policy limits", "body", false)
}

// TestShipTakesThePersonsApproveBatchReplyAsThePlanReview: the founder's
// own reply `Approve batch HASH`, to a batch whose record holds a plan
// step for Story 3 covering L04 and whose comment is what aayu renders,
// is the plan review ship counts: the human pass passes on it.
func TestShipTakesThePersonsApproveBatchReplyAsThePlanReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	f.planBatchReply("agent-bot", "founder", []approve.Item{planStep("L04")}, "L04")
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if e := lastEvent(events)[GateHumanPass]; err != nil || e.State != Passed {
		t.Fatalf("the founder's batch reply did not pass as the plan review: %v %s %s %q", err, e.State, e.Words, res.Refusals)
	}
}

// TestShipRefusesABotsApproveBatchCommentAsAPlanReview: a bot's comment
// `Approve batch HASH` is never a plan review, whatever the batch holds.
func TestShipRefusesABotsApproveBatchCommentAsAPlanReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	f.planBatchReply("agent-bot", "agent-bot", []approve.Item{planStep("L04")}, "L04")
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "a bot, and a bot's comment is never a plan review") {
		t.Fatalf("a bot's Approve batch comment counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesABatchReplyWithoutAPlanStepForThisStory: the reply
// approves a batch whose record holds no plan step for Story 3 (a ready
// step), so it reviewed no plan.
func TestShipRefusesABatchReplyWithoutAPlanStepForThisStory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	other := approve.NewPlanItem(9, []string{"L04"}, "Another Story", "body", false)
	f.planBatchReply("agent-bot", "founder", []approve.Item{other}, "L04")
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "holds no plan review step for Story #3, so the reply is no review of its plan") {
		t.Fatalf("a batch without a plan step for #3 counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesABatchReplyWhosePlanStepDoesNotCoverTheLayers: the plan
// step the batch showed covers L04; a pull request touching L04 and L07
// needs both, whatever the ledger's plan record claims.
func TestShipRefusesABatchReplyWhosePlanStepDoesNotCoverTheLayers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n", ".github/CODEOWNERS": "* @founder\n"})
	f.planBatchReply("agent-bot", "founder", []approve.Item{planStep("L04")}, "L04", "L07")
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "plan step for Story #3 covers L04, and this pull request touches L04, L07") {
		t.Fatalf("a batch covering fewer layers counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesABatchReplyWhoseBatchCommentWasNotRendered: the batch
// comment on the Story is not what aayu renders from the record the reply
// names, so the person may have approved other steps.
func TestShipRefusesABatchReplyWhoseBatchCommentWasNotRendered(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	hash := f.planBatchReply("agent-bot", "founder", []approve.Item{planStep("L04")}, "L04")
	ctx := context.Background()
	list, _, err := f.client("founder").Issues.ListComments(ctx, owner, repo, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if approve.MarkerIn(c.GetBody()) == hash {
			if _, _, err := f.client("agent-bot").Issues.EditComment(ctx, owner, repo, c.GetID(), &github.IssueComment{Body: github.String("Something else.\n" + approve.Marker(hash))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "is not what aayu renders from its record") {
		t.Fatalf("a batch comment not rendered from its record counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// newEditFixture is a fixture whose sandbox clock the test moves on with
// later, so an edit lands in a later second than the post (GitHub's
// updated_at has whole seconds, and an edit in the same second as the
// post is not told apart from none).
func newEditFixture(t *testing.T) (*fixture, func(time.Duration)) {
	var skew atomic.Int64
	f := startFixture(t, sandbox.Options{StateDir: t.TempDir(), Now: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }})
	return f, func(d time.Duration) { skew.Add(int64(d)) }
}

// editComment re-saves the comment on Story 3 whose body pick chooses, as
// who, with the same words: GitHub still records the edit.
func (f *fixture) editComment(who string, pick func(body string) bool) {
	f.t.Helper()
	ctx := context.Background()
	list, _, err := f.client("founder").Issues.ListComments(ctx, owner, repo, 3, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range list {
		if pick(c.GetBody()) {
			if _, _, err := f.client(who).Issues.EditComment(ctx, owner, repo, c.GetID(), &github.IssueComment{Body: github.String(c.GetBody())}); err != nil {
				f.t.Fatal(err)
			}
			return
		}
	}
	f.t.Fatal("no such comment on #3")
}

// TestShipRefusesAnEditedApproveBatchReplyAsAPlanReview: the reply was
// edited after it was posted (SPEC §10: "never edited"), so what it said
// when it was read is unknown; it is no plan review even with the same
// words.
func TestShipRefusesAnEditedApproveBatchReplyAsAPlanReview(t *testing.T) {
	t.Parallel()
	f, later := newEditFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	hash := f.planBatchReply("agent-bot", "founder", []approve.Item{planStep("L04")}, "L04")
	later(2 * time.Second)
	f.editComment("founder", func(body string) bool { return body == "Approve batch "+hash })
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "reply the plan review of Story #3 stands on was edited") {
		t.Fatalf("an edited Approve batch reply counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesABatchReplyWhoseBatchCommentWasEdited: the batch comment
// was edited after it was posted; even back to the rendered words, the
// steps the person was shown when they replied are unknown.
func TestShipRefusesABatchReplyWhoseBatchCommentWasEdited(t *testing.T) {
	t.Parallel()
	f, later := newEditFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	hash := f.planBatchReply("agent-bot", "founder", []approve.Item{planStep("L04")}, "L04")
	later(2 * time.Second)
	f.editComment("agent-bot", func(body string) bool { return approve.MarkerIn(body) == hash })
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "was edited after it was posted, so its steps may not be the ones the reply approved") {
		t.Fatalf("a batch whose comment was edited counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}
