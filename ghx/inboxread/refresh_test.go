package inboxread_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// A "Ready to ship" comment on PR 6's head, whose merge gate is green,
// turns its card from "needs your review" into "ready to ship": the
// refresh re-reads that pull request's details and nothing else's.
func TestRefreshSeesAPullRequestChange(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	ctx := context.Background()
	prev := read(t, f.reader)
	f.wire.take()
	head := f.srv.HeadSHA(sandbox.DemoPRReview)
	body := fmt.Sprintf("Ready to ship: %s\n\nEvery gate passed on this head except the human pass.", head)
	if _, _, err := writer(t, f.base).Issues.CreateComment(ctx, owner, repo, sandbox.DemoPRReview, &github.IssueComment{Body: github.String(body)}); err != nil {
		t.Fatal(err)
	}
	snap, stats, err := f.reader.Refresh(ctx, prev, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	_, _, paths := f.wire.take()
	t.Logf("refresh after a comment on a pull request: %+v (wire: %v)", stats, paths)
	steps := stepIDs(inbox.Derive(snap))
	if _, ok := steps[id(inbox.KindReadyToShip, sandbox.DemoPRReview)]; !ok {
		t.Errorf("#%d should now be ready to ship: %v", sandbox.DemoPRReview, stepsByKind(inbox.Derive(snap)))
	}
	if _, ok := steps[id(inbox.KindNeedsReview, sandbox.DemoPRReview)]; ok {
		t.Errorf("#%d is one card, not two", sandbox.DemoPRReview)
	}
	// Eight for the pull request's facts, and the ledger's root, where a
	// review record of its head would be (a ledger write moves no
	// updated_at, so it is asked whenever the pull request is read again).
	if stats.Requests > 9 {
		t.Errorf("refresh of one pull request cost %d requests", stats.Requests)
	}
}

// The screen starts from the cached last read; a new Reader refreshing it
// through the same HTTP cache folder asks its two questions (what changed,
// and page 1 of the workflow runs, which also names the repository), each
// answered 304.
func TestRefreshFromCacheInANewSession(t *testing.T) {
	t.Parallel()
	_, _, base := startPlain(t)
	httpCache, inboxCache := t.TempDir(), t.TempDir()
	ctx := context.Background()

	first := inboxread.New(clientWithCache(t, base, httpCache, nil), owner, repo, inboxread.Options{})
	snap := read(t, first)
	if err := first.SaveCache(inboxCache, snap.Viewer, snap, first.LastReadAt()); err != nil {
		t.Fatal(err)
	}

	w := &wire{next: http.DefaultTransport}
	second := inboxread.New(clientWithCache(t, base, httpCache, w), owner, repo, inboxread.Options{})
	cached, readAt, err := second.LoadCache(inboxCache, "founder")
	if err != nil {
		t.Fatal(err)
	}
	got, stats, err := second.Refresh(ctx, cached, readAt)
	if err != nil {
		t.Fatal(err)
	}
	requests, counted, _ := w.take()
	if stats != (inboxread.Stats{Requests: 2}) || requests != 2 || counted != 0 {
		t.Errorf("refresh of the cached read: %+v, wire %d/%d; want two free requests", stats, requests, counted)
	}
	if len(inbox.Derive(got)) != len(inbox.Derive(snap)) {
		t.Error("the refreshed cache derives different steps")
	}
}
