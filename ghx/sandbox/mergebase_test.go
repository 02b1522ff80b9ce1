package sandbox

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestMergeBaseAgreesWithGoGit checks the sandbox's merge base (a walk of
// b's history stopping where a's begins, with go-git's MergeBase where that
// walk finds more than one) against go-git's on every pair of a graph with
// each shape a pull request's history takes: a branch off main, main moved
// on, main merged into the branch, a criss-cross merge, one side the
// other's ancestor, and an unrelated root.
func TestMergeBaseAgreesWithGoGit(t *testing.T) {
	t.Parallel()
	g := newMemoryGitStore()
	tree, err := g.writeTree(nil)
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	commits := map[string]plumbing.Hash{}
	commit := func(name string, parents ...string) {
		t.Helper()
		var ps []plumbing.Hash
		for _, p := range parents {
			ps = append(ps, commits[p])
		}
		when = when.Add(time.Minute)
		sig := signature{Name: "t", Email: "t@example.com", When: when}
		h, err := g.writeCommit(tree, ps, name, sig, sig)
		if err != nil {
			t.Fatal(err)
		}
		commits[name] = h
	}
	commit("root")
	commit("m1", "root")
	commit("b1", "m1") // a branch off main
	commit("m2", "m1") // main moves on
	commit("b2", "b1")
	commit("b3", "b2", "m2") // main merged into the branch
	commit("m3", "m2")
	commit("x1", "b2", "m3") // criss-cross: each side merges the other
	commit("y1", "m3", "b2")
	commit("x2", "x1")
	commit("y2", "y1")
	commit("other") // an unrelated root
	names := []string{"root", "m1", "b1", "m2", "b2", "b3", "m3", "x1", "y1", "x2", "y2", "other"}
	for _, a := range names {
		for _, b := range names {
			want := g.goGitMergeBase(commits[a], commits[b])
			if got := g.mergeBase(commits[a], commits[b]); got != want {
				t.Errorf("merge base of %s and %s: %s, go-git says %s", a, b, nameOf(commits, got), nameOf(commits, want))
			}
			if got := g.mergeBase(commits[a], commits[b]); got != want {
				t.Errorf("merge base of %s and %s asked again: %s, go-git says %s", a, b, nameOf(commits, got), nameOf(commits, want))
			}
		}
	}
}

func nameOf(commits map[string]plumbing.Hash, h plumbing.Hash) string {
	for n, c := range commits {
		if c == h {
			return n
		}
	}
	return fmt.Sprint(h)
}
