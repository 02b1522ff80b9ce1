package inboxread_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

func TestReadDerivesEveryKind(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	snap := read(t, f.reader)
	requests, counted, paths := f.wire.take()
	t.Logf("first Read of the demo: %d requests, %d counted against the rate limit", requests, counted)
	for _, p := range paths {
		t.Log("  ", p)
	}

	// The demo configures no bot identity: solo mode (SPEC §9).
	if snap.Viewer != "founder" || snap.Approver != "founder" || snap.IntegrationBranch != "dev" || !snap.SoloMode ||
		len(snap.BotLogins) != 0 {
		t.Errorf("settings from the demo's config.toml: viewer %q approver %q integration %q solo %v bots %v",
			snap.Viewer, snap.Approver, snap.IntegrationBranch, snap.SoloMode, snap.BotLogins)
	}
	got := stepsByKind(inbox.Derive(snap))
	want := map[inbox.Kind][]int{
		inbox.KindDecision:          {sandbox.DemoDecision, sandbox.DemoDecisionOneWay},
		inbox.KindReadyToShip:       {sandbox.DemoPRReady},
		inbox.KindNeedsReview:       {sandbox.DemoPRReview},
		inbox.KindReviewStopped:     {sandbox.DemoPRStopped},
		inbox.KindMergedWithoutShip: {sandbox.DemoStoryMergedNoShip},
		inbox.KindBugFixMerged:      {sandbox.DemoBug},
		inbox.KindReplaced:          {sandbox.DemoReplaced},
		inbox.KindAudit:             {sandbox.DemoPRAudit},
		inbox.KindNeedsReady:        {sandbox.DemoStoryNotReady},
		inbox.KindNeedsPlanReview:   {sandbox.DemoPRNeedsPlan},
	}
	for _, kind := range inbox.Kinds() {
		if !reflect.DeepEqual(got[kind], want[kind]) {
			t.Errorf("%s: steps on %v, want %v", kind, got[kind], want[kind])
		}
	}
	if gate := snap.PRFacts[sandbox.DemoPRReady].MergeGate; gate != "success" {
		t.Errorf("PR 4's merge gate = %q, want the newest finished pull_request_target run on its head, success", gate)
	}
	// Only items that can become a step are read in detail.
	for _, p := range paths {
		for _, n := range []string{"/issues/3/comments", "/issues/10/comments", "/issues/13/comments", "/pulls/10/reviews"} {
			if strings.HasSuffix(strings.SplitN(p, "?", 2)[0], n) {
				t.Errorf("read %s, which cannot become a step", p)
			}
		}
	}
}

// A person with read access cannot see others' permissions (GitHub's 403):
// the read still succeeds, and comments that need write access count for
// nothing, so PR 4 is not ready to ship from this account's view.
func TestReadAsReadOnlyAccount(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "reader")
	snap := read(t, f.reader)
	got := stepsByKind(inbox.Derive(snap))
	if len(got[inbox.KindReadyToShip]) != 0 {
		t.Errorf("ready to ship without a known write-access comment: %v", got[inbox.KindReadyToShip])
	}
	if len(got[inbox.KindNeedsReview]) != 1 || len(got[inbox.KindDecision]) != 2 {
		t.Errorf("the other steps should still be read: %v", got)
	}
}

// TestRefreshNothingChangedIsTwoFreeRequests: the since question and page 1
// of the workflow runs (whose runs name the repository, see
// TestRefreshReadsAllWhenTheRepositoryWasReplaced), side by side, each
// answered 304.
func TestRefreshNothingChangedIsTwoFreeRequests(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	ctx := context.Background()
	prev := read(t, f.reader)
	f.wire.take()
	for round := 1; round <= 2; round++ {
		snap, stats, err := f.reader.Refresh(ctx, prev, since(f.reader))
		if err != nil {
			t.Fatalf("Refresh: %v", err)
		}
		requests, counted, paths := f.wire.take()
		t.Logf("refresh %d with nothing changed: %d request(s), %d counted (wire: %v)", round, stats.Requests, stats.CountedAgainstLimit, paths)
		if stats != (inboxread.Stats{Requests: 2, CountedAgainstLimit: 0}) || requests != 2 || counted != 0 {
			t.Errorf("refresh %d: stats %+v, wire %d requests %d counted; want two requests answered 304", round, stats, requests, counted)
		}
		if !reflect.DeepEqual(snap, prev) {
			t.Errorf("refresh %d changed the snapshot though nothing changed", round)
		}
	}
}

func TestRefreshSeesAChange(t *testing.T) {
	t.Parallel()
	clock := &shiftingClock{}
	f := start(t, sandbox.Options{ShareSeed: true, Now: clock.now}, "founder")
	ctx := context.Background()
	prev := read(t, f.reader)
	f.wire.take()
	w := writer(t, f.base)
	counsel := inbox.CounselMarker + "\nOption 1 keeps the 2024 answers until the plan administrator confirms."
	if _, _, err := w.Issues.CreateComment(ctx, owner, repo, sandbox.DemoDecisionOneWay, &github.IssueComment{Body: github.String(counsel)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.Issues.AddLabelsToIssue(ctx, owner, repo, sandbox.DemoStoryMergedNoShip, []string{inbox.LabelMerged}); err != nil {
		t.Fatal(err)
	}

	snap, stats, err := f.reader.Refresh(ctx, prev, since(f.reader))
	if err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	requests, _, paths := f.wire.take()
	t.Logf("refresh after a comment and a label: %+v (wire: %v)", stats, paths)
	if stats.Requests != requests || stats.Requests > 5 {
		t.Errorf("refresh cost %d requests (wire %d); want the since query, the runs page and the changed Decision's comments only", stats.Requests, requests)
	}
	steps := stepIDs(inbox.Derive(snap))
	if st, ok := steps[id(inbox.KindDecision, sandbox.DemoDecisionOneWay)]; !ok || !strings.HasPrefix(st.Counsel.Raw(), "Option 1 keeps the 2024 answers") {
		t.Errorf("the new counsel on #%d was not picked up: %q", sandbox.DemoDecisionOneWay, st.Counsel)
	}
	if _, ok := steps[id(inbox.KindMergedWithoutShip, sandbox.DemoStoryMergedNoShip)]; ok {
		t.Errorf("#%d now carries %s and should no longer wait", sandbox.DemoStoryMergedNoShip, inbox.LabelMerged)
	}
	if !reflect.DeepEqual(snap.PRFacts, prev.PRFacts) {
		t.Error("a refresh of two issues re-read pull requests it did not need to")
	}

	// The versions just read were written in the second they were read in,
	// so a second write in that second would not have moved updated_at:
	// the next refresh asks for them again, conditionally, free of the
	// limit, and finds them the same.
	clock.advance(2 * time.Second)
	again, stats, err := f.reader.Refresh(ctx, snap, since(f.reader))
	if err != nil || stats.CountedAgainstLimit != 0 || !reflect.DeepEqual(withoutReadTimes(again), withoutReadTimes(snap)) {
		t.Errorf("second refresh: %+v, %v, changed %v; want free requests and no change", stats, err,
			!reflect.DeepEqual(withoutReadTimes(again), withoutReadTimes(snap)))
	}
	// Now every version was read after its second had passed: the same
	// questions again are two requests, each a 304.
	third, stats, err := f.reader.Refresh(ctx, again, since(f.reader))
	if err != nil || stats != (inboxread.Stats{Requests: 2}) || !reflect.DeepEqual(third, again) {
		t.Errorf("third refresh: %+v, %v, changed %v; want two free requests and no change", stats, err, !reflect.DeepEqual(third, again))
	}
}

// TestRefreshSeesASecondWriteInTheSameSecond: GitHub's updated_at counts
// whole seconds. A refresh that read an item between two writes in one
// second holds a version whose updated_at the second write did not move;
// the next refresh must still see the second write. (Before, an equal
// updated_at was taken as "nothing changed", and the inbox kept listing a
// Story its own housekeeping had just completed.)
func TestRefreshSeesASecondWriteInTheSameSecond(t *testing.T) {
	t.Parallel()
	// Both clocks stand still: GitHub's (the sandbox's Date and updated_at)
	// and the reader's own. With only GitHub's frozen, the reader would see
	// its own clock run on while GitHub's did not, an impossible world in
	// which a slow machine (more than a second between the reads) makes the
	// first version look settled.
	frozen := time.Now().UTC().Truncate(time.Second)
	now := func() time.Time { return frozen }
	f := start(t, sandbox.Options{ShareSeed: true, Now: now}, "founder")
	f.reader = inboxread.New(clientFor(t, f.base, "founder", f.wire), owner, repo, inboxread.Options{Logf: t.Logf, Now: now})
	ctx := context.Background()
	prev := read(t, f.reader)
	w := writer(t, f.base)
	n := sandbox.DemoStoryMergedNoShip
	if _, err := w.Issues.RemoveLabelForIssue(ctx, owner, repo, n, inbox.LabelLease); err != nil {
		t.Fatal(err)
	}
	mid, _, err := f.reader.Refresh(ctx, prev, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stepIDs(inbox.Derive(mid))[id(inbox.KindMergedWithoutShip, n)]; !ok {
		t.Fatalf("#%d should still wait after its lease alone was removed", n)
	}
	if _, _, err := w.Issues.AddLabelsToIssue(ctx, owner, repo, n, []string{inbox.LabelMerged}); err != nil {
		t.Fatal(err)
	}
	after, _, err := f.reader.Refresh(ctx, mid, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stepIDs(inbox.Derive(after))[id(inbox.KindMergedWithoutShip, n)]; ok {
		t.Errorf("#%d now carries %s, written in the same second as the read before; the refresh missed it", n, inbox.LabelMerged)
	}
}

func TestRereadSeesChange(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		kind   inbox.Kind
		number int
		stage  func(ctx context.Context, w *github.Client, srv *sandbox.Server) error
		gone   bool // the step no longer waits
	}{
		{"nothing changed", inbox.KindDecision, sandbox.DemoDecision, nil, false},
		{"inspect passed (a status, which no refresh sees)", inbox.KindNeedsReview, sandbox.DemoPRReview,
			func(ctx context.Context, w *github.Client, srv *sandbox.Server) error {
				_, _, err := w.Repositories.CreateStatus(ctx, owner, repo, srv.HeadSHA(sandbox.DemoPRReview),
					&github.RepoStatus{State: github.String("success"), Context: github.String(inbox.InspectContext), Description: github.String("rung A: converged")})
				return err
			}, true},
		{"story marked merged", inbox.KindMergedWithoutShip, sandbox.DemoStoryMergedNoShip,
			func(ctx context.Context, w *github.Client, _ *sandbox.Server) error {
				_, _, err := w.Issues.AddLabelsToIssue(ctx, owner, repo, sandbox.DemoStoryMergedNoShip, []string{inbox.LabelMerged})
				return err
			}, true},
		{"replaced issue closed", inbox.KindReplaced, sandbox.DemoReplaced,
			func(ctx context.Context, w *github.Client, _ *sandbox.Server) error {
				_, _, err := w.Issues.Edit(ctx, owner, repo, sandbox.DemoReplaced, &github.IssueRequest{State: github.String("closed")})
				return err
			}, true},
		{"new counsel on a Decision", inbox.KindDecision, sandbox.DemoDecision,
			func(ctx context.Context, w *github.Client, _ *sandbox.Server) error {
				_, _, err := w.Issues.CreateComment(ctx, owner, repo, sandbox.DemoDecision, &github.IssueComment{Body: github.String(inbox.CounselMarker + "\nTake option 2 after all.")})
				return err
			}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := start(t, sandbox.Options{ShareSeed: true}, "founder")
			ctx := context.Background()
			prev := read(t, f.reader)
			before, ok := stepIDs(inbox.Derive(prev))[id(c.kind, c.number)]
			if !ok {
				t.Fatalf("the demo has no %s step", id(c.kind, c.number))
			}
			if c.stage != nil {
				if err := c.stage(ctx, writer(t, f.base), f.srv); err != nil {
					t.Fatal(err)
				}
			}
			f.wire.take()
			snap, err := f.reader.Reread(ctx, c.kind, c.number, prev)
			if err != nil {
				t.Fatalf("Reread: %v", err)
			}
			requests, counted, _ := f.wire.take()
			t.Logf("reread of %s: %d requests, %d counted", before.ID(), requests, counted)
			after, still := stepIDs(inbox.Derive(snap))[before.ID()]
			if still == c.gone {
				t.Errorf("after the reread the step waits: %v, want %v", still, !c.gone)
			}
			changed, what := inbox.Reread(before, after)
			if changed != (c.stage != nil) {
				t.Errorf("inbox.Reread says changed=%v (%s); want %v", changed, what, c.stage != nil)
			}
			if c.stage == nil {
				// The item's own GET is new to the cache the first time;
				// read again, every request is a 304.
				if _, err := f.reader.Reread(ctx, c.kind, c.number, snap); err != nil {
					t.Fatal(err)
				}
				if requests, counted, paths := f.wire.take(); counted != 0 {
					t.Errorf("a second reread of an unchanged item cost %d of %d requests: %v", counted, requests, paths)
				}
			}
		})
	}
}

func TestRereadRefusesUnknownKind(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	if _, err := f.reader.Reread(context.Background(), inbox.Kind("nonsense"), 1, inbox.Snapshot{}); err == nil {
		t.Error("an unknown kind was read")
	}
}
