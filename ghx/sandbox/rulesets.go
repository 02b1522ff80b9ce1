package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Repository rulesets, stored and returned in GitHub's own shape (the REST
// ruleset: name, target, enforcement, conditions.ref_name include/exclude,
// bypass_actors, rules with their parameters, as POST
// /repos/{owner}/{repo}/rulesets takes it), so what `aayu init` offers and
// `doctor` reads is the JSON GitHub defines. enforce.go judges writes by
// them.

// ActionsAppID is the integration id of GitHub Actions on github.com: the
// app every job's GITHUB_TOKEN acts for, and the integration_id a
// required status check pins to so that only a workflow's own run
// satisfies it.
const ActionsAppID = 15368

// LedgerRulesetID is the id of the demo's ruleset on the ledger branch.
const LedgerRulesetID = 4102

// Repository roles as a bypass actor's actor_id names them
// (actor_type "RepositoryRole"): GitHub's built-in role ids.
const (
	roleMaintain = 2
	roleWrite    = 4
	roleAdmin    = 5
)

// rulesetRec is one repository ruleset. Rules keep their parameters as
// the client sent them (with GitHub's required defaults filled in), so
// every field, integration_id included, comes back as it was stored.
type rulesetRec struct {
	ID          int64         `json:"id"`
	Name        string        `json:"name"`
	Target      string        `json:"target"`
	Enforcement string        `json:"enforcement"`
	Include     []string      `json:"include"`
	Exclude     []string      `json:"exclude"`
	Bypass      []bypassActor `json:"bypass_actors"`
	Rules       []ruleRec     `json:"rules"`
	CreatedAt   time.Time     `json:"created_at"`
	UpdatedAt   time.Time     `json:"updated_at"`
}

type bypassActor struct {
	ActorID    *int64 `json:"actor_id"`
	ActorType  string `json:"actor_type"`
	BypassMode string `json:"bypass_mode,omitempty"`
}

type ruleRec struct {
	Type       string         `json:"type"`
	Parameters map[string]any `json:"parameters,omitempty"`
}

// requiredCheck is one entry of a required_status_checks rule.
type requiredCheck struct {
	Context       string `json:"context"`
	IntegrationID *int64 `json:"integration_id,omitempty"`
}

// statusChecksParams and pullRequestParams are the parameters enforce.go
// reads.
type statusChecksParams struct {
	Checks               []requiredCheck `json:"required_status_checks"`
	Strict               bool            `json:"strict_required_status_checks_policy"`
	DoNotEnforceOnCreate bool            `json:"do_not_enforce_on_create"`
}

type pullRequestParams struct {
	Approvals        int  `json:"required_approving_review_count"`
	DismissStale     bool `json:"dismiss_stale_reviews_on_push"`
	LastPushApproval bool `json:"require_last_push_approval"`
}

func (r ruleRec) decode(v any) bool {
	b, err := json.Marshal(r.Parameters)
	return err == nil && json.Unmarshal(b, v) == nil
}

// knownRuleTypes are the branch rule types GitHub's OpenAPI lists
// (repository-rule-detailed); the sandbox stores any of them and enforces
// deletion, non_fast_forward, required_status_checks, pull_request,
// creation and update.
var knownRuleTypes = []string{"creation", "update", "deletion", "required_linear_history", "merge_queue",
	"required_deployments", "required_signatures", "pull_request", "required_status_checks", "non_fast_forward",
	"commit_message_pattern", "commit_author_email_pattern", "committer_email_pattern", "branch_name_pattern",
	"tag_name_pattern", "file_path_restriction", "max_file_path_length", "file_extension_restriction",
	"max_file_size", "workflows", "code_scanning", "copilot_code_review"}

// ruleDefaults fills the parameters GitHub's schema marks required, as
// GitHub answers them when a client leaves them out.
func ruleDefaults(r *ruleRec) {
	set := func(k string, v any) {
		if r.Parameters == nil {
			r.Parameters = map[string]any{}
		}
		if _, ok := r.Parameters[k]; !ok {
			r.Parameters[k] = v
		}
	}
	switch r.Type {
	case "required_status_checks":
		set("required_status_checks", []any{})
		set("strict_required_status_checks_policy", false)
	case "pull_request":
		set("dismiss_stale_reviews_on_push", false)
		set("require_code_owner_review", false)
		set("require_last_push_approval", false)
		set("required_approving_review_count", 0)
		set("required_review_thread_resolution", false)
	}
}

// rulesets is the repository's rulesets; a state saved before rulesets
// were kept whole (branch → required contexts) becomes one ruleset.
func (st *state) rulesets() []*rulesetRec {
	if st.Rulesets == nil && len(st.Rules) > 0 {
		var branches []string
		var checks []any
		seen := map[string]bool{}
		for b, ctxs := range st.Rules {
			branches = append(branches, "refs/heads/"+b)
			for _, c := range ctxs {
				if !seen[c] {
					seen[c] = true
					checks = append(checks, map[string]any{"context": c})
				}
			}
		}
		slices.Sort(branches)
		st.Rulesets = []*rulesetRec{gateRuleset(branches, []ruleRec{{Type: "required_status_checks",
			Parameters: map[string]any{"required_status_checks": checks, "strict_required_status_checks_policy": false}}}, st.RepoCreated)}
		st.Rules = nil
	}
	return st.Rulesets
}

// adminBypass is the bypass list the demo's rulesets carry: the admin role,
// always (what `gh pr merge --admin` relies on). No App and no write
// collaborator bypasses.
func adminBypass() []bypassActor {
	id := int64(roleAdmin)
	return []bypassActor{{ActorID: &id, ActorType: "RepositoryRole", BypassMode: "always"}}
}

func gateRuleset(include []string, rules []ruleRec, at time.Time) *rulesetRec {
	return &rulesetRec{ID: rulesetID, Name: "aayudha merge gate", Target: "branch", Enforcement: "active",
		Include: include, Exclude: []string{}, Bypass: adminBypass(), Rules: rules, CreatedAt: at, UpdatedAt: at}
}

// demoRulesets are the rulesets `aayu init` offers (SPEC §11): on the
// integration and stable branches the merge gate's status pinned to
// GitHub Actions, no force-push, no deletion, and with a bot identity a
// pull request with one approving review, stale reviews dismissed and the
// last push approved; on the ledger no force-push and no deletion. The
// admin role bypasses (the founder); no agent does.
func demoRulesets(branches []string, botIdentity bool, ledger bool, at time.Time) []*rulesetRec {
	actions := int64(ActionsAppID)
	var include []string
	for _, b := range branches {
		include = append(include, "refs/heads/"+b)
	}
	rules := []ruleRec{
		{Type: "required_status_checks", Parameters: map[string]any{
			"strict_required_status_checks_policy": false,
			"required_status_checks":               []any{requiredCheck{Context: GateCheck, IntegrationID: &actions}},
		}},
		{Type: "non_fast_forward"},
		{Type: "deletion"},
	}
	if botIdentity {
		pr := ruleRec{Type: "pull_request", Parameters: map[string]any{
			"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_last_push_approval": true,
		}}
		ruleDefaults(&pr)
		rules = append(rules, pr)
	}
	for i := range rules {
		ruleDefaults(&rules[i])
	}
	out := []*rulesetRec{gateRuleset(include, rules, at)}
	if ledger {
		out = append(out, &rulesetRec{ID: LedgerRulesetID, Name: "aayudha ledger", Target: "branch", Enforcement: "active",
			Include: []string{"refs/heads/ledger"}, Exclude: []string{}, Bypass: adminBypass(),
			Rules: []ruleRec{{Type: "non_fast_forward"}, {Type: "deletion"}}, CreatedAt: at, UpdatedAt: at})
	}
	// Round-trip through JSON so a seeded ruleset holds what a POSTed one
	// would: plain maps and float64s, never Go structs.
	for _, rs := range out {
		for i := range rs.Rules {
			b, _ := json.Marshal(rs.Rules[i].Parameters)
			rs.Rules[i].Parameters = nil
			_ = json.Unmarshal(b, &rs.Rules[i].Parameters)
		}
	}
	return out
}

// appliesTo says whether the ruleset's ref_name condition takes in branch:
// include patterns (~ALL, ~DEFAULT_BRANCH, or an fnmatch pattern on the
// full ref) less the exclude ones.
func (rs *rulesetRec) appliesTo(branch string) bool {
	if rs.Target != "" && rs.Target != "branch" {
		return false
	}
	ref := "refs/heads/" + branch
	match := func(pats []string) bool {
		for _, p := range pats {
			switch p {
			case "~ALL":
				return true
			case "~DEFAULT_BRANCH":
				if branch == "main" {
					return true
				}
				continue
			}
			if ok, _ := path.Match(p, ref); ok || p == ref {
				return true
			}
		}
		return false
	}
	return match(rs.Include) && !match(rs.Exclude)
}

// activeRulesFor lists the rules of the active rulesets that apply to
// branch, each with its ruleset ("evaluate" and "disabled" rulesets
// enforce nothing and, as GitHub's rules/branches says, are not returned).
func (s *Server) activeRulesFor(branch string) []appliedRule {
	var out []appliedRule
	for _, rs := range s.st.rulesets() {
		if rs.Enforcement != "active" || !rs.appliesTo(branch) {
			continue
		}
		for _, r := range rs.Rules {
			out = append(out, appliedRule{ruleRec: r, set: rs})
		}
	}
	return out
}

type appliedRule struct {
	ruleRec
	set *rulesetRec
}

// requiredChecks lists the status checks branch's active rulesets require.
func (s *Server) requiredChecks(branch string) []requiredCheck {
	var out []requiredCheck
	for _, r := range s.activeRulesFor(branch) {
		var p statusChecksParams
		if r.Type == "required_status_checks" && r.decode(&p) {
			out = append(out, p.Checks...)
		}
	}
	return out
}

// requiredContexts is requiredChecks' names.
func (s *Server) requiredContexts(branch string) []string {
	var out []string
	for _, c := range s.requiredChecks(branch) {
		if !slices.Contains(out, c.Context) {
			out = append(out, c.Context)
		}
	}
	return out
}

func (s *Server) ruleset(id string) *rulesetRec {
	for _, rs := range s.st.rulesets() {
		if strconv.FormatInt(rs.ID, 10) == id {
			return rs
		}
	}
	return nil
}

func (s *Server) routeRulesets(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/rulesets", s.listRulesets)
	m.HandleFunc("POST /repos/{owner}/{repo}/rulesets", s.createRuleset)
	m.HandleFunc("GET /repos/{owner}/{repo}/rulesets/{ruleset_id}", s.getRuleset)
	m.HandleFunc("PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}", s.updateRuleset)
}

const rulesetDocs = "https://docs.github.com/rest/repos/rules#create-a-repository-ruleset"

// rulesetJSON is the repository-ruleset object; full adds conditions,
// rules and (for an admin, who may edit it) bypass_actors.
func (s *Server) rulesetJSON(base string, c caller, rs *rulesetRec, full bool) map[string]any {
	api := fmt.Sprintf("%s%s/rulesets/%d", base, repoPath, rs.ID)
	html := fmt.Sprintf("%s%s/rules/%d", base, htmlRepo, rs.ID)
	m := map[string]any{
		"id": rs.ID, "name": rs.Name, "target": rs.Target, "source_type": "Repository", "source": RepoOwner + "/" + s.repoName(),
		"enforcement": rs.Enforcement, "node_id": nodeID("RRS", rs.ID),
		"_links":     map[string]any{"self": map[string]any{"href": api}, "html": map[string]any{"href": html}},
		"created_at": ts(rs.CreatedAt), "updated_at": ts(rs.UpdatedAt),
	}
	if !full {
		return m
	}
	include, exclude := rs.Include, rs.Exclude
	if include == nil {
		include = []string{}
	}
	if exclude == nil {
		exclude = []string{}
	}
	rules := []any{}
	for _, r := range rs.Rules {
		one := map[string]any{"type": r.Type}
		if r.Parameters != nil {
			one["parameters"] = r.Parameters
		}
		rules = append(rules, one)
	}
	m["conditions"] = map[string]any{"ref_name": map[string]any{"include": include, "exclude": exclude}}
	m["rules"] = rules
	if c.Permission == "admin" && c.job == nil && c.install == nil {
		bypass := []any{}
		for _, b := range rs.Bypass {
			bypass = append(bypass, b)
		}
		m["bypass_actors"] = bypass
	}
	m["current_user_can_bypass"] = "never"
	if mode := rs.bypassMode(c); mode != "" {
		m["current_user_can_bypass"] = map[string]string{"always": "always", "pull_request": "pull_requests_only"}[mode]
	}
	return m
}

func (s *Server) listRulesets(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	list := s.st.rulesets()
	start, end := pageOf(w, r, len(list))
	out := []any{}
	for _, rs := range list[start:end] {
		out = append(out, s.rulesetJSON(baseURL(r), callerOf(r), rs, false))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getRuleset(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	rs := s.ruleset(r.PathValue("ruleset_id"))
	if rs == nil {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, s.rulesetJSON(baseURL(r), callerOf(r), rs, true))
}

// rulesetBody is the request body of POST and PUT rulesets.
type rulesetBody struct {
	Name        *string `json:"name"`
	Target      *string `json:"target"`
	Enforcement *string `json:"enforcement"`
	Conditions  *struct {
		RefName struct {
			Include []string `json:"include"`
			Exclude []string `json:"exclude"`
		} `json:"ref_name"`
	} `json:"conditions"`
	Bypass *[]bypassActor `json:"bypass_actors"`
	Rules  *[]ruleRec     `json:"rules"`
}

// applyBody writes a request's fields onto rs; the message is GitHub's 422
// when a field is invalid.
func applyBody(rs *rulesetRec, b rulesetBody) string {
	if b.Name != nil {
		rs.Name = *b.Name
	}
	if b.Target != nil {
		rs.Target = *b.Target
	}
	if b.Enforcement != nil {
		rs.Enforcement = *b.Enforcement
	}
	if b.Conditions != nil {
		rs.Include, rs.Exclude = b.Conditions.RefName.Include, b.Conditions.RefName.Exclude
	}
	if b.Bypass != nil {
		rs.Bypass = *b.Bypass
	}
	if b.Rules != nil {
		rs.Rules = *b.Rules
	}
	switch {
	case strings.TrimSpace(rs.Name) == "":
		return "Name can't be blank"
	case rs.Target != "branch":
		return "Target must be branch: the sandbox keeps branch rulesets only"
	case !slices.Contains([]string{"active", "evaluate", "disabled"}, rs.Enforcement):
		return "Invalid enforcement: " + rs.Enforcement
	}
	for i := range rs.Rules {
		if !slices.Contains(knownRuleTypes, rs.Rules[i].Type) {
			return "Invalid rule '" + rs.Rules[i].Type + "': "
		}
		ruleDefaults(&rs.Rules[i])
	}
	for _, a := range rs.Bypass {
		if a.BypassMode == "" {
			continue
		}
		if a.BypassMode != "always" && a.BypassMode != "pull_request" {
			return "Invalid bypass mode: " + a.BypassMode
		}
	}
	return ""
}

// adminOnly answers GitHub's refusal of a ruleset write by a caller who is
// not a repository admin.
func adminOnly(w http.ResponseWriter, c caller) bool {
	if c.Permission == "admin" && c.job == nil && c.install == nil {
		return true
	}
	writeError(w, http.StatusForbidden, "Must have admin rights to Repository.")
	return false
}

func (s *Server) createRuleset(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !adminOnly(w, callerOf(r)) {
		return
	}
	var b rulesetBody
	if !decodeBody(w, r, &b) {
		return
	}
	now := s.now()
	rs := &rulesetRec{Target: "branch", Enforcement: "disabled", CreatedAt: now, UpdatedAt: now}
	if msg := applyBody(rs, b); msg != "" {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Validation Failed: "+msg, rulesetDocs)
		return
	}
	for _, other := range s.st.rulesets() {
		if other.Name == rs.Name {
			writeErrorDoc(w, http.StatusUnprocessableEntity, "Validation Failed: Name must be unique", rulesetDocs)
			return
		}
	}
	rs.ID = s.st.newID()
	for s.ruleset(strconv.FormatInt(rs.ID, 10)) != nil {
		rs.ID = s.st.newID()
	}
	s.st.Rulesets = append(s.st.rulesets(), rs)
	writeJSON(w, http.StatusCreated, s.rulesetJSON(baseURL(r), callerOf(r), rs, true))
}

func (s *Server) updateRuleset(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !adminOnly(w, callerOf(r)) {
		return
	}
	rs := s.ruleset(r.PathValue("ruleset_id"))
	if rs == nil {
		notFound(w)
		return
	}
	var b rulesetBody
	if !decodeBody(w, r, &b) {
		return
	}
	next := *rs
	if msg := applyBody(&next, b); msg != "" {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Validation Failed: "+msg, rulesetDocs)
		return
	}
	next.UpdatedAt = s.now()
	*rs = next
	writeJSON(w, http.StatusOK, s.rulesetJSON(baseURL(r), callerOf(r), rs, true))
}

// integrationID is the GitHub App a caller acts for: GitHub Actions for a
// job's GITHUB_TOKEN, the App of an installation token (the agent bot's
// sandbox-agent-bot is its installation token), 0 for a person.
func (c caller) integrationID() int64 {
	switch {
	case c.job != nil:
		return ActionsAppID
	case c.install != nil:
		return c.install.app.ID
	case strings.EqualFold(c.Login, BotLogin):
		return BotAppID
	}
	return 0
}

// bypassMode is how c may bypass the ruleset: "always", "pull_request"
// (only when merging a pull request) or "" (never). A RepositoryRole
// actor takes in the role and those above it; an Integration actor is an
// App's installation (a job's token is GitHub Actions').
func (rs *rulesetRec) bypassMode(c caller) string {
	if c.anonymous {
		return ""
	}
	best := ""
	for _, a := range rs.Bypass {
		if a.ActorID == nil && a.ActorType != "OrganizationAdmin" {
			continue
		}
		ok := false
		switch a.ActorType {
		case "RepositoryRole":
			if c.job != nil || c.install != nil || c.integrationID() != 0 {
				break // an App's token holds no repository role
			}
			switch *a.ActorID {
			case roleAdmin:
				ok = c.Permission == "admin"
			case roleMaintain:
				ok = c.Permission == "admin" || c.Permission == "maintain"
			case roleWrite:
				ok = c.Permission == "admin" || c.Permission == "maintain" || c.Permission == "write"
			}
		case "Integration":
			ok = c.integrationID() != 0 && c.integrationID() == *a.ActorID
		case "OrganizationAdmin":
			ok = c.Permission == "admin" && c.integrationID() == 0
		}
		if !ok {
			continue
		}
		mode := a.BypassMode
		if mode == "" {
			mode = "always"
		}
		if mode == "always" || best == "" {
			best = mode
		}
	}
	return best
}
