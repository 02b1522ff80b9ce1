package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/aayudha/aayu/actions/initrepo/templates"
)

// GateCheck is the commit status the merge gate's comment job sets on the
// pull request's head, the one a ruleset or branch protection must require.
const GateCheck = "aayudha/merge-gate"

// RulesetID is the id of the one ruleset each sandbox repository carries.
const RulesetID = rulesetID

const rulesetID = 4101

func (s *Server) routeRules(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/rules/branches/{branch...}", s.getBranchRules)
	m.HandleFunc("GET /repos/{owner}/{repo}/branches/{branch}/protection", s.getBranchProtection)
	m.HandleFunc("GET /repos/{owner}/{repo}/branches/{branch}", s.getBranch)
	m.HandleFunc("PATCH /repos/{owner}/{repo}/pulls/{number}", s.updatePull)
	m.HandleFunc("PATCH /repos/{owner}/{repo}", s.updateRepo)
	m.HandleFunc("DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}", s.deleteRuleset)
	s.routeRulesets(m)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/workflows", s.listWorkflows)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/workflows/{workflow}", s.getWorkflow)
}

// getBranchRules serves the rules the active rulesets apply to a branch,
// each with its parameters as stored and its ruleset's id.
func (s *Server) getBranchRules(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	out := []any{}
	for _, rule := range s.activeRulesFor(r.PathValue("branch")) {
		one := map[string]any{"type": rule.Type, "ruleset_source_type": "Repository",
			"ruleset_source": RepoOwner + "/" + s.repoName(), "ruleset_id": rule.set.ID}
		if rule.Parameters != nil {
			one["parameters"] = rule.Parameters
		}
		out = append(out, one)
	}
	start, end := pageOf(w, r, len(out))
	writeJSON(w, http.StatusOK, out[start:end])
}

// getBranchProtection: the sandbox uses rulesets, never classic branch
// protection, so every branch answers as GitHub does for an unprotected one.
func (s *Server) getBranchProtection(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	if c := callerOf(r); c.Permission != "admin" {
		writeError(w, http.StatusForbidden, "Resource not accessible by personal access token")
		return
	}
	writeErrorDoc(w, http.StatusNotFound, "Branch not protected", "https://docs.github.com/rest/branches/branch-protection#get-branch-protection")
}

// workflowFiles lists the repository's workflows on main, as Actions would
// have registered them.
func (s *Server) workflowFiles() []string {
	var out []string
	id, ok := s.git.resolve("main")
	if !ok {
		return nil
	}
	c, err := s.git.commit(id)
	if err != nil {
		return nil
	}
	for _, p := range []string{templates.MergeGatePath, templates.ProtectedPathsPath, templates.ApprovePath} {
		if _, err := s.lookup(c.TreeHash, p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func (s *Server) workflowJSON(base, p string) map[string]any {
	id := int64(workflowID)
	name := "aayudha merge gate"
	switch p {
	case templates.ProtectedPathsPath:
		id, name = workflowID+1, "aayudha protected paths"
	case templates.ApprovePath:
		id, name = workflowID+7, "aayudha approve"
	}
	created := ts(s.st.RepoCreated)
	api := fmt.Sprintf("%s/repos/%s/%s/actions/workflows/%d", base, RepoOwner, s.repoName(), id)
	html := fmt.Sprintf("%s/%s/%s/blob/main/%s", base, RepoOwner, s.repoName(), p)
	return map[string]any{
		"id": id, "node_id": nodeID("W", id), "name": name, "path": p, "state": "active",
		"created_at": created, "updated_at": created, "url": api, "html_url": html,
		"badge_url": fmt.Sprintf("%s/%s/%s/workflows/%s/badge.svg", base, RepoOwner, s.repoName(), strings.TrimPrefix(p, ".github/workflows/")),
	}
}

func (s *Server) repoName() string {
	if s.cur == FreshRepoName {
		return FreshRepoName
	}
	return RepoName
}

func (s *Server) listWorkflows(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	out := []any{}
	for _, p := range s.workflowFiles() {
		out = append(out, s.workflowJSON(baseURL(r), p))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(out), "workflows": out})
}

func (s *Server) getWorkflow(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	want := r.PathValue("workflow")
	for _, p := range s.workflowFiles() {
		wf := s.workflowJSON(baseURL(r), p)
		if want == strings.TrimPrefix(p, ".github/workflows/") || want == fmt.Sprint(wf["id"]) {
			writeJSON(w, http.StatusOK, wf)
			return
		}
	}
	notFound(w)
}

// deleteRuleset is DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}: an
// admin removes a ruleset (tests stage a repository whose gate nothing
// requires).
func (s *Server) deleteRuleset(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !adminOnly(w, callerOf(r)) {
		return
	}
	rs := s.ruleset(r.PathValue("ruleset_id"))
	if rs == nil {
		notFound(w)
		return
	}
	s.st.Rulesets = slices.DeleteFunc(s.st.rulesets(), func(x *rulesetRec) bool { return x == rs })
	w.WriteHeader(http.StatusNoContent)
}
