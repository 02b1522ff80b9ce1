package sandbox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	is := s.issueFrom(w, r)
	if is == nil {
		return
	}
	var since time.Time
	if v := r.URL.Query().Get("since"); v != "" {
		since, _ = time.Parse(time.RFC3339, v)
	}
	var list []*commentRec
	for _, c := range s.st.Comments {
		if c.Issue == is.Number && (since.IsZero() || !c.UpdatedAt.Before(since)) {
			list = append(list, c)
		}
	}
	start, end := pageOf(w, r, len(list))
	out := make([]any, 0, end-start)
	for _, c := range list[start:end] {
		out = append(out, commentJSON(baseURL(r), c))
	}
	writeJSON(w, http.StatusOK, out)
}

// createComment posts an issue comment as the caller. GitHub lets any
// signed-in account that can read the repository comment ("You can use the
// REST API to create comments on issues and pull requests", issues/
// create-comment, with no permission named; a reader's role includes
// commenting), and the pipeline refuses an anonymous write, so a reader's
// comment is accepted here too: a rule that counts only write access's
// comments (aayu counsel --post, the inbox's counsel) is aayu's own, decided
// from the collaborator permission, never from GitHub refusing the post.
func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	is := s.issueFrom(w, r)
	if is == nil {
		return
	}
	var req struct {
		Body *string `json:"body"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Body == nil || *req.Body == "" {
		writeValidation(w, fieldError{Resource: "IssueComment", Field: "body", Code: "missing_field"})
		return
	}
	c := s.addComment(is, callerOf(r).Login, *req.Body)
	w.Header().Set("Location", fmt.Sprintf("%s%s/issues/comments/%d", baseURL(r), repoPath, c.ID))
	writeJSON(w, http.StatusCreated, commentJSON(baseURL(r), c))
}

func (s *Server) addComment(is *issueRec, user, body string) *commentRec {
	now := s.now()
	c := &commentRec{ID: s.st.newID(), Issue: is.Number, User: user, Body: body, CreatedAt: now, UpdatedAt: now}
	s.st.Comments = append(s.st.Comments, c)
	is.UpdatedAt = now
	return c
}

// updateComment edits one issue comment's body, as GitHub lets its author
// or anyone with write access do. The comment and its issue both count as
// updated, so conditional reads of either see the change, and the
// comment's updated_at is later than its created_at, as GitHub records an
// edit (REFERENCE.md §3.9: "Any change updates updated_at"; the
// issue-comment schema's created_at and updated_at, to the second): aayu
// refuses an acceptance or a reply GitHub records as edited.
func (s *Server) updateComment(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	c := s.st.comment(r.PathValue("comment_id"))
	if c == nil {
		notFound(w)
		return
	}
	var req struct {
		Body *string `json:"body"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	who := callerOf(r)
	if !who.canPush() && !strings.EqualFold(who.Login, c.User) {
		writeError(w, http.StatusForbidden, "Must have push access to update this comment.")
		return
	}
	if req.Body == nil || *req.Body == "" {
		writeValidation(w, fieldError{Resource: "IssueComment", Field: "body", Code: "missing_field"})
		return
	}
	now := s.now()
	c.Body, c.UpdatedAt = *req.Body, now
	if is := s.st.issue(c.Issue); is != nil {
		is.UpdatedAt = now
	}
	writeJSON(w, http.StatusOK, commentJSON(baseURL(r), c))
}

// comment finds a comment by the id in a request path; nil when the id is
// not a number or names no comment.
func (st *state) comment(id string) *commentRec {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil
	}
	for _, c := range st.Comments {
		if c.ID == n {
			return c
		}
	}
	return nil
}
