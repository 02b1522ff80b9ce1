package sandbox

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

func (s *Server) routePulls(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/pulls", s.listPulls)
	m.HandleFunc("POST /repos/{owner}/{repo}/pulls", s.createPull)
	m.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}", s.getPull)
	m.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}/files", s.listPullFiles)
	m.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}/reviews", s.listReviews)
	m.HandleFunc("POST /repos/{owner}/{repo}/pulls/{number}/reviews", s.createReview)
	m.HandleFunc("PUT /repos/{owner}/{repo}/pulls/{number}/merge", s.mergePull)
}

// pullFrom resolves {number} to a pull request or writes 404.
func (s *Server) pullFrom(w http.ResponseWriter, r *http.Request) *issueRec {
	is := s.issueFrom(w, r)
	if is == nil {
		return nil
	}
	if is.PR == nil {
		notFound(w)
		return nil
	}
	return is
}

// headSHA is the branch tip while open, the recorded head once closed.
func (s *Server) headSHA(is *issueRec) plumbing.Hash {
	if is.PR.FrozenHead != "" {
		return plumbing.NewHash(is.PR.FrozenHead)
	}
	return s.git.branch(is.PR.Head)
}

// prDiffBase is where the pull request's changes start from.
func (s *Server) prDiffBase(is *issueRec) plumbing.Hash {
	if is.PR.Merged || is.PR.FrozenHead != "" {
		return plumbing.NewHash(is.PR.MergeBase)
	}
	return s.git.mergeBase(s.git.branch(is.PR.Base), s.headSHA(is))
}

func (s *Server) prFiles(is *issueRec) []fileDiff {
	from, to := s.prDiffBase(is), s.headSHA(is)
	fc, err1 := s.git.commit(from)
	tc, err2 := s.git.commit(to)
	if err1 != nil || err2 != nil {
		return nil
	}
	d, _ := s.git.diffTrees(fc.TreeHash, tc.TreeHash)
	return d
}

func (s *Server) prJSON(base string, is *issueRec, full bool) map[string]any {
	pr := is.PR
	api := fmt.Sprintf("%s%s/pulls/%d", base, repoPath, is.Number)
	issueAPI := fmt.Sprintf("%s%s/issues/%d", base, repoPath, is.Number)
	html := fmt.Sprintf("%s%s/pull/%d", base, htmlRepo, is.Number)
	head := s.headSHA(is)
	side := func(ref string, sha plumbing.Hash) map[string]any {
		return map[string]any{"label": RepoOwner + ":" + ref, "ref": ref, "sha": sha.String(),
			"user": userJSON(base, RepoOwner), "repo": s.repoJSON(base, caller{anonymous: true}, false)}
	}
	link := func(h string) map[string]any { return map[string]any{"href": h} }
	var mergeSHA any
	if pr.MergeCommitSHA != "" {
		mergeSHA = pr.MergeCommitSHA
	}
	m := map[string]any{
		"url": api, "id": pr.ID, "node_id": nodeID("PR", pr.ID), "html_url": html, "diff_url": html + ".diff",
		"patch_url": html + ".patch", "issue_url": issueAPI, "commits_url": api + "/commits",
		"review_comments_url": api + "/comments", "review_comment_url": base + repoPath + "/pulls/comments{/number}",
		"comments_url": issueAPI + "/comments", "statuses_url": base + repoPath + "/statuses/" + head.String(),
		"number": is.Number, "state": is.State, "locked": false, "title": is.Title, "user": userJSON(base, is.User),
		"body": nilIfEmpty(is.Body), "labels": s.labelsJSON(base, is.Labels), "milestone": nil,
		"active_lock_reason": nil, "created_at": ts(is.CreatedAt), "updated_at": ts(is.UpdatedAt),
		"closed_at": tsPtr(is.ClosedAt), "merged_at": tsPtr(pr.MergedAt), "merge_commit_sha": mergeSHA,
		"assignee": nil, "assignees": []any{}, "requested_reviewers": []any{}, "requested_teams": []any{},
		"head": side(pr.Head, head), "base": side(pr.Base, s.git.branch(pr.Base)),
		"_links": map[string]any{"self": link(api), "html": link(html), "issue": link(issueAPI),
			"comments": link(issueAPI + "/comments"), "review_comments": link(api + "/comments"),
			"review_comment": link(base + repoPath + "/pulls/comments{/number}"), "commits": link(api + "/commits"),
			"statuses": link(base + repoPath + "/statuses/" + head.String())},
		"author_association": association(is.User), "auto_merge": nil, "draft": pr.Draft,
	}
	if !full {
		return m
	}
	files := s.prFiles(is)
	adds, dels := 0, 0
	for _, f := range files {
		adds += f.Additions
		dels += f.Deletes
	}
	var mergeable any = true
	state := "clean"
	switch {
	case pr.Merged || is.State == "closed":
		mergeable, state = nil, "unknown"
	case pr.Draft:
		mergeable, state = false, "draft"
	case pr.Conflicting:
		mergeable, state = false, "dirty"
	case len(s.ruleViolations(caller{anonymous: true}, refUpdate{branch: pr.Base, pr: is})) > 0:
		// A required check failing or missing, or a review the base's
		// rulesets require: GitHub's "blocked" (mergeable, but not yet).
		state = "blocked"
	}
	m["merged"] = pr.Merged
	m["mergeable"] = mergeable
	m["rebaseable"] = mergeable
	m["mergeable_state"] = state
	m["merged_by"] = userOrNil(base, pr.MergedBy)
	m["comments"] = s.commentCount(is.Number)
	m["review_comments"] = 0
	m["maintainer_can_modify"] = false
	m["commits"] = len(s.git.commitsBetween(s.prDiffBase(is), head))
	m["additions"] = adds
	m["deletions"] = dels
	m["changed_files"] = len(files)
	return m
}

func (s *Server) listPulls(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	var list []*issueRec
	for _, is := range s.st.Issues {
		if is.PR == nil || (state != "all" && is.State != state) {
			continue
		}
		if b := q.Get("base"); b != "" && b != is.PR.Base {
			continue
		}
		if h := q.Get("head"); h != "" {
			_, ref, _ := strings.Cut(h, ":")
			if ref == "" {
				ref = h
			}
			if ref != is.PR.Head {
				continue
			}
		}
		list = append(list, is)
	}
	if q.Get("sort") == "comments" {
		counts := s.commentCounts()
		sortIssues(list, "comments", q.Get("direction"), func(n int) int { return counts[n] })
	} else {
		sortIssues(list, q.Get("sort"), q.Get("direction"), nil)
	}
	start, end := pageOf(w, r, len(list))
	out := make([]any, 0, end-start)
	for _, is := range list[start:end] {
		out = append(out, s.prJSON(baseURL(r), is, false))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getPull(w http.ResponseWriter, r *http.Request) {
	is := s.pullFrom(w, r)
	if is == nil {
		return
	}
	setLastModified(w, is.UpdatedAt)
	writeJSON(w, http.StatusOK, s.prJSON(baseURL(r), is, true))
}

// createPull opens a pull request between two branches of the demo.
func (s *Server) createPull(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	var req struct {
		Title string `json:"title"`
		Body  string `json:"body"`
		Head  string `json:"head"`
		Base  string `json:"base"`
		Draft bool   `json:"draft"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if _, ref, ok := strings.Cut(req.Head, ":"); ok {
		req.Head = ref
	}
	switch {
	case req.Title == "":
		writeValidation(w, fieldError{Resource: "PullRequest", Field: "title", Code: "missing_field"})
		return
	case s.git.branch(req.Head).IsZero():
		writeValidation(w, fieldError{Resource: "PullRequest", Field: "head", Code: "invalid"})
		return
	case s.git.branch(req.Base).IsZero():
		writeValidation(w, fieldError{Resource: "PullRequest", Field: "base", Code: "invalid"})
		return
	}
	is := s.newIssue(callerOf(r).Login, req.Title, req.Body, &prRec{ID: s.st.newID(), Head: req.Head, Base: req.Base, Draft: req.Draft})
	w.Header().Set("Location", fmt.Sprintf("%s%s/pulls/%d", baseURL(r), repoPath, is.Number))
	writeJSON(w, http.StatusCreated, s.prJSON(baseURL(r), is, true))
}

func (s *Server) listPullFiles(w http.ResponseWriter, r *http.Request) {
	is := s.pullFrom(w, r)
	if is == nil {
		return
	}
	files := s.prFiles(is)
	start, end := pageOf(w, r, len(files))
	out := make([]any, 0, end-start)
	for _, f := range files[start:end] {
		out = append(out, diffEntryJSON(baseURL(r), s.headSHA(is).String(), f))
	}
	writeJSON(w, http.StatusOK, out)
}

func diffEntryJSON(base, ref string, f fileDiff) map[string]any {
	m := map[string]any{
		"sha": f.SHA, "filename": f.Path, "status": f.Status, "additions": f.Additions, "deletions": f.Deletes,
		"changes":      f.Additions + f.Deletes,
		"blob_url":     base + htmlRepo + "/blob/" + ref + "/" + f.Path,
		"raw_url":      base + htmlRepo + "/raw/" + ref + "/" + f.Path,
		"contents_url": base + repoPath + "/contents/" + f.Path + "?ref=" + ref,
	}
	if f.Patch != "" {
		m["patch"] = f.Patch
	}
	if f.PrevPath != "" {
		m["previous_filename"] = f.PrevPath
	}
	return m
}

func (s *Server) reviewJSON(base string, rv *reviewRec) map[string]any {
	html := fmt.Sprintf("%s%s/pull/%d#pullrequestreview-%d", base, htmlRepo, rv.PR, rv.ID)
	prURL := fmt.Sprintf("%s%s/pulls/%d", base, repoPath, rv.PR)
	m := map[string]any{
		"id": rv.ID, "node_id": nodeID("PRR", rv.ID), "user": userJSON(base, rv.User), "body": rv.Body,
		"state": rv.State, "html_url": html, "pull_request_url": prURL, "commit_id": rv.CommitID,
		"_links":             map[string]any{"html": map[string]any{"href": html}, "pull_request": map[string]any{"href": prURL}},
		"author_association": association(rv.User),
	}
	if rv.State != "PENDING" {
		m["submitted_at"] = ts(rv.SubmittedAt)
	}
	return m
}

func (s *Server) listReviews(w http.ResponseWriter, r *http.Request) {
	is := s.pullFrom(w, r)
	if is == nil {
		return
	}
	var list []*reviewRec
	for _, rv := range s.st.Reviews {
		if rv.PR == is.Number {
			list = append(list, rv)
		}
	}
	start, end := pageOf(w, r, len(list))
	out := make([]any, 0, end-start)
	for _, rv := range list[start:end] {
		out = append(out, s.reviewJSON(baseURL(r), rv))
	}
	writeJSON(w, http.StatusOK, out)
}

// createReview records a review; the author approving their own pull
// request gets GitHub's 422.
func (s *Server) createReview(w http.ResponseWriter, r *http.Request) {
	is := s.pullFrom(w, r)
	if is == nil {
		return
	}
	var req struct {
		CommitID string `json:"commit_id"`
		Body     string `json:"body"`
		Event    string `json:"event"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	state := map[string]string{"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED", "": "PENDING"}[req.Event]
	if state == "" {
		writeValidation(w, fieldError{Resource: "PullRequestReview", Field: "event", Code: "invalid"})
		return
	}
	if strings.EqualFold(c.Login, is.User) && (state == "APPROVED" || state == "CHANGES_REQUESTED") {
		verb := map[string]string{"APPROVED": "approve", "CHANGES_REQUESTED": "request changes on"}[state]
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
			"message": "Unprocessable Entity", "errors": []string{"Can not " + verb + " your own pull request"},
			"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request", "status": "422"})
		return
	}
	commit := req.CommitID
	if commit == "" {
		commit = s.headSHA(is).String()
	} else if h, ok := s.git.resolve(commit); !ok {
		writeValidation(w, fieldError{Resource: "PullRequestReview", Field: "commit_id", Code: "invalid"})
		return
	} else {
		commit = h.String()
	}
	rv := &reviewRec{ID: s.st.newID(), PR: is.Number, User: c.Login, State: state, Body: req.Body, CommitID: commit, SubmittedAt: s.now()}
	s.st.Reviews = append(s.st.Reviews, rv)
	is.UpdatedAt = s.now()
	writeJSON(w, http.StatusOK, s.reviewJSON(baseURL(r), rv))
}
