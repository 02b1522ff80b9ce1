package inboxread_test

import (
	"context"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// TestInboxIgnoresAForgedInspectStatus: inspect's judgement counts only
// from the merge gate's own run, as ship takes it. A writer who posts
// aayudha/inspect "human rung" on PR 8's head with their own token makes
// no "needs your review" card, where any poster's status once did; the
// gate's own judgement on PR 6 still makes one.
func TestInboxIgnoresAForgedInspectStatus(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	before := stepIDs(inbox.Derive(read(t, f.reader)))
	if _, ok := before[id(inbox.KindNeedsReview, sandbox.DemoPRReview)]; !ok {
		t.Fatalf("the gate's own human rung on PR 6 makes no card: %v", before)
	}
	if _, ok := before[id(inbox.KindReviewStopped, sandbox.DemoPRStopped)]; !ok {
		t.Fatalf("the gate's own stopped review on PR 8 makes no card: %v", before)
	}
	_, _, err := writer(t, f.base).Repositories.CreateStatus(context.Background(), owner, repo, f.srv.HeadSHA(sandbox.DemoPRStopped),
		&github.RepoStatus{State: github.String("pending"), Context: github.String(inbox.InspectContext),
			Description: github.String("human rung: no reviewer could review this head"),
			TargetURL:   github.String("https://github.com/acme/benefits/actions/runs/1")})
	if err != nil {
		t.Fatal(err)
	}
	snap := read(t, f.reader)
	for _, st := range snap.PRFacts[sandbox.DemoPRStopped].Statuses {
		if st.Context == inbox.InspectContext && st.FromGate {
			t.Errorf("the writer's status was read as the gate's: %+v", st)
		}
	}
	after := stepIDs(inbox.Derive(snap))
	if _, ok := after[id(inbox.KindNeedsReview, sandbox.DemoPRStopped)]; ok {
		t.Errorf("a writer's forged inspect status made PR 8 a needs-review card")
	}
	if inbox.AtHumanRung(snap.PRFacts[sandbox.DemoPRStopped]) {
		t.Errorf("a writer's forged inspect status puts PR 8 at the human rung")
	}
	if _, ok := after[id(inbox.KindNeedsReview, sandbox.DemoPRReview)]; !ok {
		t.Errorf("the gate's own human rung on PR 6 no longer makes a card")
	}
}
