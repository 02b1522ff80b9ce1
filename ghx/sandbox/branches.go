package sandbox

import (
	"net/http"
	"strings"
)

// getBranch is GET /repos/{owner}/{repo}/branches/{branch}: the
// branch-with-protection object. A branch a ruleset applies to is
// "protected", and its protection lists the checks the ruleset requires
// (GitHub folds rulesets' required checks into this view).
func (s *Server) getBranch(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	name := r.PathValue("branch")
	h := s.git.branch(name)
	if h.IsZero() {
		writeErrorDoc(w, http.StatusNotFound, "Branch not found", "https://docs.github.com/rest/branches/branches#get-a-branch")
		return
	}
	c, err := s.git.commit(h)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	base := baseURL(r)
	api := base + repoPath + "/branches/" + name
	required := s.requiredContexts(name)
	contexts := []string{}
	checks := []any{}
	for _, ctx := range required {
		contexts = append(contexts, ctx)
		checks = append(checks, map[string]any{"context": ctx, "app_id": nil})
	}
	level := "off"
	if len(required) > 0 {
		level = "non_admins" // the admin role bypasses (enforce.go)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"name": name, "commit": commitJSON(base, c),
		"_links":    map[string]any{"self": api, "html": base + htmlRepo + "/tree/" + name},
		"protected": len(s.activeRulesFor(name)) > 0, // any active rule (the ledger's no-force-push) protects it
		"protection": map[string]any{
			"enabled": len(s.activeRulesFor(name)) > 0,
			"required_status_checks": map[string]any{
				"enforcement_level": level, "contexts": contexts, "checks": checks,
			},
		},
		"protection_url": api + "/protection",
	})
}

// updatePull is PATCH /repos/{owner}/{repo}/pulls/{number}: the title, the
// body, and closing or reopening, for the author or anyone with push
// access (an agent retitles its own pull request).
func (s *Server) updatePull(w http.ResponseWriter, r *http.Request) {
	is := s.pullFrom(w, r)
	if is == nil {
		return
	}
	var req struct {
		Title *string `json:"title"`
		Body  *string `json:"body"`
		State *string `json:"state"`
		Base  *string `json:"base"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	switch {
	case !c.canPush() && !strings.EqualFold(c.Login, is.User):
		writeError(w, http.StatusForbidden, "Must have push access to update this pull request.")
		return
	case req.State != nil && *req.State != "open" && *req.State != "closed":
		writeValidation(w, fieldError{Resource: "PullRequest", Field: "state", Code: "invalid"})
		return
	case req.State != nil && is.PR.Merged:
		writeValidation(w, fieldError{Resource: "PullRequest", Code: "custom", Message: "Cannot change the state of a merged pull request"})
		return
	case req.Base != nil && s.git.branch(*req.Base).IsZero():
		writeValidation(w, fieldError{Resource: "PullRequest", Field: "base", Code: "invalid", Message: "Proposed base branch '" + *req.Base + "' was not found"})
		return
	}
	if req.Title != nil {
		is.Title = *req.Title
	}
	if req.Body != nil {
		is.Body = *req.Body
	}
	if req.Base != nil {
		is.PR.Base = *req.Base
	}
	if req.State != nil && *req.State != is.State {
		s.setIssueState(is, *req.State, "", c.Login)
	}
	is.UpdatedAt = s.now()
	writeJSON(w, http.StatusOK, s.prJSON(baseURL(r), is, true))
}
