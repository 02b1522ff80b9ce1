package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// Repository rulesets created through REST (POST /repos/{owner}/{repo}/
// rulesets), kept as the JSON the caller sent so that a read gives back
// every rule and parameter (integration_id under required_status_checks,
// non_fast_forward, deletion, pull_request, bypass_actors) as GitHub does.
// This file only stores and serves them; what the sandbox enforces is
// decided in enforce.go and pushrules.go.

// rulesetRec is one stored ruleset: the request's fields and GitHub's own.
type rulesetRec struct {
	ID        int64           `json:"id"`
	Body      json.RawMessage `json:"body"` // name, target, enforcement, bypass_actors, conditions, rules
	CreatedAt string          `json:"created_at"`
}

// rulesetBody is the part of a ruleset the sandbox reads.
type rulesetBody struct {
	Name        string `json:"name"`
	Target      string `json:"target"`
	Enforcement string `json:"enforcement"`
	Conditions  struct {
		RefName struct {
			Include []string `json:"include"`
			Exclude []string `json:"exclude"`
		} `json:"ref_name"`
	} `json:"conditions"`
	Rules []json.RawMessage `json:"rules"`
}

func (s *Server) routeRulesets(m *http.ServeMux) {
	m.HandleFunc("POST /repos/{owner}/{repo}/rulesets", s.createRuleset)
	m.HandleFunc("GET /repos/{owner}/{repo}/rulesets", s.listRulesets)
	m.HandleFunc("GET /repos/{owner}/{repo}/rulesets/{ruleset_id}", s.getRuleset)
}

// createRuleset is POST /repos/{owner}/{repo}/rulesets ("Create a
// repository ruleset": name and enforcement required; admins only).
func (s *Server) createRuleset(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	if c := callerOf(r); c.Permission != "admin" {
		writeError(w, http.StatusForbidden, "Must have admin rights to Repository.")
		return
	}
	var raw json.RawMessage
	if !decodeBody(w, r, &raw) {
		return
	}
	var b rulesetBody
	if err := json.Unmarshal(raw, &b); err != nil || b.Name == "" {
		writeValidation(w, fieldError{Resource: "Ruleset", Field: "name", Code: "missing_field"})
		return
	}
	switch b.Enforcement {
	case "active", "evaluate", "disabled":
	default:
		writeValidation(w, fieldError{Resource: "Ruleset", Field: "enforcement", Code: "invalid"})
		return
	}
	id := s.st.newID()
	if id == rulesetID {
		id = s.st.newID() // the seeded ruleset's id
	}
	rec := &rulesetRec{ID: id, Body: raw, CreatedAt: ts(s.now())}
	s.st.Rulesets = append(s.st.Rulesets, rec)
	writeJSON(w, http.StatusCreated, s.rulesetJSON(r, rec, true))
}

func (s *Server) listRulesets(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	out := []any{}
	if len(s.st.Rules) > 0 {
		out = append(out, map[string]any{"id": rulesetID, "name": "aayudha merge gate", "target": "branch",
			"source_type": "Repository", "source": RepoOwner + "/" + s.repoName(), "enforcement": "active"})
	}
	for _, rec := range s.st.Rulesets {
		full := s.rulesetJSON(r, rec, false)
		delete(full, "rules")
		delete(full, "conditions")
		delete(full, "bypass_actors")
		out = append(out, full)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getRuleset(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("ruleset_id"), 10, 64)
	if id == rulesetID && len(s.st.Rules) > 0 {
		out := s.legacyRulesetJSON()
		if callerOf(r).Permission != "admin" {
			delete(out, "bypass_actors")
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	for _, rec := range s.st.Rulesets {
		if rec.ID == id {
			// GitHub shows bypass_actors only to those who may edit the
			// ruleset: the repository's admins.
			writeJSON(w, http.StatusOK, s.rulesetJSON(r, rec, callerOf(r).Permission == "admin"))
			return
		}
	}
	notFound(w)
}

// legacyRulesetJSON is the seeded ruleset (state.Rules) as GET
// rulesets/{id} shows it: the gate required by name, the admin role its
// bypass.
func (s *Server) legacyRulesetJSON() map[string]any {
	var include []string
	var checks []any
	seen := map[string]bool{}
	for b, cs := range s.st.Rules {
		include = append(include, "refs/heads/"+b)
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				checks = append(checks, map[string]any{"context": c})
			}
		}
	}
	return map[string]any{"id": rulesetID, "name": "aayudha merge gate", "target": "branch", "enforcement": "active",
		"source_type": "Repository", "source": RepoOwner + "/" + s.repoName(),
		"bypass_actors": []any{map[string]any{"actor_id": 5, "actor_type": "RepositoryRole", "bypass_mode": "always"}},
		"conditions":    map[string]any{"ref_name": map[string]any{"include": include, "exclude": []string{}}},
		"rules": []any{map[string]any{"type": "required_status_checks", "parameters": map[string]any{
			"strict_required_status_checks_policy": false, "required_status_checks": checks}}},
	}
}

// rulesetJSON is a stored ruleset as GitHub's repository-ruleset: the
// fields sent, then GitHub's own.
func (s *Server) rulesetJSON(r *http.Request, rec *rulesetRec, withBypass bool) map[string]any {
	out := map[string]any{}
	_ = json.Unmarshal(rec.Body, &out)
	out["id"] = rec.ID
	out["node_id"] = nodeID("RRS", rec.ID)
	out["source_type"] = "Repository"
	out["source"] = RepoOwner + "/" + s.repoName()
	out["created_at"], out["updated_at"] = rec.CreatedAt, rec.CreatedAt
	out["_links"] = map[string]any{"self": map[string]any{"href": fmt.Sprintf("%s/repos/%s/%s/rulesets/%d", baseURL(r), RepoOwner, s.repoName(), rec.ID)}}
	if _, ok := out["bypass_actors"]; !ok {
		out["bypass_actors"] = []any{}
	}
	if !withBypass {
		delete(out, "bypass_actors")
	}
	return out
}

// storedBranchRules are the rules of the active stored branch rulesets
// whose ref_name condition takes branch, each tagged with its ruleset as
// GET rules/branches/{branch} shows it ("Rules in rulesets with
// "evaluate" or "disabled" enforcement statuses are not returned").
func (s *Server) storedBranchRules(branch string) []any {
	var out []any
	for _, rec := range s.st.Rulesets {
		var b rulesetBody
		if json.Unmarshal(rec.Body, &b) != nil || b.Enforcement != "active" || (b.Target != "" && b.Target != "branch") {
			continue
		}
		if !refMatches(b.Conditions.RefName.Include, branch) || refMatches(b.Conditions.RefName.Exclude, branch) {
			continue
		}
		for _, raw := range b.Rules {
			rule := map[string]any{}
			if json.Unmarshal(raw, &rule) != nil {
				continue
			}
			rule["ruleset_source_type"], rule["ruleset_source"], rule["ruleset_id"] = "Repository", RepoOwner+"/"+s.repoName(), rec.ID
			out = append(out, rule)
		}
	}
	return out
}

// refMatches reads a ruleset's ref_name patterns: "~ALL", "~DEFAULT_BRANCH"
// (main in both sandbox repositories) and fnmatch patterns of refs/heads/.
func refMatches(patterns []string, branch string) bool {
	for _, p := range patterns {
		switch p {
		case "~ALL":
			return true
		case "~DEFAULT_BRANCH":
			if branch == "main" {
				return true
			}
			continue
		}
		p = strings.TrimPrefix(p, "refs/heads/")
		if ok, _ := path.Match(p, branch); ok || p == branch {
			return true
		}
	}
	return false
}
