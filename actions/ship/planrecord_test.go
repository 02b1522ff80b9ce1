package ship

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/pass"
)

// planReviewed records a plan review of story as aayu plan lands one: the
// "Plan reviewed:" comment by login on the Story and specs/N/plan-review.json
// on the ledger naming it. It writes directly, so a test can record what
// aayu plan itself refuses (the builder's own review).
func (f *fixture) planReviewed(login string, story int, layers ...string) string {
	f.t.Helper()
	return f.planRecord(login, story, pass.PlanKindReview, PlanReviewedPrefix+" the policy change is in scope", layers...)
}

func (f *fixture) planRecord(login string, story int, kind, body string, layers ...string) string {
	f.t.Helper()
	c, _, err := f.client(login).Issues.CreateComment(context.Background(), owner, repo, story, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		f.t.Fatal(err)
	}
	rec := pass.PlanRecord{Story: story, Layers: layers, Kind: kind, Reviewer: login, ApprovedBy: login, RecordedBy: login,
		RecordedAt: time.Date(2026, 10, 12, 7, 30, 32, 0, time.UTC).Format(time.RFC3339), CommentURL: c.GetHTMLURL(), Note: "staged by the test"}
	if kind == pass.KindSoloBypass {
		rec.Reviewer, rec.ApprovedBy, rec.Note = pass.NoPlanReviewer, "", pass.PlanBypassNote
	}
	f.commit("ledger", map[string]string{pass.PlanRecordPath(story): string(rec.Encode())})
	return c.GetHTMLURL()
}

// TestShipRefusesWithoutAPlanReviewRecord: a "Plan reviewed:" comment alone
// is not a plan review; ship wants the record aayu plan lands, and says
// which command records it (in solo mode, the bypass).
func TestShipRefusesWithoutAPlanReviewRecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	if _, _, err := f.client("founder").Issues.CreateComment(context.Background(), owner, repo, 3,
		&github.IssueComment{Body: github.String(PlanReviewedPrefix + " the policy change is in scope")}); err != nil {
		t.Fatal(err)
	}
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "Story #3 has none recorded (specs/3/plan-review.json on the ledger); next: aayu plan 3 --solo-bypass") {
		t.Fatalf("a comment without the record counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesAPlanReviewOfFewerLayers: a record that covers L04 does
// not cover a pull request that also touches L07.
func TestShipRefusesAPlanReviewOfFewerLayers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n", ".github/CODEOWNERS": "* @founder\n"})
	f.planReviewed("founder", 3, "L04")
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "the plan review of Story #3 covers L04, and this pull request touches L04, L07") {
		t.Fatalf("a review of fewer layers counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesAPlanReviewWhoseCommentIsGone: the record stands on its
// comment; a deleted comment leaves no review.
func TestShipRefusesAPlanReviewWhoseCommentIsGone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	url := f.planReviewed("founder", 3, "L04")
	list, _, err := f.client("founder").Issues.ListComments(context.Background(), owner, repo, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if c.GetHTMLURL() == url {
			if _, err := f.client("founder").Issues.DeleteComment(context.Background(), owner, repo, c.GetID()); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "is not on the Story (deleted?)") {
		t.Fatalf("a review without its comment counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipCopiesThePlanReviewIntoShipJSON: a reviewed plan passes the
// human pass's plan part, and ship.json's plan_review carries the record as
// aayu plan landed it: a review with its reviewer, a bypass in the seed's
// shape with reviewer "none (solo mode)".
func TestShipCopiesThePlanReviewIntoShipJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	url := f.planReviewed("founder", 3, "L04")
	f.review("founder", pr, "APPROVE", "")
	_, events, err := f.ship(f.config("founder"), pr)
	if e := lastEvent(events)[GateHumanPass]; err != nil || e.State != Passed {
		t.Fatalf("human pass %s: %v %s %q", e.State, err, e.Words, e.Detail)
	}
	r := &run{target: targetFacts{story: 3}, cfg: Config{Viewer: "founder"}, passing: passFacts{
		pass: pass.PassResult{Plan: pass.PlanResult{Required: true, Layers: []string{"L04"}, By: "founder"}},
		plan: pass.PlanReview{Reviewed: true, By: "founder", CommentURL: url, Record: &pass.PlanRecord{Story: 3, Layers: []string{"L04"}, Kind: "review",
			Reviewer: "founder", ApprovedBy: "founder", RecordedBy: "founder", RecordedAt: "2026-10-12T07:30:32Z", CommentURL: url, Note: "n"}}}}
	b, _ := json.Marshal(r.planRecord())
	want := `{"required":true,"layers":["L04"],"reviewer":"founder","record":"specs/3/plan-review.json","review":{"reviewer":"founder","layers":["L04"],"recorded_by":"founder","recorded_at":"2026-10-12T07:30:32Z","comment_url":"` + url + `","note":"n"}}`
	if string(b) != want {
		t.Errorf("plan_review of a review:\n%s\nwant\n%s", b, want)
	}
	r.passing.pass.Plan = pass.PlanResult{Required: true, Layers: []string{"L04"}, Bypass: true}
	r.passing.plan = pass.PlanReview{Bypass: true, CommentURL: url, Record: &pass.PlanRecord{Story: 3, Layers: []string{"L04"}, Kind: "solo-bypass",
		Reviewer: pass.NoPlanReviewer, RecordedBy: "founder", RecordedAt: "2026-10-12T07:30:32Z", CommentURL: url, Note: pass.PlanBypassNote}}
	b, _ = json.Marshal(r.planRecord())
	want = `{"required":true,"layers":["L04"],"record":"specs/3/plan-review.json","bypass":{"as":"solo-bypass","reviewer":"none (solo mode)","layers":["L04"],"recorded_by":"founder","recorded_at":"2026-10-12T07:30:32Z","comment_url":"` + url + `","note":"` + pass.PlanBypassNote + `"}}`
	if string(b) != want {
		t.Errorf("plan_review of a bypass:\n%s\nwant\n%s", b, want)
	}
}

// TestShipRefusesAPlanBypassOutsideSoloMode: with a bot identity the
// repository is not in solo mode: a missing plan review names aayu plan N
// (by a person who is not the builder), never the bypass, and a plan
// bypass recorded earlier no longer counts.
func TestShipRefusesAPlanBypassOutsideSoloMode(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.baseConfig(soloLine, "[identity]\nbot_logins = [\"agent-bot[bot]\"]")
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	f.review("founder", pr, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "next: aayu plan 3 (by a person who is not the builder)") || mentions(res, events, "aayu plan 3 --solo-bypass") {
		t.Fatalf("outside solo mode: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
	f.planRecord("founder", 3, pass.KindSoloBypass, "Solo-mode bypass: nobody else could review the plan", "L04")
	res, events, err = f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, "went through a solo-mode bypass, and this repository has a bot identity") {
		t.Fatalf("a plan bypass counted outside solo mode: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}

// TestShipRefusesThePRAuthorsOwnPlanReview: a never layer needs a plan
// review by someone who is not the pull request's author; the author's own
// "Plan reviewed:" comment on the story does not count, another person's
// does.
func TestShipRefusesThePRAuthorsOwnPlanReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	const missing = "needs a plan-time review"
	comment := func(login string) { f.planReviewed(login, 3, "L04") }
	comment("writer") // the pull request's author
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, missing) {
		t.Fatalf("the author's own plan review counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
	comment("founder") // a person who is not the author
	res, events, err = f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || mentions(res, events, missing) {
		t.Fatalf("another person's plan review did not count: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}
