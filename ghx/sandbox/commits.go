package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// listCommits serves GET /repos/{owner}/{repo}/commits: the commits
// reachable from `sha` (a SHA or a branch; the default branch when absent),
// newest first, paged as GitHub pages lists. GitHub's REST reference, "List
// commits": "sha: SHA or branch to start listing commits from. Default:
// the repository’s default branch".
func (s *Server) listCommits(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	rev := r.URL.Query().Get("sha")
	if rev == "" {
		rev = "main" // the sandbox repository's default_branch (render.go)
	}
	h, ok := s.git.resolve(rev)
	if !ok {
		// GitHub answers an unknown sha or branch with 404 "No commit found
		// for SHA: …".
		writeError(w, http.StatusNotFound, "No commit found for SHA: "+rev)
		return
	}
	all := s.git.commitsBetween(plumbing.ZeroHash, h)
	slices.Reverse(all)
	start, end := pageOf(w, r, len(all))
	base := baseURL(r)
	out := []any{}
	for _, c := range all[start:end] {
		out = append(out, commitJSON(base, c))
	}
	writeJSON(w, http.StatusOK, out)
}

// commitFilesPerPage is how many files one page of "Get a commit" holds.
// GitHub's REST reference, "Get a commit": "If there are more than 300
// files in the commit diff and the default JSON media type is requested,
// the response will include pagination link headers for the remaining
// files, up to a limit of 3000 files. Each page contains the static commit
// information, and the only changes are to the file listing."
const commitFilesPerPage = 300

// getCommit serves GET /repos/{owner}/{repo}/commits/{ref}: the commit with
// its files against its first parent (status added, modified, removed or
// renamed with previous_filename) and their stats, as GitHub answers it.
func (s *Server) getCommit(w http.ResponseWriter, r *http.Request, h plumbing.Hash) {
	c, err := s.git.commit(h)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "No commit found for SHA: "+h.String())
		return
	}
	var parentTree plumbing.Hash
	if len(c.ParentHashes) > 0 {
		if p, err := s.git.commit(c.ParentHashes[0]); err == nil {
			parentTree = p.TreeHash
		}
	}
	diffs, err := s.git.diffTrees(parentTree, c.TreeHash)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "reading the commit's diff: "+err.Error())
		return
	}
	diffs = diffs[:min(len(diffs), 3000)]
	page := 1
	if v, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && v > 0 {
		page = v
	}
	last := max(1, (len(diffs)+commitFilesPerPage-1)/commitFilesPerPage)
	start := min((page-1)*commitFilesPerPage, len(diffs))
	end := min(start+commitFilesPerPage, len(diffs))
	if page < last {
		q := url.Values{}
		q.Set("page", strconv.Itoa(page+1))
		next := fmt.Sprintf("<%s%s?%s>; rel=\"next\"", baseURL(r), r.URL.EscapedPath(), q.Encode())
		q.Set("page", strconv.Itoa(last))
		w.Header().Set("Link", next+fmt.Sprintf(", <%s%s?%s>; rel=\"last\"", baseURL(r), r.URL.EscapedPath(), q.Encode()))
	}
	base := baseURL(r)
	out := commitJSON(base, c)
	files := []any{}
	adds, dels := 0, 0
	for i, d := range diffs {
		adds += d.Additions
		dels += d.Deletes
		if i >= start && i < end {
			files = append(files, diffEntryJSON(base, h.String(), d))
		}
	}
	out["files"] = files
	out["stats"] = map[string]any{"total": adds + dels, "additions": adds, "deletions": dels}
	writeJSON(w, http.StatusOK, out)
}
