package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

var errConflict = errors.New("the pull request conflicts with its base")

func (s *Server) mergePull(w http.ResponseWriter, r *http.Request) {
	is := s.pullFrom(w, r)
	if is == nil {
		return
	}
	var req struct {
		CommitTitle   string `json:"commit_title"`
		CommitMessage string `json:"commit_message"`
		SHA           string `json:"sha"`
		MergeMethod   string `json:"merge_method"`
	}
	if r.ContentLength != 0 && !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	const notMergeable = "Pull Request is not mergeable"
	if req.MergeMethod == "" {
		req.MergeMethod = "merge" // GitHub's default (pulls/merge's merge_method)
	}
	allowed := s.st.mergeSettings()
	switch {
	case !c.canPush():
		writeError(w, http.StatusForbidden, "Must have push access to merge this pull request.")
		return
	case is.PR.Merged || is.State != "open" || is.PR.Draft || is.PR.Conflicting:
		writeErrorDoc(w, http.StatusMethodNotAllowed, notMergeable, mergeDocs)
		return
	case req.MergeMethod != "merge" && req.MergeMethod != "squash" && req.MergeMethod != "rebase":
		writeValidation(w, fieldError{Resource: "PullRequest", Field: "merge_method", Code: "invalid"})
		return
	case !allowed.allows(req.MergeMethod):
		writeErrorDoc(w, http.StatusMethodNotAllowed, methodRefusal[req.MergeMethod], mergeDocs)
		return
	case req.SHA != "" && req.SHA != s.headSHA(is).String():
		writeErrorDoc(w, http.StatusConflict, "Head branch was modified. Review and try the merge again.", mergeDocs)
		return
	case s.refuseMergeByRules(w, c, is):
		return // a required check of the base's rulesets is not green on the head
	}
	sha, err := s.mergeAs(req.MergeMethod, is, c.Login, req.CommitTitle, req.CommitMessage, s.now())
	if errors.Is(err, errConflict) {
		writeErrorDoc(w, http.StatusMethodNotAllowed, notMergeable, mergeDocs)
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sha": sha.String(), "merged": true, "message": "Pull Request successfully merged"})
}

const mergeDocs = "https://docs.github.com/rest/pulls/pulls#merge-a-pull-request"

// methodRefusal is GitHub's 405 message for a merge method the
// repository's settings turn off.
var methodRefusal = map[string]string{
	"merge":  "Merge commits are not allowed on this repository.",
	"squash": "Squash merges are not allowed on this repository.",
	"rebase": "Rebase merges are not allowed on this repository.",
}

// mergeAs merges the pull request by method and closes it.
func (s *Server) mergeAs(method string, is *issueRec, by, title, message string, now time.Time) (plumbing.Hash, error) {
	switch method {
	case "merge":
		return s.mergeCommit(is, by, title, message, now)
	case "rebase":
		return s.rebaseMerge(is, by, now)
	}
	return s.squashMerge(is, by, title, message, now)
}

// mergeCommit writes a merge commit whose parents are the base tip and
// the head, titled as GitHub titles one.
func (s *Server) mergeCommit(is *issueRec, by, title, message string, now time.Time) (plumbing.Hash, error) {
	baseTip, head := s.git.branch(is.PR.Base), s.headSHA(is)
	mb := s.git.mergeBase(baseTip, head)
	tree, err := s.mergedTree(mb, head, baseTip)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if title == "" {
		title = fmt.Sprintf("Merge pull request #%d from %s/%s", is.Number, RepoOwner, is.PR.Head)
	}
	if message == "" {
		message = is.Title
	}
	committer := signature{Name: "GitHub", Email: "noreply@github.com", When: now}
	sha, err := s.git.writeCommit(tree, []plumbing.Hash{baseTip, head}, strings.TrimSpace(title+"\n\n"+message)+"\n", accountSignature(by, now), committer)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return sha, s.closeMerged(is, by, sha, head, mb, now)
}

// rebaseMerge replays each of the pull request's commits onto the base
// tip, keeping each author, with GitHub as committer.
func (s *Server) rebaseMerge(is *issueRec, by string, now time.Time) (plumbing.Hash, error) {
	tip, head := s.git.branch(is.PR.Base), s.headSHA(is)
	mb := s.git.mergeBase(tip, head)
	committer := signature{Name: "GitHub", Email: "noreply@github.com", When: now}
	for _, c := range s.git.commitsBetween(mb, head) {
		if len(c.ParentHashes) != 1 {
			return plumbing.ZeroHash, errConflict // GitHub cannot rebase merge commits either
		}
		tree, err := s.mergedTree(c.ParentHashes[0], c.Hash, tip)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		author := signature{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When}
		if tip, err = s.git.writeCommit(tree, []plumbing.Hash{tip}, c.Message, author, committer); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return tip, s.closeMerged(is, by, tip, head, mb, now)
}

// squashMerge writes one commit on the base branch whose parent is the
// base tip and whose tree is the base with the pull request's changes.
func (s *Server) squashMerge(is *issueRec, by, title, message string, now time.Time) (plumbing.Hash, error) {
	pr := is.PR
	baseTip := s.git.branch(pr.Base)
	head := s.headSHA(is)
	mb := s.git.mergeBase(baseTip, head)
	tree, err := s.mergedTree(mb, head, baseTip)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if title == "" {
		title = fmt.Sprintf("%s (#%d)", is.Title, is.Number)
	}
	if message == "" {
		var lines []string
		for _, c := range s.git.commitsBetween(mb, head) {
			lines = append(lines, "* "+strings.TrimSpace(c.Message))
		}
		message = strings.Join(lines, "\n\n")
	}
	author := accountSignature(is.User, now)
	committer := signature{Name: "GitHub", Email: "noreply@github.com", When: now}
	sha, err := s.git.writeCommit(tree, []plumbing.Hash{baseTip}, strings.TrimSpace(title+"\n\n"+message)+"\n", author, committer)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return sha, s.closeMerged(is, by, sha, head, mb, now)
}

// closeMerged moves the base to the merge's result and closes the pull
// request as merged.
func (s *Server) closeMerged(is *issueRec, by string, sha, head, mb plumbing.Hash, now time.Time) error {
	pr := is.PR
	if err := s.git.setRef("heads/"+pr.Base, sha); err != nil {
		return err
	}
	pr.Merged, pr.MergedAt, pr.MergedBy = true, &now, by
	pr.MergeCommitSHA, pr.FrozenHead, pr.MergeBase = sha.String(), head.String(), mb.String()
	is.State, is.ClosedAt, is.ClosedBy, is.UpdatedAt = "closed", &now, by, now
	s.st.PushedAt = now
	return nil
}

// mergedTree applies the changes between mb and head onto base's tree;
// a path that base also changed differently is a conflict.
func (s *Server) mergedTree(mb, head, base plumbing.Hash) (plumbing.Hash, error) {
	mbc, err := s.git.commit(mb)
	if err != nil {
		return plumbing.ZeroHash, errConflict
	}
	hc, err := s.git.commit(head)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	bc, err := s.git.commit(base)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if mb == base {
		return hc.TreeHash, nil
	}
	ours, err := s.git.diffTrees(mbc.TreeHash, hc.TreeHash)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	theirs, err := s.git.diffTrees(mbc.TreeHash, bc.TreeHash)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	touched := map[string]string{}
	for _, d := range theirs {
		touched[d.Path] = d.SHA
		if d.PrevPath != "" {
			touched[d.PrevPath] = ""
		}
	}
	var changes []treeChange
	for _, d := range ours {
		if sha, ok := touched[d.Path]; ok && (sha != d.SHA || d.Status == "removed") {
			return plumbing.ZeroHash, errConflict
		}
		if d.PrevPath != "" {
			changes = append(changes, treeChange{Path: d.PrevPath, Delete: true})
		}
		if d.Status == "removed" {
			if _, gone := touched[d.Path]; !gone {
				changes = append(changes, treeChange{Path: d.Path, Delete: true})
			}
			continue
		}
		if touched[d.Path] == d.SHA && d.SHA != "" {
			continue // the same change on both sides
		}
		changes = append(changes, treeChange{Path: d.Path, Mode: filemode.Regular, Hash: plumbing.NewHash(d.SHA)})
	}
	return s.git.applyTree(bc.TreeHash, changes)
}

// accountSignature is a login's git identity with GitHub's noreply email.
func accountSignature(login string, when time.Time) signature {
	name, id := login, int64(ownerID)
	if a, ok := accountByLogin(login); ok {
		name, id = a.Name, a.ID
	}
	return signature{Name: name, Email: fmt.Sprintf("%d+%s@users.noreply.github.com", id, login), When: when}
}
