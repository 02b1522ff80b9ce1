package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// commitSubresource serves /commits/{ref}, its /status, /statuses,
// /check-runs and /check-suites; a ref may hold "/", so the suffix decides.
func (s *Server) commitSubresource(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	rest := r.PathValue("ref")
	switch {
	case strings.HasSuffix(rest, "/status"):
		s.combinedStatus(w, r, strings.TrimSuffix(rest, "/status"))
	case strings.HasSuffix(rest, "/statuses"):
		s.listStatuses(w, r, strings.TrimSuffix(rest, "/statuses"))
	case strings.HasSuffix(rest, "/check-runs"):
		s.listCheckRunsForRef(w, r, strings.TrimSuffix(rest, "/check-runs"))
	case strings.HasSuffix(rest, "/check-suites"):
		s.listCheckSuitesForRef(w, r, strings.TrimSuffix(rest, "/check-suites"))
	default:
		h, ok := s.git.resolve(rest)
		if !ok {
			writeValidation(w, fieldError{Resource: "Commit", Field: "sha", Code: "invalid", Message: "No commit found for SHA: " + rest})
			return
		}
		s.getCommit(w, r, h)
	}
}

func statusJSON(base string, st *statusRec) map[string]any {
	return map[string]any{
		"url": base + repoPath + "/statuses/" + st.SHA, "avatar_url": nil, "id": st.ID, "node_id": nodeID("SC", st.ID),
		"state": st.State, "description": nilIfEmpty(st.Description), "target_url": nilIfEmpty(st.TargetURL),
		"context": st.Context, "created_at": ts(st.CreatedAt), "updated_at": ts(st.CreatedAt),
		"creator": userJSON(base, st.Creator),
	}
}

// statusesFor lists a commit's statuses, newest first.
func (s *Server) statusesFor(sha string) []*statusRec {
	var out []*statusRec
	for i := len(s.st.Statuses) - 1; i >= 0; i-- {
		if s.st.Statuses[i].SHA == sha {
			out = append(out, s.st.Statuses[i])
		}
	}
	return out
}

func (s *Server) listStatuses(w http.ResponseWriter, r *http.Request, ref string) {
	h, ok := s.git.resolve(ref)
	if !ok {
		notFound(w)
		return
	}
	list := s.statusesFor(h.String())
	start, end := pageOf(w, r, len(list))
	out := []any{}
	for _, st := range list[start:end] {
		out = append(out, statusJSON(baseURL(r), st))
	}
	writeJSON(w, http.StatusOK, out)
}

// combinedStatus keeps the newest status per context: failure or error
// wins, then pending (also when there are none), else success.
func (s *Server) combinedStatus(w http.ResponseWriter, r *http.Request, ref string) {
	h, ok := s.git.resolve(ref)
	if !ok {
		notFound(w)
		return
	}
	var latest []*statusRec
	seen := map[string]bool{}
	for _, st := range s.statusesFor(h.String()) {
		if !seen[st.Context] {
			seen[st.Context] = true
			latest = append(latest, st)
		}
	}
	state := "success"
	if len(latest) == 0 {
		state = "pending"
	}
	for _, st := range latest {
		if st.State == "failure" || st.State == "error" {
			state = "failure"
			break
		}
		if st.State == "pending" {
			state = "pending"
		}
	}
	base := baseURL(r)
	list := []any{}
	for _, st := range latest {
		list = append(list, statusJSON(base, st))
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"state": state, "statuses": list, "sha": h.String(), "total_count": len(list),
		"repository": s.repoJSON(base, callerOf(r), false),
		"commit_url": base + repoPath + "/commits/" + h.String(),
		"url":        base + repoPath + "/commits/" + h.String() + "/status",
	})
}

func (s *Server) createStatus(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	var req struct {
		State       string `json:"state"`
		TargetURL   string `json:"target_url"`
		Description string `json:"description"`
		Context     string `json:"context"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	if !c.canPush() {
		writeError(w, http.StatusForbidden, "Must have push access to create a commit status.")
		return
	}
	if !slices.Contains([]string{"error", "failure", "pending", "success"}, req.State) {
		writeValidation(w, fieldError{Resource: "Status", Field: "state", Code: "invalid"})
		return
	}
	h, ok := s.git.resolve(r.PathValue("sha"))
	if !ok {
		writeValidation(w, fieldError{Resource: "Status", Field: "sha", Code: "invalid", Message: "No commit found for SHA: " + r.PathValue("sha")})
		return
	}
	st := s.addStatus(h.String(), req.Context, req.State, req.Description, req.TargetURL, c.Login)
	w.Header().Set("Location", fmt.Sprintf("%s%s/statuses/%s", baseURL(r), repoPath, st.SHA))
	writeJSON(w, http.StatusCreated, statusJSON(baseURL(r), st))
}

func (s *Server) addStatus(sha, context, state, desc, target, creator string) *statusRec {
	if context == "" {
		context = "default"
	}
	st := &statusRec{ID: s.st.newID(), SHA: sha, Context: context, State: state, Description: desc,
		TargetURL: target, Creator: creator, CreatedAt: s.now()}
	s.st.Statuses = append(s.st.Statuses, st)
	return st
}
