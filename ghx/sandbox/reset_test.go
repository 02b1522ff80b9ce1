package sandbox_test

import (
	"context"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestResetIsAnotherRepository: a reset is what deleting the repository
// and creating it again is on GitHub — the same names and numbers, but a
// new repository id and new ids for every issue, none an old one used —
// so a client that kept the old repository can tell it is gone, also
// across a restart of the sandbox on the same state folder.
func TestResetIsAnotherRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	snapshot := func(gh *github.Client) (int64, map[int]int64) {
		t.Helper()
		r, _, err := gh.Repositories.Get(ctx, sandbox.RepoOwner, sandbox.RepoName)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int]int64{}
		list, _, err := gh.Issues.ListByRepo(ctx, sandbox.RepoOwner, sandbox.RepoName, &github.IssueListByRepoOptions{State: "all", ListOptions: github.ListOptions{PerPage: 100}})
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range list {
			ids[is.GetNumber()] = is.GetID()
		}
		return r.GetID(), ids
	}
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: dir})
	gh := client(t, base, "sandbox-founder")
	repoBefore, before := snapshot(gh)
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	repoAfter, after := snapshot(gh)
	if repoAfter == repoBefore {
		t.Errorf("the reset kept the repository's id %d", repoBefore)
	}
	if len(after) != len(before) {
		t.Fatalf("the reset seeded %d items, the first seed %d", len(after), len(before))
	}
	used := map[int64]bool{}
	for _, id := range before {
		used[id] = true
	}
	for n, id := range after {
		if used[id] {
			t.Errorf("#%d's id %d after the reset is one the old repository used", n, id)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Another reset after a restart moves on again.
	again, _, base2 := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: dir})
	if id, _ := snapshot(client(t, base2, "sandbox-founder")); id != repoAfter {
		t.Errorf("a restart changed the repository's id from %d to %d", repoAfter, id)
	}
	if err := again.Reset(); err != nil {
		t.Fatal(err)
	}
	if id, _ := snapshot(client(t, base2, "sandbox-founder")); id == repoAfter || id == repoBefore {
		t.Errorf("the second reset reused repository id %d", id)
	}
}

// TestResetFromAnotherProcessIsServed: `aayu sandbox --reset` run while
// `aayu sandbox` serves the same state folder. The running sandbox serves
// the new repository from its next request — the closed Decision open
// again, the new repository id — and never saves the old one over it,
// not even when it stops.
func TestResetFromAnotherProcessIsServed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	running, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: dir})
	gh := client(t, base, "sandbox-founder")
	before, _, err := gh.Repositories.Get(ctx, sandbox.RepoOwner, sandbox.RepoName)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Issues.Edit(ctx, sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoDecision, &github.IssueRequest{State: github.String("closed")}); err != nil {
		t.Fatal(err)
	}

	other, err := sandbox.New(sandbox.Options{ShareSeed: true, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}

	after, _, err := gh.Repositories.Get(ctx, sandbox.RepoOwner, sandbox.RepoName)
	if err != nil {
		t.Fatal(err)
	}
	if after.GetID() == before.GetID() {
		t.Errorf("the running sandbox still serves repository %d after the reset", before.GetID())
	}
	is, _, err := gh.Issues.Get(ctx, sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoDecision)
	if err != nil || is.GetState() != "open" {
		t.Errorf("Decision #%d after the reset: %s, %v; want it open again", sandbox.DemoDecision, is.GetState(), err)
	}
	if err := running.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := sandbox.New(sandbox.Options{ShareSeed: true, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	url, err := again.Start("")
	if err != nil {
		t.Fatal(err)
	}
	kept, _, err := client(t, url, "sandbox-founder").Repositories.Get(ctx, sandbox.RepoOwner, sandbox.RepoName)
	if err != nil || kept.GetID() != after.GetID() {
		t.Errorf("after the running sandbox stopped, the folder holds repository %d (%v); want the reset's %d", kept.GetID(), err, after.GetID())
	}
}
