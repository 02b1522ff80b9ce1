package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/memory"
)

// gitStore holds the demo repository's real git objects and refs. Object
// ids are git's own SHA-1s, so `git --git-dir STATE/benefits.git show
// ledger:…` reads what the API wrote.
type gitStore struct {
	st storage.Storer

	// commits keeps decoded commits: objects never change, and walking
	// history (merges, compares) decodes the same commits again and again.
	mu      sync.Mutex
	commits map[plumbing.Hash]*object.Commit
	// bases keeps merge bases by the pair of commits: fixed for the pair,
	// and a pull request's files ask again on every read, each time
	// walking both histories (a sixth of an inbox read at scale).
	bases map[[2]plumbing.Hash]plumbing.Hash
	// diffs keeps tree diffs by the pair of trees, for the same reason:
	// each read of a pull request's files diffs the same two trees again.
	diffs map[[2]plumbing.Hash][]fileDiff
	// reachable keeps, by commit, the set of commits reachable from it
	// (itself included): a base branch's head is asked about once per
	// pull request, and each walk of its history decoded every commit.
	reachable map[plumbing.Hash]map[plumbing.Hash]bool
}

func newMemoryGitStore() *gitStore {
	g := &gitStore{st: memory.NewStorage()}
	_ = g.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName("main")))
	return g
}

func initGitStore(dir string) (*gitStore, error) {
	repo, err := git.PlainInit(dir, true)
	if err != nil {
		return nil, fmt.Errorf("creating the sandbox git repository in %s: %w", dir, err)
	}
	g := &gitStore{st: repo.Storer}
	if err := g.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName("main"))); err != nil {
		return nil, fmt.Errorf("pointing HEAD at main: %w", err)
	}
	return g, nil
}

func openGitStore(dir string) (*gitStore, error) {
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("opening the sandbox git repository in %s (run reset to start over): %w", dir, err)
	}
	return &gitStore{st: repo.Storer}, nil
}

var errNoObject = errors.New("object does not exist")

func (g *gitStore) writeBlob(b []byte) (plumbing.Hash, error) {
	obj := g.st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(b); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return g.st.SetEncodedObject(obj)
}

func (g *gitStore) blob(h plumbing.Hash) ([]byte, error) {
	b, err := object.GetBlob(g.st, h)
	if err != nil {
		return nil, errNoObject
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func (g *gitStore) tree(h plumbing.Hash) (*object.Tree, error) {
	t, err := object.GetTree(g.st, h)
	if err != nil {
		return nil, errNoObject
	}
	return t, nil
}

func (g *gitStore) commit(h plumbing.Hash) (*object.Commit, error) {
	g.mu.Lock()
	c, ok := g.commits[h]
	g.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := object.GetCommit(g.st, h)
	if err != nil {
		return nil, errNoObject
	}
	g.mu.Lock()
	if g.commits == nil {
		g.commits = map[plumbing.Hash]*object.Commit{}
	}
	g.commits[h] = c
	g.mu.Unlock()
	return c, nil
}

// writeTree encodes entries in git's order (a tree sorts as name + "/").
func (g *gitStore) writeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	sort.Slice(entries, func(i, j int) bool { return treeSortKey(entries[i]) < treeSortKey(entries[j]) })
	t := &object.Tree{Entries: entries}
	obj := g.st.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return g.st.SetEncodedObject(obj)
}

func treeSortKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

type signature struct {
	Name, Email string
	When        time.Time
}

func (g *gitStore) writeCommit(tree plumbing.Hash, parents []plumbing.Hash, msg string, author, committer signature) (plumbing.Hash, error) {
	c := &object.Commit{
		Author:       object.Signature{Name: author.Name, Email: author.Email, When: author.When},
		Committer:    object.Signature{Name: committer.Name, Email: committer.Email, When: committer.When},
		Message:      msg,
		TreeHash:     tree,
		ParentHashes: parents,
	}
	obj := g.st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return g.st.SetEncodedObject(obj)
}

// treeChange is one path to set or delete in applyTree.
type treeChange struct {
	Path   string
	Mode   filemode.FileMode
	Hash   plumbing.Hash
	Delete bool
}

// applyTree returns the tree that is base with changes applied; paths with
// "/" create or edit subtrees, and deleting a missing path is an error.
func (g *gitStore) applyTree(base plumbing.Hash, changes []treeChange) (plumbing.Hash, error) {
	entries := map[string]object.TreeEntry{}
	if !base.IsZero() {
		t, err := g.tree(base)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("base tree %s: %w", base, err)
		}
		for _, e := range t.Entries {
			entries[e.Name] = e
		}
	}
	nested := map[string][]treeChange{}
	var order []string
	for _, c := range changes {
		first, rest, deep := strings.Cut(c.Path, "/")
		if !deep {
			if c.Delete {
				if _, ok := entries[first]; !ok {
					return plumbing.ZeroHash, fmt.Errorf("path %q does not exist", c.Path)
				}
				delete(entries, first)
				continue
			}
			entries[first] = object.TreeEntry{Name: first, Mode: c.Mode, Hash: c.Hash}
			continue
		}
		if _, seen := nested[first]; !seen {
			order = append(order, first)
		}
		c.Path = rest
		nested[first] = append(nested[first], c)
	}
	for _, dir := range order {
		sub := plumbing.ZeroHash
		if e, ok := entries[dir]; ok && e.Mode == filemode.Dir {
			sub = e.Hash
		}
		h, err := g.applyTree(sub, nested[dir])
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h == emptyTreeHash {
			delete(entries, dir)
			continue
		}
		entries[dir] = object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h}
	}
	list := make([]object.TreeEntry, 0, len(entries))
	for _, e := range entries {
		list = append(list, e)
	}
	return g.writeTree(list)
}

// emptyTreeHash is git's well-known id of the empty tree.
var emptyTreeHash = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// flatEntry is one blob in a recursively listed tree.
type flatEntry struct {
	Path string
	Mode filemode.FileMode
	Hash plumbing.Hash
}

// walk lists every entry of a tree, subtrees included, in git order.
func (g *gitStore) walk(h plumbing.Hash, prefix string, withTrees bool, out *[]flatEntry) error {
	t, err := g.tree(h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		p := prefix + e.Name
		if e.Mode == filemode.Dir {
			if withTrees {
				*out = append(*out, flatEntry{Path: p, Mode: e.Mode, Hash: e.Hash})
			}
			if err := g.walk(e.Hash, p+"/", withTrees, out); err != nil {
				return err
			}
			continue
		}
		*out = append(*out, flatEntry{Path: p, Mode: e.Mode, Hash: e.Hash})
	}
	return nil
}

// ref returns the tip of refs/NAME ("heads/main") or ZeroHash.
func (g *gitStore) ref(name string) plumbing.Hash {
	r, err := g.st.Reference(plumbing.ReferenceName("refs/" + name))
	if err != nil {
		return plumbing.ZeroHash
	}
	return r.Hash()
}

func (g *gitStore) setRef(name string, h plumbing.Hash) error {
	return g.st.SetReference(plumbing.NewHashReference(plumbing.ReferenceName("refs/"+name), h))
}

func (g *gitStore) branch(name string) plumbing.Hash { return g.ref("heads/" + name) }

// resolve turns a branch name, "heads/x", or a full or abbreviated SHA of
// a commit into a commit id.
func (g *gitStore) resolve(rev string) (plumbing.Hash, bool) {
	if h := g.branch(rev); !h.IsZero() {
		return h, true
	}
	if h := g.ref(strings.TrimPrefix(rev, "refs/")); !h.IsZero() {
		return h, true
	}
	if len(rev) == 40 && plumbing.IsHash(rev) {
		h := plumbing.NewHash(rev)
		if _, err := g.commit(h); err == nil {
			return h, true
		}
	}
	if len(rev) >= 7 && len(rev) < 40 {
		iter, err := g.st.IterEncodedObjects(plumbing.CommitObject)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		var found plumbing.Hash
		_ = iter.ForEach(func(o plumbing.EncodedObject) error {
			if strings.HasPrefix(o.Hash().String(), strings.ToLower(rev)) {
				found = o.Hash()
				return storer.ErrStop
			}
			return nil
		})
		return found, !found.IsZero()
	}
	return plumbing.ZeroHash, false
}

// isAncestor reports whether anc is desc or one of its ancestors.
func (g *gitStore) isAncestor(anc, desc plumbing.Hash) bool {
	seen := map[plumbing.Hash]bool{}
	queue := []plumbing.Hash{desc}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h == anc {
			return true
		}
		if seen[h] {
			continue
		}
		seen[h] = true
		c, err := g.commit(h)
		if err != nil {
			continue
		}
		queue = append(queue, c.ParentHashes...)
	}
	return false
}

// ancestors returns every commit reachable from h, h included.
func (g *gitStore) ancestors(h plumbing.Hash) map[plumbing.Hash]bool {
	seen := map[plumbing.Hash]bool{}
	queue := []plumbing.Hash{h}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if seen[x] || x.IsZero() {
			continue
		}
		seen[x] = true
		if c, err := g.commit(x); err == nil {
			queue = append(queue, c.ParentHashes...)
		}
	}
	return seen
}

// commitsBetween lists the commits reachable from head and not from base,
// oldest first (by committer time, then id).
func (g *gitStore) commitsBetween(base, head plumbing.Hash) []*object.Commit {
	inBase := g.ancestors(base)
	var out []*object.Commit
	for h := range g.ancestors(head) {
		if inBase[h] {
			continue
		}
		if c, err := g.commit(h); err == nil {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ti, tj := out[i].Committer.When, out[j].Committer.When
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return out[i].Hash.String() < out[j].Hash.String()
	})
	return out
}

// mergeBase returns the newest common ancestor of a and b.
func (g *gitStore) mergeBase(a, b plumbing.Hash) plumbing.Hash {
	g.mu.Lock()
	base, ok := g.bases[[2]plumbing.Hash{a, b}]
	g.mu.Unlock()
	if ok {
		return base
	}
	base = g.findMergeBase(a, b)
	if !base.IsZero() {
		g.mu.Lock()
		if g.bases == nil {
			g.bases = map[[2]plumbing.Hash]plumbing.Hash{}
		}
		g.bases[[2]plumbing.Hash{a, b}] = base
		g.mu.Unlock()
	}
	return base
}

// findMergeBase walks b's history, stopping at each commit that a
// reaches too. When one such commit is found, every common ancestor is
// reachable from it, so it is the one best merge base; otherwise (a merge
// of the base into the branch, say) go-git's MergeBase decides.
func (g *gitStore) findMergeBase(a, b plumbing.Hash) plumbing.Hash {
	inA := g.ancestorsOf(a)
	if inA == nil {
		return plumbing.ZeroHash
	}
	var found []plumbing.Hash
	seen := map[plumbing.Hash]bool{b: true}
	for queue := []plumbing.Hash{b}; len(queue) > 0; queue = queue[1:] {
		h := queue[0]
		if inA[h] {
			found = append(found, h)
			continue
		}
		c, err := g.commit(h)
		if err != nil {
			return plumbing.ZeroHash
		}
		for _, p := range c.ParentHashes {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	switch len(found) {
	case 0:
		return plumbing.ZeroHash
	case 1:
		return found[0]
	}
	return g.goGitMergeBase(a, b)
}

// ancestorsOf returns the commits reachable from h, h among them (nil when
// h is not a commit), kept per h: objects never change.
func (g *gitStore) ancestorsOf(h plumbing.Hash) map[plumbing.Hash]bool {
	g.mu.Lock()
	set, ok := g.reachable[h]
	g.mu.Unlock()
	if ok {
		return set
	}
	set = map[plumbing.Hash]bool{h: true}
	for queue := []plumbing.Hash{h}; len(queue) > 0; queue = queue[1:] {
		c, err := g.commit(queue[0])
		if err != nil {
			return nil
		}
		for _, p := range c.ParentHashes {
			if !set[p] {
				set[p] = true
				queue = append(queue, p)
			}
		}
	}
	g.mu.Lock()
	if g.reachable == nil {
		g.reachable = map[plumbing.Hash]map[plumbing.Hash]bool{}
	}
	g.reachable[h] = set
	g.mu.Unlock()
	return set
}

func (g *gitStore) goGitMergeBase(a, b plumbing.Hash) plumbing.Hash {
	ca, err1 := g.commit(a)
	cb, err2 := g.commit(b)
	if err1 != nil || err2 != nil {
		return plumbing.ZeroHash
	}
	bases, err := ca.MergeBase(cb)
	if err != nil || len(bases) == 0 {
		return plumbing.ZeroHash
	}
	return bases[0].Hash
}

// fileDiff is one changed path between two trees.
type fileDiff struct {
	Path, PrevPath     string
	Status             string // added, removed, modified, renamed
	SHA                string
	Additions, Deletes int
	Patch              string
}

// diffTrees returns the changed paths from tree from to tree to (from zero:
// every path of to is added), sorted by path; the caller's to change.
func (g *gitStore) diffTrees(from, to plumbing.Hash) ([]fileDiff, error) {
	key := [2]plumbing.Hash{from, to}
	g.mu.Lock()
	d, ok := g.diffs[key]
	g.mu.Unlock()
	if ok {
		return slices.Clone(d), nil
	}
	d, err := g.computeDiff(from, to)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	if g.diffs == nil {
		g.diffs = map[[2]plumbing.Hash][]fileDiff{}
	}
	g.diffs[key] = d
	g.mu.Unlock()
	return slices.Clone(d), nil
}

func (g *gitStore) computeDiff(from, to plumbing.Hash) ([]fileDiff, error) {
	var a, b *object.Tree
	var err error
	if !from.IsZero() {
		if a, err = g.tree(from); err != nil {
			return nil, err
		}
	}
	if b, err = g.tree(to); err != nil {
		return nil, err
	}
	changes, err := object.DiffTreeWithOptions(context.Background(), a, b, &object.DiffTreeOptions{DetectRenames: true, RenameScore: 60, RenameLimit: 100})
	if err != nil {
		return nil, err
	}
	var out []fileDiff
	for _, ch := range changes {
		d := fileDiff{Path: ch.To.Name, Status: "modified", SHA: ch.To.TreeEntry.Hash.String()}
		switch {
		case ch.From.Name == "":
			d.Status = "added"
		case ch.To.Name == "":
			d.Status, d.Path, d.SHA = "removed", ch.From.Name, ch.From.TreeEntry.Hash.String()
		case ch.From.Name != ch.To.Name:
			d.Status, d.PrevPath = "renamed", ch.From.Name
		}
		p, err := ch.Patch()
		if err == nil {
			for _, st := range p.Stats() {
				d.Additions += st.Addition
				d.Deletes += st.Deletion
			}
			text := p.String()
			if i := strings.Index(text, "@@"); i >= 0 {
				d.Patch = strings.TrimSuffix(text[i:], "\n")
			}
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
