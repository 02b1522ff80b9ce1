package inboxread_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/inbox"
)

// process is one run of aayu: a new client and Reader over the same
// on-disk HTTP cache and inbox cache, as a second `aayu inbox` would have.
type process struct {
	wire   *wire
	reader *inboxread.Reader
}

func newProcess(t *testing.T, base, httpCache string) process {
	t.Helper()
	w := &wire{next: http.DefaultTransport}
	return process{wire: w, reader: inboxread.New(clientWithCache(t, base, httpCache, w), owner, repo, inboxread.Options{Logf: t.Logf})}
}

// coldThenWarm reads cold in one process, keeps the read, and starts a
// second process warm from it.
func coldThenWarm(t *testing.T, base, dir string) (cold, warm inbox.Snapshot, stats inboxread.Stats) {
	t.Helper()
	httpCache, inboxCache := filepath.Join(dir, "http"), filepath.Join(dir, "inbox")
	first := newProcess(t, base, httpCache)
	cold = read(t, first.reader)
	if err := first.reader.SaveCache(inboxCache, "founder", cold, first.reader.LastReadAt()); err != nil {
		t.Fatal(err)
	}
	second := newProcess(t, base, httpCache)
	cached, at, err := second.reader.LoadCache(inboxCache, "founder")
	if err != nil {
		t.Fatal(err)
	}
	warm, stats, err = second.reader.Warm(context.Background(), cached, at)
	if err != nil {
		t.Fatalf("Warm: %v", err)
	}
	requests, counted, paths := second.wire.take()
	if requests != stats.Requests || counted != stats.CountedAgainstLimit {
		t.Errorf("Warm says %+v, the wire saw %d requests, %d counted: %v", stats, requests, counted, paths)
	}
	return cold, warm, stats
}

func TestWarmStartCostDoesNotGrowWithItems(t *testing.T) {
	t.Parallel()
	var costs []inboxread.Stats
	for _, scale := range []int{0, 300} {
		_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, Scale: scale})
		cold, warm, stats := coldThenWarm(t, base, t.TempDir())
		if stats.Requests > 2 || stats.CountedAgainstLimit != 0 {
			t.Errorf("scale %d: a warm start with nothing changed cost %+v, want at most 2 requests and none counted", scale, stats)
		}
		if got, want := stepIDs(inbox.Derive(warm)), stepIDs(inbox.Derive(cold)); len(got) != len(want) {
			t.Errorf("scale %d: warm start shows %d cards, the cold read %d", scale, len(got), len(want))
		}
		costs = append(costs, stats)
	}
	if costs[0] != costs[1] {
		t.Errorf("the warm start's cost grew with the number of items: %+v at scale 0, %+v at scale 300", costs[0], costs[1])
	}
}

func TestWarmStartReadsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true})
	dir := t.TempDir()
	cold := coldRead(t, base, dir)
	w := writer(t, base)
	ctx := context.Background()
	if _, _, err := w.Issues.CreateComment(ctx, owner, repo, sandbox.DemoDecision, &github.IssueComment{Body: github.String(inbox.CounselMarker + "\nOption 2 after all.")}); err != nil {
		t.Fatal(err)
	}
	second := newProcess(t, base, filepath.Join(dir, "http"))
	cached, at, err := second.reader.LoadCache(filepath.Join(dir, "inbox"), "founder")
	if err != nil {
		t.Fatal(err)
	}
	warm, stats, err := second.reader.Warm(ctx, cached, at)
	if err != nil {
		t.Fatal(err)
	}
	if len(warm.IssueComments[sandbox.DemoDecision]) != len(cold.IssueComments[sandbox.DemoDecision])+1 {
		t.Errorf("the warm start missed the new comment on #%d", sandbox.DemoDecision)
	}
	// The two questions, the decision again, its comments, and at most
	// one new commenter's permission: never the whole inbox.
	if stats.Requests > 5 {
		t.Errorf("a warm start after one comment cost %+v", stats)
	}
}

func TestWarmStartSeesAWorkflowsStatusWithoutAnUpdatedAt(t *testing.T) {
	t.Parallel()
	base, dir, pr := workflowSetsAStatus(t)
	second := newProcess(t, base, filepath.Join(dir, "http"))
	cached, at, err := second.reader.LoadCache(filepath.Join(dir, "inbox"), "founder")
	if err != nil {
		t.Fatal(err)
	}
	warm, _, err := second.reader.Warm(context.Background(), cached, at)
	if err != nil {
		t.Fatal(err)
	}
	if !hasStatus(warm, pr) {
		t.Errorf("the warm start did not read #%d's statuses again after a workflow ran: %+v", pr, warm.PRFacts[pr].Statuses)
	}
}

// The refresh (`r`) asks the same runs page as the warm start, so it reads
// the open pull requests' facts again when a workflow ran too; else the
// page's new ETag, kept on disk, would answer the next warm start 304 and
// hide the status from it.
func TestRefreshSeesAWorkflowsStatusWithoutAnUpdatedAt(t *testing.T) {
	t.Parallel()
	base, dir, pr := workflowSetsAStatus(t)
	p := newProcess(t, base, filepath.Join(dir, "http"))
	cached, at, err := p.reader.LoadCache(filepath.Join(dir, "inbox"), "founder")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := p.reader.Refresh(context.Background(), cached, at)
	if err != nil {
		t.Fatal(err)
	}
	if !hasStatus(got, pr) {
		t.Errorf("the refresh did not read #%d's statuses again after a workflow ran: %+v", pr, got.PRFacts[pr].Statuses)
	}
}

// hasStatus says whether snap holds pull request pr's status warm/check.
func hasStatus(snap inbox.Snapshot, pr int) bool {
	for _, st := range snap.PRFacts[pr].Statuses {
		if st.Context == "warm/check" {
			return true
		}
	}
	return false
}

// workflowSetsAStatus reads cold and keeps the read under dir, then has a
// workflow run and set a status "warm/check" on an open pull request's
// head: neither moves an updated_at. It returns the sandbox's base URL,
// dir and the pull request's number.
func workflowSetsAStatus(t *testing.T) (base, dir string, pr int) {
	t.Helper()
	var (
		mu    sync.Mutex
		later time.Duration
	)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return time.Now().Add(later) }
	_, _, base = conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, Now: clock})
	dir = t.TempDir()
	cold := coldRead(t, base, dir)
	var open inbox.PullRequest
	for _, p := range cold.PullRequests {
		if p.Open() && p.HeadSHA != "" {
			open = p
			break
		}
	}
	if open.Number == 0 {
		t.Fatal("the demo has no open pull request")
	}
	bot := clientFor(t, base, "agent-bot", nil)
	ctx := context.Background()
	if _, err := bot.Actions.CreateWorkflowDispatchEventByFileName(ctx, owner, repo, inboxread.GateFile, github.CreateWorkflowDispatchEventRequest{Ref: "dev"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	later = 5 * time.Second // the dispatched run shows once queued
	mu.Unlock()
	if _, _, err := bot.Repositories.CreateStatus(ctx, owner, repo, open.HeadSHA, &github.RepoStatus{
		State: github.String("success"), Context: github.String("warm/check"), Description: github.String("set by a workflow")}); err != nil {
		t.Fatal(err)
	}
	return base, dir, open.Number
}

// coldRead reads cold and keeps the read under dir, as a first process.
func coldRead(t *testing.T, base, dir string) inbox.Snapshot {
	t.Helper()
	first := newProcess(t, base, filepath.Join(dir, "http"))
	snap := read(t, first.reader)
	if err := first.reader.SaveCache(filepath.Join(dir, "inbox"), "founder", snap, first.reader.LastReadAt()); err != nil {
		t.Fatal(err)
	}
	return snap
}
