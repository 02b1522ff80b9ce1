package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

func (s *Server) routeIssues(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/issues", s.listIssues)
	m.HandleFunc("POST /repos/{owner}/{repo}/issues", s.createIssue)
	m.HandleFunc("GET /repos/{owner}/{repo}/issues/{number}", s.getIssue)
	m.HandleFunc("PATCH /repos/{owner}/{repo}/issues/{number}", s.updateIssue)
	m.HandleFunc("GET /repos/{owner}/{repo}/issues/{number}/comments", s.listComments)
	m.HandleFunc("POST /repos/{owner}/{repo}/issues/{number}/comments", s.createComment)
	m.HandleFunc("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", s.updateComment)
	m.HandleFunc("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", s.deleteComment)
	m.HandleFunc("POST /repos/{owner}/{repo}/issues/{number}/labels", s.addLabels)
	m.HandleFunc("DELETE /repos/{owner}/{repo}/issues/{number}/labels/{name...}", s.removeLabel)
	m.HandleFunc("GET /repos/{owner}/{repo}/labels", s.listRepoLabels)
	m.HandleFunc("POST /repos/{owner}/{repo}/labels", s.createRepoLabel)
}

// issueFrom resolves {number}; it writes 404 and returns nil when missing.
func (s *Server) issueFrom(w http.ResponseWriter, r *http.Request) *issueRec {
	if !repoOK(w, r) {
		return nil
	}
	n, err := strconv.Atoi(r.PathValue("number"))
	is := s.st.issue(n)
	if err != nil || is == nil {
		notFound(w)
		return nil
	}
	return is
}

func (s *Server) listIssues(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	if state != "open" && state != "closed" && state != "all" {
		writeValidation(w, fieldError{Resource: "Issue", Field: "state", Code: "invalid"})
		return
	}
	var since time.Time
	if v := q.Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			writeValidation(w, fieldError{Resource: "Issue", Field: "since", Code: "invalid"})
			return
		}
		since = t
	}
	var wantLabels []string
	if v := q.Get("labels"); v != "" {
		wantLabels = strings.Split(v, ",")
	}
	var list []*issueRec
	for _, is := range s.st.Issues {
		if state != "all" && is.State != state {
			continue
		}
		if !since.IsZero() && is.UpdatedAt.Before(since) {
			continue
		}
		if c := q.Get("creator"); c != "" && !strings.EqualFold(c, is.User) {
			continue
		}
		if !hasAllLabels(is.Labels, wantLabels) {
			continue
		}
		list = append(list, is)
	}
	counts := s.commentCounts()
	sortIssues(list, q.Get("sort"), q.Get("direction"), func(n int) int { return counts[n] })
	start, end := pageOf(w, r, len(list))
	out := make([]any, 0, end-start)
	for _, is := range list[start:end] {
		out = append(out, s.issueJSONCounted(baseURL(r), is, counts[is.Number]))
	}
	writeJSON(w, http.StatusOK, out)
}

func hasAllLabels(have, want []string) bool {
	for _, wl := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, strings.TrimSpace(wl)) }) {
			return false
		}
	}
	return true
}

// sortIssues orders list by GitHub's sort key, ties by number. Each key is
// computed once (the comments key counts every comment) rather than twice per
// comparison: at --scale 10000 the per-comparison keys made sorting every
// page's request the sandbox's largest cost after encoding. Numbers are
// unique, so the order is total and an unstable sort gives the same list.
func sortIssues(list []*issueRec, by, dir string, comments func(int) int) {
	type keyed struct {
		key int64
		is  *issueRec
	}
	ks := make([]keyed, len(list))
	for i, is := range list {
		k := is.CreatedAt.UnixNano()
		switch by {
		case "updated":
			k = is.UpdatedAt.UnixNano()
		case "comments":
			k = int64(comments(is.Number))
		}
		ks[i] = keyed{k, is}
	}
	asc := dir == "asc"
	slices.SortFunc(ks, func(a, b keyed) int {
		c := cmp.Compare(a.key, b.key)
		if c == 0 {
			c = cmp.Compare(a.is.Number, b.is.Number)
		}
		if !asc {
			c = -c
		}
		return c
	})
	for i := range ks {
		list[i] = ks[i].is
	}
}

func (s *Server) getIssue(w http.ResponseWriter, r *http.Request) {
	is := s.issueFrom(w, r)
	if is == nil {
		return
	}
	setLastModified(w, is.UpdatedAt)
	writeJSON(w, http.StatusOK, s.issueJSON(baseURL(r), is))
}

type issueRequest struct {
	Title       *string   `json:"title"`
	Body        *string   `json:"body"`
	State       *string   `json:"state"`
	StateReason *string   `json:"state_reason"`
	Labels      *[]string `json:"labels"`
}

func (s *Server) createIssue(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	var req issueRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Title == nil || strings.TrimSpace(*req.Title) == "" {
		writeValidation(w, fieldError{Resource: "Issue", Field: "title", Code: "missing_field"})
		return
	}
	c := callerOf(r)
	is := s.newIssue(c.Login, *req.Title, deref(req.Body), nil)
	if req.Labels != nil && c.canPush() {
		s.addIssueLabels(is, *req.Labels)
	}
	w.Header().Set("Location", fmt.Sprintf("%s%s/issues/%d", baseURL(r), repoPath, is.Number))
	writeJSON(w, http.StatusCreated, s.issueJSON(baseURL(r), is))
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// newIssue appends an issue (or, with pr set, a pull request) now.
func (s *Server) newIssue(user, title, body string, pr *prRec) *issueRec {
	now := s.now()
	is := &issueRec{Number: len(s.st.Issues) + 1, ID: s.st.newID(), Title: title, Body: body, User: user,
		State: "open", Labels: []string{}, CreatedAt: now, UpdatedAt: now, PR: pr}
	s.st.Issues = append(s.st.Issues, is)
	return is
}

func (s *Server) updateIssue(w http.ResponseWriter, r *http.Request) {
	is := s.issueFrom(w, r)
	if is == nil {
		return
	}
	var req issueRequest
	if !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	if !c.canPush() && !strings.EqualFold(c.Login, is.User) {
		writeError(w, http.StatusForbidden, "Must have push access to update this issue.")
		return
	}
	if req.State != nil && *req.State != "open" && *req.State != "closed" {
		writeValidation(w, fieldError{Resource: "Issue", Field: "state", Code: "invalid"})
		return
	}
	if req.StateReason != nil && !slices.Contains([]string{"completed", "not_planned", "duplicate", "reopened", ""}, *req.StateReason) {
		writeValidation(w, fieldError{Resource: "Issue", Field: "state_reason", Code: "invalid"})
		return
	}
	if req.Title != nil {
		is.Title = *req.Title
	}
	if req.Body != nil {
		is.Body = *req.Body
	}
	if req.Labels != nil && c.canPush() {
		is.Labels = []string{}
		s.addIssueLabels(is, *req.Labels)
	}
	if req.State != nil && *req.State != is.State {
		s.setIssueState(is, *req.State, deref(req.StateReason), c.Login)
	}
	is.UpdatedAt = s.now()
	writeJSON(w, http.StatusOK, s.issueJSON(baseURL(r), is))
}

// setIssueState closes or reopens; state_reason counts only with a change.
func (s *Server) setIssueState(is *issueRec, state, reason, by string) {
	now := s.now()
	is.State = state
	if state == "closed" {
		if reason == "" || reason == "reopened" {
			reason = "completed"
		}
		is.StateReason, is.ClosedAt, is.ClosedBy = reason, &now, by
		return
	}
	is.StateReason, is.ClosedAt, is.ClosedBy = "reopened", nil, ""
}

// addLabels takes go-github's bare array or {"labels": [...]}; unknown
// labels are created with colour ededed, as GitHub does.
func (s *Server) addLabels(w http.ResponseWriter, r *http.Request) {
	is := s.issueFrom(w, r)
	if is == nil {
		return
	}
	var raw json.RawMessage
	if !decodeBody(w, r, &raw) {
		return
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		var obj struct {
			Labels []string `json:"labels"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil || len(obj.Labels) == 0 {
			writeValidation(w, fieldError{Resource: "Label", Field: "labels", Code: "invalid"})
			return
		}
		names = obj.Labels
	}
	if !callerOf(r).canPush() {
		writeError(w, http.StatusForbidden, "Must have push access to change labels.")
		return
	}
	s.addIssueLabels(is, names)
	is.UpdatedAt = s.now()
	writeJSON(w, http.StatusOK, s.labelsJSON(baseURL(r), is.Labels))
}

func (s *Server) addIssueLabels(is *issueRec, names []string) {
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		l := s.findLabel(n)
		if l == nil {
			l = &labelRec{ID: s.st.newID(), Name: n, Color: "ededed"}
			s.st.Labels = append(s.st.Labels, l)
		}
		if !slices.ContainsFunc(is.Labels, func(h string) bool { return strings.EqualFold(h, l.Name) }) {
			is.Labels = append(is.Labels, l.Name)
		}
	}
}

func (s *Server) removeLabel(w http.ResponseWriter, r *http.Request) {
	is := s.issueFrom(w, r)
	if is == nil {
		return
	}
	if !callerOf(r).canPush() {
		writeError(w, http.StatusForbidden, "Must have push access to change labels.")
		return
	}
	name := r.PathValue("name")
	i := slices.IndexFunc(is.Labels, func(h string) bool { return strings.EqualFold(h, name) })
	if i < 0 {
		writeErrorDoc(w, http.StatusNotFound, "Label does not exist", "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue")
		return
	}
	is.Labels = slices.Delete(is.Labels, i, i+1)
	is.UpdatedAt = s.now()
	writeJSON(w, http.StatusOK, s.labelsJSON(baseURL(r), is.Labels))
}

func (s *Server) listRepoLabels(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	start, end := pageOf(w, r, len(s.st.Labels))
	out := []any{}
	for _, l := range s.st.Labels[start:end] {
		out = append(out, s.labelJSON(baseURL(r), l.Name))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) createRepoLabel(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	var req struct {
		Name        string `json:"name"`
		Color       string `json:"color"`
		Description string `json:"description"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if !callerOf(r).canPush() {
		writeError(w, http.StatusForbidden, "Must have push access to create labels.")
		return
	}
	if req.Name == "" {
		writeValidation(w, fieldError{Resource: "Label", Field: "name", Code: "missing_field"})
		return
	}
	if s.findLabel(req.Name) != nil {
		writeValidation(w, fieldError{Resource: "Label", Field: "name", Code: "already_exists"})
		return
	}
	color := strings.TrimPrefix(req.Color, "#")
	if color == "" {
		color = "ededed"
	}
	s.st.Labels = append(s.st.Labels, &labelRec{ID: s.st.newID(), Name: req.Name, Color: color, Description: req.Description})
	w.Header().Set("Location", baseURL(r)+repoPath+"/labels/"+req.Name)
	writeJSON(w, http.StatusCreated, s.labelJSON(baseURL(r), req.Name))
}
