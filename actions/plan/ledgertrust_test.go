package plan_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/ghx"
)

// TestPlanGrownPlanIsANewReviewNotTampering: a plan that grows into
// another never layer after its review is reviewed again under a new
// "Plan reviewed:" comment naming both layers, never by rewriting the old
// comment's record, so the ledger's history shows no tampering.
func TestPlanGrownPlanIsANewReviewNotTampering(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	review := func() plan.Result {
		t.Helper()
		r, err := plan.Read(ctx, f.options("writer", story, false))
		if err != nil {
			t.Fatal(err)
		}
		res, err := plan.Apply(ctx, f.client("writer"), r, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := review()
	grown := strings.Replace(policyPlan, "- deductible/\n", "- deductible/\n- `.github/CODEOWNERS`: the owners\n", 1)
	if _, _, err := f.client("founder").Issues.Edit(ctx, owner, repo, story, &github.IssueRequest{Body: &grown}); err != nil {
		t.Fatal(err)
	}
	second := review()
	rec := f.record(story)
	if !second.Posted || second.CommentURL == first.CommentURL || rec == nil || rec.CommentURL != second.CommentURL || len(rec.Layers) != 2 {
		t.Fatalf("the grown plan's review: first %+v, second %+v, record %+v", first, second, rec)
	}
	h, err := ghx.CheckLedger(ctx, f.client("reader"), owner, repo, "ledger", "")
	if err != nil || len(h.Findings) != 0 {
		t.Fatalf("aayu's own new review was named as tampering: %v %+v", err, h.Findings)
	}
}
