package sandbox

import (
	"net/http"
)

// mergeSettings are a repository's allow_squash_merge, allow_merge_commit
// and allow_rebase_merge (full-repository in REFERENCE.md §2): which merge
// methods pulls/merge accepts.
type mergeSettings struct {
	Squash bool `json:"allow_squash_merge"`
	Merge  bool `json:"allow_merge_commit"`
	Rebase bool `json:"allow_rebase_merge"`
}

// mergeSettings reads the settings; a state without any is squash only,
// as the demo has always been.
func (st *state) mergeSettings() mergeSettings {
	if st.Merge == nil {
		return mergeSettings{Squash: true}
	}
	return *st.Merge
}

func (m mergeSettings) allows(method string) bool {
	switch method {
	case "squash":
		return m.Squash
	case "merge":
		return m.Merge
	case "rebase":
		return m.Rebase
	}
	return false
}

// updateRepo is PATCH /repos/{owner}/{repo} for the merge settings, which
// only an admin may change (GitHub answers 403 to anyone else). At least
// one method must stay on, as GitHub's settings page and API insist.
func (s *Server) updateRepo(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	var req struct {
		Squash *bool `json:"allow_squash_merge"`
		Merge  *bool `json:"allow_merge_commit"`
		Rebase *bool `json:"allow_rebase_merge"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	if c.Permission != "admin" {
		writeError(w, http.StatusForbidden, "Must have admin rights to Repository.")
		return
	}
	m := s.st.mergeSettings()
	for _, f := range []struct {
		to  *bool
		set *bool
	}{{&m.Squash, req.Squash}, {&m.Merge, req.Merge}, {&m.Rebase, req.Rebase}} {
		if f.set != nil {
			*f.to = *f.set
		}
	}
	if !m.Squash && !m.Merge && !m.Rebase {
		writeValidation(w, fieldError{Resource: "Repository", Field: "merge_commit_allowed", Code: "invalid",
			Message: "At least one merge method must be allowed."})
		return
	}
	s.st.Merge = &m
	writeJSON(w, http.StatusOK, s.repoJSON(baseURL(r), c, true))
}
