package inboxread_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// decisions are the numbers of snap's Decision steps.
func decisions(snap inbox.Snapshot) map[int]bool {
	out := map[int]bool{}
	for _, n := range stepsByKind(inbox.Derive(snap))[inbox.KindDecision] {
		out[n] = true
	}
	return out
}

// closeDecision closes one of snap's Decisions as the founder and returns
// its number.
func closeDecision(t *testing.T, base string, snap inbox.Snapshot) int {
	t.Helper()
	var n int
	for d := range decisions(snap) {
		n = d
		break
	}
	if n == 0 {
		t.Fatal("the demo has no Decision to close")
	}
	if _, _, err := clientFor(t, base, "founder", nil).Issues.Edit(context.Background(), owner, repo, n,
		&github.IssueRequest{State: github.String("closed")}); err != nil {
		t.Fatal(err)
	}
	return n
}

// After the repository was replaced under the same name (here the
// sandbox's reset, as a repository deleted and created again), a refresh
// does not trust "what changed since": the re-opened Decision's updated_at
// is older than the last read, so the since question never names it. The
// repository's new id sends the refresh to a full read, and the Decision
// is back.
func TestRefreshReadsAllWhenTheRepositoryWasReplaced(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	ctx := context.Background()
	first := read(t, f.reader)
	closed := closeDecision(t, f.base, first)
	mid, _, err := f.reader.Refresh(ctx, first, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	if decisions(mid)[closed] {
		t.Fatalf("the refresh still shows Decision #%d after it was closed", closed)
	}
	if err := f.srv.Reset(); err != nil {
		t.Fatal(err)
	}
	after, _, err := f.reader.Refresh(ctx, mid, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	if !decisions(after)[closed] {
		t.Errorf("after the reset the refresh does not show Decision #%d again: %v", closed, stepsByKind(inbox.Derive(after)))
	}
	if after.Repository == first.Repository || after.Repository.ID == 0 {
		t.Errorf("the snapshot's repository %+v was not read again (before the reset: %+v)", after.Repository, first.Repository)
	}
	// The next refresh is an ordinary one again: nothing changed, nothing
	// counted.
	again, stats, err := f.reader.Refresh(ctx, after, since(f.reader))
	if err != nil || stats.CountedAgainstLimit != 0 || len(inbox.Derive(again)) != len(inbox.Derive(after)) {
		t.Errorf("the refresh after the full read: %+v, %v", stats, err)
	}
}

// A new process starting warm from a read kept before the reset reads
// everything instead of refreshing the kept read.
func TestWarmReadsAllWhenTheRepositoryWasReplaced(t *testing.T) {
	t.Parallel()
	srv, _, base := startPlain(t)
	dir := t.TempDir()
	httpCache, inboxCache := filepath.Join(dir, "http"), filepath.Join(dir, "inbox")
	first := newProcess(t, base, httpCache)
	cold := read(t, first.reader)
	closed := closeDecision(t, base, cold)
	kept, _, err := first.reader.Refresh(context.Background(), cold, since(first.reader))
	if err != nil {
		t.Fatal(err)
	}
	if err := first.reader.SaveCache(inboxCache, "founder", kept, first.reader.LastReadAt()); err != nil {
		t.Fatal(err)
	}
	if err := srv.Reset(); err != nil {
		t.Fatal(err)
	}
	second := newProcess(t, base, httpCache)
	cached, at, err := second.reader.LoadCache(inboxCache, "founder")
	if err != nil {
		t.Fatal(err)
	}
	warm, _, err := second.reader.Warm(context.Background(), cached, at)
	if err != nil {
		t.Fatal(err)
	}
	if !decisions(warm)[closed] {
		t.Errorf("the warm start after the reset does not show Decision #%d again", closed)
	}
}

// A snapshot kept by an aayu that did not record the repository is not
// known to be of this one: the refresh reads everything once.
func TestRefreshReadsAllWhenTheSnapshotNamesNoRepository(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	first := read(t, f.reader)
	old := first
	old.Repository = inbox.RepoIdentity{}
	got, _, err := f.reader.Refresh(context.Background(), old, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	if got.Repository != first.Repository {
		t.Errorf("the refresh kept a snapshot of no known repository: %+v", got.Repository)
	}
}

// A warm start in a repository with workflow runs asks two questions, the
// since list and page 1 of the runs, both 304s: the runs name their
// repository's id, so the repository itself is not asked for.
func TestWarmStartWithRunsIsTwoFreeRequests(t *testing.T) {
	t.Parallel()
	_, _, base := startPlain(t)
	dir := t.TempDir()
	httpCache, inboxCache := filepath.Join(dir, "http"), filepath.Join(dir, "inbox")
	first := newProcess(t, base, httpCache)
	cold := read(t, first.reader)
	if err := first.reader.SaveCache(inboxCache, "founder", cold, first.reader.LastReadAt()); err != nil {
		t.Fatal(err)
	}
	second := newProcess(t, base, httpCache)
	cached, at, err := second.reader.LoadCache(inboxCache, "founder")
	if err != nil {
		t.Fatal(err)
	}
	if _, stats, err := second.reader.Warm(context.Background(), cached, at); err != nil || stats != (inboxread.Stats{Requests: 2}) {
		t.Fatalf("warm start: %+v, %v; want two requests, none counted", stats, err)
	}
	_, counted, paths := second.wire.take()
	if len(paths) != 2 || counted != 0 || asksRepository(paths, repo) {
		t.Errorf("the warm start asked %v (%d counted); want the since list and the runs page, both 304s", paths, counted)
	}
}

// asksRepository says whether paths hold a read of the repository object
// of name itself.
func asksRepository(paths []string, name string) bool {
	for _, p := range paths {
		if strings.EqualFold(p, "GET /repos/"+owner+"/"+name) {
			return true
		}
	}
	return false
}

// freshProcess is a process reading acme/fresh, a repository where no
// workflow ever ran: its runs page names no repository.
func freshProcess(t *testing.T, base, httpCache string) process {
	t.Helper()
	w := &wire{next: http.DefaultTransport}
	return process{wire: w, reader: inboxread.New(clientWithCache(t, base, httpCache, w), owner, sandbox.FreshRepoName, inboxread.Options{Logf: t.Logf})}
}

// Where no workflow ran, the runs page says nothing of which repository
// this is, so the warm start and the refresh still ask the repository
// itself (a third 304); and a reset there is still caught: the kept read
// is of another repository, so everything is read again.
func TestWarmAsksTheRepositoryWhenNoWorkflowRan(t *testing.T) {
	t.Parallel()
	srv, _, base := startPlain(t)
	dir := t.TempDir()
	httpCache, inboxCache := filepath.Join(dir, "http"), filepath.Join(dir, "inbox")
	ctx := context.Background()
	first := freshProcess(t, base, httpCache)
	cold := read(t, first.reader)
	if cold.Repository.ID == 0 {
		t.Fatalf("the cold read of %s kept no repository id", sandbox.FreshRepoName)
	}
	if err := first.reader.SaveCache(inboxCache, "founder", cold, first.reader.LastReadAt()); err != nil {
		t.Fatal(err)
	}
	first.wire.take()
	if _, stats, err := first.reader.Refresh(ctx, cold, since(first.reader)); err != nil || stats != (inboxread.Stats{Requests: 3}) {
		t.Errorf("refresh with no runs: %+v, %v; want three requests, none counted", stats, err)
	}
	if _, _, paths := first.wire.take(); !asksRepository(paths, sandbox.FreshRepoName) {
		t.Errorf("the refresh with no runs did not ask which repository this is: %v", paths)
	}

	second := freshProcess(t, base, httpCache)
	cached, at, err := second.reader.LoadCache(inboxCache, "founder")
	if err != nil {
		t.Fatal(err)
	}
	warm, stats, err := second.reader.Warm(ctx, cached, at)
	if err != nil || stats != (inboxread.Stats{Requests: 3}) || warm.Repository != cold.Repository {
		t.Errorf("warm start with no runs: %+v, %v, repository %+v; want three requests, none counted, the same repository", stats, err, warm.Repository)
	}
	if _, _, paths := second.wire.take(); !asksRepository(paths, sandbox.FreshRepoName) {
		t.Errorf("the warm start with no runs did not ask which repository this is: %v", paths)
	}

	if err := srv.Reset(); err != nil {
		t.Fatal(err)
	}
	third := freshProcess(t, base, httpCache)
	after, _, err := third.reader.Warm(ctx, cached, at)
	if err != nil {
		t.Fatal(err)
	}
	if after.Repository.ID == 0 || after.Repository.ID == cold.Repository.ID {
		t.Errorf("after the reset the warm start kept the old read (repository %+v, before %+v)", after.Repository, cold.Repository)
	}
}
