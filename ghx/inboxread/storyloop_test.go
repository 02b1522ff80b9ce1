package inboxread_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
)

// TestInboxReadsTheStoryLoopsSteps: the demo's Story 17 has no Ready
// snapshot and PR 18 touches the never layer L04 with no plan review, so a
// full read makes both cards, and no Story whose snapshot is on the ledger
// makes one. Once the goal is frozen and the plan's bypass recorded on the
// ledger (each with its Story changed, as aayu ready labels it and aayu
// plan comments on it), a refresh drops both, asking nothing when only a
// comment on a pull request changed.
func TestInboxReadsTheStoryLoopsSteps(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	ctx := context.Background()
	prev := read(t, f.reader)
	kinds := stepsByKind(inbox.Derive(prev))
	if got := kinds[inbox.KindNeedsReady]; !slices.Equal(got, []int{sandbox.DemoStoryNotReady}) {
		t.Errorf("Stories waiting for Ready %v, want only #%d (every other open Story's snapshot is on the ledger; #13 is replaced)", got, sandbox.DemoStoryNotReady)
	}
	if got := kinds[inbox.KindNeedsPlanReview]; !slices.Equal(got, []int{sandbox.DemoPRNeedsPlan}) {
		t.Errorf("pull requests waiting for a plan review %v, want only #%d", got, sandbox.DemoPRNeedsPlan)
	}
	if got := prev.NeverLayers[sandbox.DemoPRNeedsPlan]; !slices.Equal(got, []string{"L04"}) {
		t.Errorf("#%d's never layers %v, want [L04] (policy/limits.go)", sandbox.DemoPRNeedsPlan, got)
	}
	for _, n := range []int{sandbox.DemoStoryReady, sandbox.DemoStoryReview, sandbox.DemoStoryStopped, sandbox.DemoBug} {
		if !prev.ReadySnapshots[n] {
			t.Errorf("#%d's Ready snapshot on the ledger was not read", n)
		}
	}

	// A comment on a pull request changes no story-loop fact: the refresh
	// asks nothing about the ledger or the files.
	f.wire.take()
	if _, _, err := writer(t, f.base).Issues.CreateComment(ctx, owner, repo, sandbox.DemoPRNeedsPlan, &github.IssueComment{Body: github.String("Looks small.")}); err != nil {
		t.Fatal(err)
	}
	snap, _, err := f.reader.Refresh(ctx, prev, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	_, _, paths := f.wire.take()
	for _, p := range paths {
		if strings.Contains(p, "/files") || strings.Contains(p, "git/trees") || strings.Contains(p, "LAYERS.md") {
			t.Errorf("a comment on a pull request read %s", p)
		}
	}

	// Freeze Story 17 and record its plan's bypass, as aayu ready and aayu
	// plan land them, then change the Story as they do.
	founder := clientFor(t, f.base, "founder", nil)
	record := pass.PlanRecord{Story: sandbox.DemoStoryNotReady, Layers: []string{"L04"}, Kind: pass.KindSoloBypass, Reviewer: pass.NoPlanReviewer,
		RecordedBy: "founder", RecordedAt: "2026-12-07T08:00:00Z", CommentURL: fmt.Sprintf("%s/acme/benefits/issues/%d#issuecomment-1", f.base, sandbox.DemoStoryNotReady), Note: pass.PlanBypassNote}
	if _, err := ghx.CommitFiles(ctx, founder, owner, repo, "ledger", map[string][]byte{
		fmt.Sprintf("specs/%d/ready.md", sandbox.DemoStoryNotReady): []byte("# Ready: story 17\n"),
		pass.PlanRecordPath(sandbox.DemoStoryNotReady):              record.Encode(),
	}, "ledger: Ready and plan bypass for story 17", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := founder.Issues.AddLabelsToIssue(ctx, owner, repo, sandbox.DemoStoryNotReady, []string{"status:ready"}); err != nil {
		t.Fatal(err)
	}
	after, _, err := f.reader.Refresh(ctx, snap, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	kinds = stepsByKind(inbox.Derive(after))
	if len(kinds[inbox.KindNeedsReady]) != 0 || len(kinds[inbox.KindNeedsPlanReview]) != 0 {
		t.Errorf("after the freeze and the plan's bypass: Ready %v, plan %v; want neither card", kinds[inbox.KindNeedsReady], kinds[inbox.KindNeedsPlanReview])
	}
	// A full read of the same ledger says the same.
	again := stepsByKind(inbox.Derive(read(t, inboxread.New(clientFor(t, f.base, "founder", nil), owner, repo, inboxread.Options{}))))
	if len(again[inbox.KindNeedsReady]) != 0 || len(again[inbox.KindNeedsPlanReview]) != 0 {
		t.Errorf("a full read after the freeze: Ready %v, plan %v; want neither card", again[inbox.KindNeedsReady], again[inbox.KindNeedsPlanReview])
	}
}

// TestRereadOfAStoryLoopCardReadsTheLedgerAgain: a Story frozen on the
// ledger alone (no label yet, as a run stopped before it) is seen by the
// re-read of its card, which reads the ledger's specs again.
func TestRereadOfAStoryLoopCardReadsTheLedgerAgain(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	ctx := context.Background()
	prev := read(t, f.reader)
	founder := clientFor(t, f.base, "founder", nil)
	if _, err := ghx.CommitFiles(ctx, founder, owner, repo, "ledger", map[string][]byte{
		fmt.Sprintf("specs/%d/ready.md", sandbox.DemoStoryNotReady): []byte("# Ready: story 17\n"),
	}, "ledger: Ready for story 17", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	snap, err := f.reader.Reread(ctx, inbox.KindNeedsReady, sandbox.DemoStoryNotReady, prev)
	if err != nil {
		t.Fatal(err)
	}
	if got := stepsByKind(inbox.Derive(snap))[inbox.KindNeedsReady]; len(got) != 0 {
		t.Errorf("after the freeze landed, the re-read still shows Stories waiting for Ready: %v", got)
	}
	if got := stepsByKind(inbox.Derive(snap))[inbox.KindNeedsPlanReview]; !slices.Equal(got, []int{sandbox.DemoPRNeedsPlan}) {
		t.Errorf("the re-read lost #%d's plan card: %v", sandbox.DemoPRNeedsPlan, got)
	}
}
