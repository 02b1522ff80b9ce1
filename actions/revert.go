package actions

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

// RevertBranch is the branch a correction's revert pull request comes
// from; a retried correction finds its pull request again by it.
func RevertBranch(pr int) string { return fmt.Sprintf("aayu/revert-%d", pr) }

// findRevertPR finds the open or merged pull request reverting pr. A
// closed, unmerged one was turned down and is not reused.
func (e *Executor) findRevertPR(ctx context.Context, pr int) (*github.PullRequest, error) {
	c, owner, repo, branch := e.cfg.Client, e.cfg.Owner, e.cfg.Repo, RevertBranch(pr)
	list, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
		return c.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{State: "all", Head: owner + ":" + branch, ListOptions: *opts})
	})
	if err != nil {
		return nil, fmt.Errorf("looking for the pull request reverting #%d: %w", pr, err)
	}
	for _, p := range list {
		if p.GetHead().GetRef() == branch && (p.GetState() == "open" || p.MergedAt != nil) {
			return p, nil
		}
	}
	return nil, nil
}

// mergeCommit is the commit a pull request merged as: the audit card's
// head, else read from GitHub.
func (r *run) mergeCommit(ctx context.Context, pr int) (string, error) {
	if r.req.Step.Kind == inbox.KindAudit && r.req.Step.Item.Number == pr && r.req.Step.Head != "" {
		return r.req.Step.Head, nil
	}
	p, _, err := r.e.cfg.Client.PullRequests.Get(ctx, r.e.cfg.Owner, r.e.cfg.Repo, pr)
	if err != nil {
		return "", fmt.Errorf("reading #%d: %w", pr, err)
	}
	if p.GetMergeCommitSHA() == "" || p.MergedAt == nil {
		return "", permanent(fmt.Errorf("#%d has not merged, so there is nothing to revert", pr))
	}
	return p.GetMergeCommitSHA(), nil
}

// revert opens a pull request into w.Base that sets every file the merge
// of w.Number changed back to its parent's version, on top of the base
// branch's tip (SPEC §7). When a later commit on the base changed one of
// those files, it opens nothing and says to revert by hand. An open or
// merged revert pull request from an earlier try is reused.
func (r *run) revert(ctx context.Context, w inbox.Write) (bool, error) {
	if pr, err := r.e.findRevertPR(ctx, w.Number); err != nil || pr != nil {
		if pr != nil {
			r.revertPR = pr.GetNumber()
		}
		return pr != nil, err
	}
	git, owner, repo := r.e.cfg.Client.Git, r.e.cfg.Owner, r.e.cfg.Repo
	merge, err := r.mergeCommit(ctx, w.Number)
	if err != nil {
		return false, err
	}
	r.commit = merge
	mc, _, err := git.GetCommit(ctx, owner, repo, merge)
	if err != nil {
		return false, fmt.Errorf("reading the merge of #%d: %w", w.Number, err)
	}
	if len(mc.Parents) == 0 {
		return false, permanent(fmt.Errorf("the merge of #%d has no parent to go back to", w.Number))
	}
	parent, err := r.e.treeFiles(ctx, mc.Parents[0].GetSHA())
	if err != nil {
		return false, err
	}
	merged, err := r.e.treeFiles(ctx, merge)
	if err != nil {
		return false, err
	}
	baseRef, _, err := git.GetRef(ctx, owner, repo, "heads/"+w.Base)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", w.Base, err)
	}
	tip, err := r.e.treeFiles(ctx, baseRef.GetObject().GetSHA())
	if err != nil {
		return false, err
	}
	paths := changedPaths(parent.files, merged.files)
	var later []string
	undone := true
	for _, p := range paths {
		if tip.files[p] != merged.files[p] {
			later = append(later, p)
		}
		undone = undone && tip.files[p] == parent.files[p]
	}
	switch {
	case len(paths) == 0 || undone:
		r.revertWords = fmt.Sprintf("the changes of #%d are already undone on %s, so no revert pull request was needed", w.Number, w.Base)
		return true, nil
	case len(later) > 0:
		r.byHand = fmt.Sprintf("Revert #%d by hand on %s: a later commit there changed %s, so aayu opened no pull request.", w.Number, w.Base, listPaths(later))
		r.revertWords = fmt.Sprintf("no revert pull request was opened for #%d: a later commit on %s changed its files", w.Number, w.Base)
		return false, nil
	}
	if err := r.revertBranch(ctx, w, merge, baseRef.GetObject().GetSHA(), paths, parent); err != nil {
		return false, err
	}
	return false, r.openRevertPR(ctx, w, merge)
}

// revertBranch makes RevertBranch(w.Number) hold the revert: created at
// the base's tip, or, when an earlier try left it, built on it.
func (r *run) revertBranch(ctx context.Context, w inbox.Write, merge, baseTip string, paths []string, parent files) error {
	git, owner, repo, branch := r.e.cfg.Client.Git, r.e.cfg.Owner, r.e.cfg.Repo, RevertBranch(w.Number)
	start, exists := baseTip, false
	ref, _, err := git.GetRef(ctx, owner, repo, "heads/"+branch)
	switch {
	case err == nil:
		start, exists = ref.GetObject().GetSHA(), true
	case !ghx.IsNotFound(err):
		return fmt.Errorf("reading %s: %w", branch, err)
	}
	onto, err := r.e.treeFiles(ctx, start)
	if err != nil {
		return err
	}
	var entries []*github.TreeEntry
	for _, p := range paths {
		want, had := parent.files[p], parent.files[p] != (entry{})
		if onto.files[p] == want {
			continue
		}
		e := &github.TreeEntry{Path: github.String(p), Mode: github.String("100644"), Type: github.String("blob")}
		if had {
			e.SHA, e.Mode = github.String(want.sha), github.String(want.mode)
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 && exists {
		return nil
	}
	tree, _, err := git.CreateTree(ctx, owner, repo, onto.tree, entries)
	if err != nil {
		return fmt.Errorf("building the revert tree: %w", err)
	}
	msg := fmt.Sprintf("Revert #%d: %s\n\nSets every file merge %s changed back to its parent's version (an audit correction by @%s through aayu inbox).",
		w.Number, oneLine(r.req.Step.Item.Title.Raw()), merge, r.e.cfg.Viewer)
	commit, _, err := git.CreateCommit(ctx, owner, repo, &github.Commit{Message: github.String(Neutralize(msg)), Tree: &github.Tree{SHA: tree.SHA},
		Parents: []*github.Commit{{SHA: github.String(start)}}}, nil)
	if err != nil {
		return fmt.Errorf("making the revert commit: %w", err)
	}
	r.commit = commit.GetSHA()
	obj := &github.GitObject{SHA: commit.SHA}
	if exists {
		_, _, err = git.UpdateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/heads/" + branch), Object: obj}, false)
	} else {
		_, _, err = git.CreateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/heads/" + branch), Object: obj})
	}
	if err != nil {
		return fmt.Errorf("pointing %s at the revert: %w", branch, err)
	}
	return nil
}

func (r *run) openRevertPR(ctx context.Context, w inbox.Write, merge string) error {
	c, owner, repo := r.e.cfg.Client, r.e.cfg.Owner, r.e.cfg.Repo
	body := fmt.Sprintf("Reverts #%d (merge %s): its audit found it needs a correction.\n\nEvery file the merge changed is set back to its parent's version on top of %s. Opened by @%s through aayu inbox.",
		w.Number, merge, w.Base, r.e.cfg.Viewer)
	story, err := r.e.revertedStory(ctx, w.Number)
	if err != nil {
		return err
	}
	if story != 0 {
		// The merge gate reads this line to gate the revert on the Story
		// the reverted pull request linked (its aayu/revert-N branch names
		// no Story); the inbox and ship link it the same way.
		body += fmt.Sprintf("\n\nRefs #%d (the Story #%d linked)", story, w.Number)
	}
	pr, _, err := c.PullRequests.Create(ctx, owner, repo, &github.NewPullRequest{
		Title: github.String(NeutralizeLine(fmt.Sprintf("Revert #%d: %s", w.Number, oneLine(r.req.Step.Item.Title.Raw())))),
		Head:  github.String(RevertBranch(w.Number)), Base: github.String(w.Base), Body: github.String(Neutralize(body))})
	if err != nil {
		return fmt.Errorf("opening the revert pull request: %w", err)
	}
	r.revertPR = pr.GetNumber()
	return nil
}

// entry is one file in a tree.
type entry struct{ sha, mode string }

type files struct {
	tree  string
	files map[string]entry
}

// treeFiles lists every file of a commit's tree.
func (e *Executor) treeFiles(ctx context.Context, commit string) (files, error) {
	git, owner, repo := e.cfg.Client.Git, e.cfg.Owner, e.cfg.Repo
	c, _, err := git.GetCommit(ctx, owner, repo, commit)
	if err != nil {
		return files{}, fmt.Errorf("reading commit %s: %w", commit, err)
	}
	t, _, err := git.GetTree(ctx, owner, repo, c.GetTree().GetSHA(), true)
	if err != nil {
		return files{}, fmt.Errorf("reading the tree of %s: %w", commit, err)
	}
	if t.GetTruncated() {
		return files{}, permanent(errTreeTooLarge)
	}
	out := files{tree: c.GetTree().GetSHA(), files: map[string]entry{}}
	for _, te := range t.Entries {
		if te.GetType() == "blob" {
			out.files[te.GetPath()] = entry{sha: te.GetSHA(), mode: te.GetMode()}
		}
	}
	return out, nil
}

var errTreeTooLarge = errors.New("the repository's tree is larger than GitHub lists in one answer, so aayu cannot build the revert")

func changedPaths(a, b map[string]entry) []string {
	var out []string
	for p, e := range a {
		if b[p] != e {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func listPaths(paths []string) string {
	if len(paths) > 3 {
		return strings.Join(paths[:3], ", ") + fmt.Sprintf(" and %d more", len(paths)-3)
	}
	return strings.Join(paths, ", ")
}

// revertedStory is the item the reverted pull request links (its story/N-…
// or fix/N-… branch, else its first Refs, Closes, Fixes or Resolves #N),
// 0 when none.
func (e *Executor) revertedStory(ctx context.Context, pr int) (int, error) {
	p, _, err := e.cfg.Client.PullRequests.Get(ctx, e.cfg.Owner, e.cfg.Repo, pr)
	if err != nil {
		return 0, fmt.Errorf("reading #%d for the Story it links: %w", pr, err)
	}
	if links := inbox.LinkedIssues(p.GetHead().GetRef(), p.GetBody()); len(links) > 0 {
		return links[0], nil
	}
	return 0, nil
}
