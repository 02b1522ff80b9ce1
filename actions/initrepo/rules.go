package initrepo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// The rules init sets and doctor checks, decided here once: on the
// integration and default branches the gate's check pinned to GitHub
// Actions, no force-push, no deletion and (with a bot identity) a
// reviewed pull request; on the ledger no force-push and no deletion. A
// rule holds only when a ruleset that no agent can bypass sets it.

// ActionsIntegrationID is GitHub Actions' App id on github.com. A required
// check pinned to it is met only by a status or check run a workflow job
// posts with its GITHUB_TOKEN; by name alone, any token with push access
// meets it (OpenAPI: "Users with push access in a repository can create
// commit statuses"; StatusCheckConfiguration.integration_id: "The optional
// integration ID that this status check must originate from").
const ActionsIntegrationID = 15368

// LedgerBranch is the branch the ledger's records live on.
const LedgerBranch = "ledger"

// Rule kinds, as GitHub's rules[].type names them; gate is the
// required_status_checks rule for GateCheck.
const (
	RuleGate     = "required_status_checks"
	RuleNoForce  = "non_fast_forward"
	RuleNoDelete = "deletion"
	RuleReview   = "pull_request"
)

// adminRoleID is the repository admin role's actor_id in bypass_actors.
const adminRoleID = 5

// Target is a branch and the rules it must hold.
type Target struct {
	Branch string
	Rules  []string // Rule* in the order checked
}

// Targets are the branches init guards: the integration and default
// branches with the gate (and, with a bot identity, a reviewed pull
// request), and the ledger.
func Targets(def, integration string, bot bool) []Target {
	gate := []string{RuleGate, RuleNoForce, RuleNoDelete}
	if bot {
		gate = append(gate, RuleReview)
	}
	var out []Target
	for _, b := range []string{integration, def} {
		if b != "" && !slices.ContainsFunc(out, func(t Target) bool { return t.Branch == b }) {
			out = append(out, Target{Branch: b, Rules: gate})
		}
	}
	return append(out, Target{Branch: LedgerBranch, Rules: []string{RuleNoForce, RuleNoDelete}})
}

// Verdict is what one rule on one branch is.
type Verdict string

const (
	Holds   Verdict = "holds"
	Missing Verdict = "missing" // absent, weaker than init sets it, or bypassable by an agent
	Unread  Verdict = "unread"  // the token could not tell
)

// RuleCheck is one rule on one branch, in words.
type RuleCheck struct {
	Branch, Rule string
	Verdict      Verdict
	Detail       string // what holds, or what is missing
	Setting      string // the exact setting that sets it on github.com
}

// Name is the check's name, as doctor's row shows it.
func (c RuleCheck) Name() string {
	switch c.Rule {
	case RuleGate:
		return "gate required on " + c.Branch
	case RuleNoForce:
		return "force-push blocked on " + c.Branch
	case RuleNoDelete:
		return "deletion blocked on " + c.Branch
	}
	return "review required on " + c.Branch
}

// branchRule is one entry of GET rules/branches/{branch}, kept raw: go-
// github's own type drops rule types it does not know.
type branchRule struct {
	Type       string          `json:"type"`
	Parameters json.RawMessage `json:"parameters"`
	RulesetID  int64           `json:"ruleset_id"`
}

type bypassActor struct {
	ActorID    *int64 `json:"actor_id"`
	ActorType  string `json:"actor_type"`
	BypassMode string `json:"bypass_mode"`
}

// ruleset is GET rulesets/{id}: bypass_actors is absent for a token that
// may not edit it.
type ruleset struct {
	ID           int64          `json:"id"`
	Name         string         `json:"name"`
	BypassActors *[]bypassActor `json:"bypass_actors"`
}

// agentBypass names the bypass actors an agent's token can be: an App
// (the agent's App is one), a deploy key, or a repository role below
// admin (a write token holds one). "" when none.
func (r ruleset) agentBypass() string {
	if r.BypassActors == nil {
		return ""
	}
	var who []string
	for _, a := range *r.BypassActors {
		switch {
		case a.ActorType == "Integration":
			who = append(who, fmt.Sprintf("the App %d", deref(a.ActorID)))
		case a.ActorType == "DeployKey":
			who = append(who, "deploy keys")
		case a.ActorType == "RepositoryRole" && deref(a.ActorID) != adminRoleID:
			who = append(who, fmt.Sprintf("the repository role %d (below admin; a write token holds one)", deref(a.ActorID)))
		}
	}
	return strings.Join(who, ", ")
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// CheckRules reads each target branch's rules (GET rules/branches/
// {branch}) and the rulesets they come from (GET rulesets/{id}, for who
// may bypass them), and judges every rule the target needs.
func CheckRules(ctx context.Context, gh *github.Client, owner, repo string, targets []Target) []RuleCheck {
	sets := map[int64]*ruleset{} // read once across branches
	var out []RuleCheck
	for _, t := range targets {
		rules, err := readBranchRules(ctx, gh, owner, repo, t.Branch)
		if err != nil {
			for _, r := range t.Rules {
				out = append(out, RuleCheck{Branch: t.Branch, Rule: r, Verdict: Unread, Detail: "could not be read: " + ghx.Describe(err), Setting: setting(r, t.Branch)})
			}
			continue
		}
		for _, r := range rules {
			if _, ok := sets[r.RulesetID]; !ok && r.RulesetID != 0 {
				sets[r.RulesetID] = readRuleset(ctx, gh, owner, repo, r.RulesetID)
			}
		}
		for _, kind := range t.Rules {
			c := judge(t.Branch, kind, rules, sets)
			if kind == RuleGate && c.Verdict != Holds {
				c = gateByProtection(ctx, gh, owner, repo, t.Branch, c)
			}
			out = append(out, c)
		}
	}
	return out
}

func readBranchRules(ctx context.Context, gh *github.Client, owner, repo, branch string) ([]branchRule, error) {
	req, err := gh.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/rules/branches/%s", owner, repo, url.PathEscape(branch)), nil)
	if err != nil {
		return nil, err
	}
	var rules []branchRule
	if _, err := gh.Do(ctx, req, &rules); err != nil {
		return nil, err
	}
	return rules, nil
}

// readRuleset reads one ruleset; nil when it cannot be read, which leaves
// its bypass unknown.
func readRuleset(ctx context.Context, gh *github.Client, owner, repo string, id int64) *ruleset {
	req, err := gh.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/rulesets/%d", owner, repo, id), nil)
	if err != nil {
		return nil
	}
	var rs ruleset
	if _, err := gh.Do(ctx, req, &rs); err != nil {
		return nil
	}
	return &rs
}

// judge decides one rule from the branch's rules: it holds when a
// ruleset no agent can bypass sets it as strongly as init does.
func judge(branch, kind string, rules []branchRule, sets map[int64]*ruleset) RuleCheck {
	c := RuleCheck{Branch: branch, Rule: kind, Setting: setting(kind, branch)}
	var weaker, bypassed []string
	bypassUnread := false
	for _, r := range rules {
		if r.Type != kind {
			continue
		}
		if why := weakness(kind, r.Parameters); why != "" {
			weaker = append(weaker, why)
			continue
		}
		rs := sets[r.RulesetID]
		switch {
		case rs == nil || rs.BypassActors == nil:
			bypassUnread = true
		case rs.agentBypass() != "":
			bypassed = append(bypassed, fmt.Sprintf("ruleset %d (%s) lets %s bypass it", rs.ID, rs.Name, rs.agentBypass()))
		default:
			c.Verdict, c.Detail = Holds, held(kind, branch)
			return c
		}
	}
	switch {
	case bypassUnread:
		c.Verdict, c.Detail = Unread, held(kind, branch)+", but your token may not read who can bypass it (GitHub shows that to admins)"
	case len(bypassed) > 0:
		c.Verdict, c.Detail = Missing, "set, but "+strings.Join(bypassed, "; ")+": an agent's token can get past it"
	case len(weaker) > 0:
		c.Verdict, c.Detail = Missing, strings.Join(uniqStrings(weaker), "; ")
	default:
		c.Verdict, c.Detail = Missing, absent(kind, branch)
	}
	return c
}

// weakness says why a rule of the kind is weaker than init sets it; ""
// when it is as strong. A required_status_checks rule without the gate
// is not the gate's rule at all.
func weakness(kind string, params json.RawMessage) string {
	switch kind {
	case RuleGate:
		var p struct {
			Checks []struct {
				Context       string `json:"context"`
				IntegrationID *int64 `json:"integration_id"`
			} `json:"required_status_checks"`
		}
		_ = json.Unmarshal(params, &p)
		why := "no required check names " + GateCheck
		for _, ch := range p.Checks {
			switch {
			case ch.Context != GateCheck:
			case ch.IntegrationID == nil:
				why = GateCheck + " is required by name only (no integration_id), so any token with push access can post it and merge or push past the gate"
			case *ch.IntegrationID != ActionsIntegrationID:
				why = fmt.Sprintf("%s is required from the App %d, not GitHub Actions (%d), so that App's tokens can post it", GateCheck, *ch.IntegrationID, ActionsIntegrationID)
			default:
				return ""
			}
		}
		return why
	case RuleReview:
		var p github.PullRequestRuleParameters
		_ = json.Unmarshal(params, &p)
		var lacks []string
		if p.RequiredApprovingReviewCount < 1 {
			lacks = append(lacks, "one approving review")
		}
		if !p.DismissStaleReviewsOnPush {
			lacks = append(lacks, "dismissing stale approvals on push")
		}
		if !p.RequireLastPushApproval {
			lacks = append(lacks, "approval of the last push by someone else")
		}
		if len(lacks) > 0 {
			return "the pull request rule lacks " + strings.Join(lacks, ", ")
		}
	}
	return ""
}

func held(kind, branch string) string {
	switch kind {
	case RuleGate:
		return fmt.Sprintf("a ruleset requires %s from GitHub Actions (integration_id %d)", GateCheck, ActionsIntegrationID)
	case RuleNoForce:
		return "a ruleset blocks force-pushes to " + branch
	case RuleNoDelete:
		return "a ruleset blocks deleting " + branch
	}
	return "a ruleset requires a pull request with one approving review, stale approvals dismissed on push and the last push approved by someone else"
}

func absent(kind, branch string) string {
	switch kind {
	case RuleGate:
		return "nothing requires " + GateCheck + ", so a change could merge without its proof"
	case RuleNoForce:
		if branch == LedgerBranch {
			return "nothing blocks a force-push to the ledger, so any token with push access can rewrite its records"
		}
		return "nothing blocks a force-push to " + branch + ", so any token with push access can rewrite its history"
	case RuleNoDelete:
		return "nothing stops a token with push access deleting " + branch
	}
	return "no rule requires a reviewed pull request, so the bot's token can merge its own pull request"
}

// setting is where the rule is set by hand on github.com.
func setting(kind, branch string) string {
	where := "Settings, Rules, Rulesets, a branch ruleset on " + branch + " with no App or write role in its bypass list: "
	switch kind {
	case RuleGate:
		return where + "Require status checks to pass, " + GateCheck + " with GitHub Actions as its source"
	case RuleNoForce:
		return where + "Block force pushes"
	case RuleNoDelete:
		return where + "Restrict deletions"
	}
	return where + "Require a pull request before merging, 1 required approval, Dismiss stale pull request approvals when new commits are pushed, Require approval of the most recent reviewable push"
}

// gateByProtection accepts classic branch protection that pins the gate
// to GitHub Actions (checks[].app_id), which rulesets do not show.
func gateByProtection(ctx context.Context, gh *github.Client, owner, repo, branch string, c RuleCheck) RuleCheck {
	prot, _, err := gh.Repositories.GetBranchProtection(ctx, owner, repo, branch)
	if err != nil {
		return c
	}
	rsc := prot.GetRequiredStatusChecks()
	if rsc == nil || rsc.Checks == nil {
		return c
	}
	for _, ch := range *rsc.Checks {
		if ch.Context == GateCheck && ch.AppID != nil && *ch.AppID == ActionsIntegrationID {
			c.Verdict, c.Detail = Holds, fmt.Sprintf("branch protection requires %s from GitHub Actions (app_id %d)", GateCheck, ActionsIntegrationID)
		}
	}
	return c
}

func uniqStrings(in []string) []string {
	var out []string
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// RulesetWrite is one ruleset init creates: its exact body, as shown
// before anything is written and as sent.
type RulesetWrite struct {
	Name     string
	Branches []string
	Fixes    []RuleCheck // the missing rules it sets
	Body     string      // the JSON POSTed to /repos/{owner}/{repo}/rulesets
}

// Command is how an admin creates it by hand with the body saved as
// ruleset.json.
func (w RulesetWrite) Command(owner, repo string) string {
	return fmt.Sprintf("gh api --method POST repos/%s/%s/rulesets --input ruleset.json", owner, repo)
}

// Ruleset names init gives its rulesets; a rule already held is not
// written twice.
const (
	GateRulesetName   = "aayudha merge gate"
	LedgerRulesetName = "aayudha ledger"
)

// rulesetWrites are the rulesets that set every missing rule: one on the
// guarded branches that miss any (the gate's rules, pinned to GitHub
// Actions, the repository admin role its one bypass, through pull
// requests only), one on the ledger with no bypass at all (aayu only
// appends to it). A rule the token could not read is left to doctor.
func rulesetWrites(targets []Target, checks []RuleCheck, taken map[string]bool) []RulesetWrite {
	gate, ledger := RulesetWrite{Name: freeName(GateRulesetName, taken)}, RulesetWrite{Name: freeName(LedgerRulesetName, taken)}
	var gateRules []string
	for _, t := range targets {
		w := &gate
		if t.Branch == LedgerBranch {
			w = &ledger
		}
		for _, c := range checks {
			if c.Branch == t.Branch && c.Verdict == Missing {
				w.Fixes = append(w.Fixes, c)
			}
		}
		if len(w.Fixes) > 0 && !slices.Contains(w.Branches, t.Branch) && slices.ContainsFunc(w.Fixes, func(c RuleCheck) bool { return c.Branch == t.Branch }) {
			w.Branches = append(w.Branches, t.Branch)
		}
		if t.Branch != LedgerBranch {
			gateRules = t.Rules
		}
	}
	var out []RulesetWrite
	if len(gate.Branches) > 0 {
		gate.Body = rulesetBody(gate.Name, gate.Branches, gateRules, true)
		out = append(out, gate)
	}
	if len(ledger.Branches) > 0 {
		ledger.Body = rulesetBody(ledger.Name, ledger.Branches, []string{RuleNoForce, RuleNoDelete}, false)
		out = append(out, ledger)
	}
	return out
}

// rulesetBody is the ruleset's JSON (OpenAPI: repos/create-repo-ruleset;
// the rules as repository-rule-*): every rule the branches need, not only
// the missing ones, so the ruleset stands on its own.
func rulesetBody(name string, branches, kinds []string, gate bool) string {
	var include []string
	for _, b := range branches {
		include = append(include, "refs/heads/"+b)
	}
	var rules []any
	for _, k := range kinds {
		switch k {
		case RuleGate:
			rules = append(rules, map[string]any{"type": RuleGate, "parameters": map[string]any{
				"strict_required_status_checks_policy": false,
				"required_status_checks":               []any{map[string]any{"context": GateCheck, "integration_id": ActionsIntegrationID}},
			}})
		case RuleReview:
			rules = append(rules, map[string]any{"type": RuleReview, "parameters": map[string]any{
				"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": true, "require_last_push_approval": true,
				"require_code_owner_review": false, "required_review_thread_resolution": false,
			}})
		default:
			rules = append(rules, map[string]any{"type": k})
		}
	}
	bypass := []any{}
	if gate {
		// The person merges the set-up pull request before the gate exists
		// on the base branch: the admin role may merge past the rules
		// through a pull request, never push around them.
		bypass = append(bypass, map[string]any{"actor_id": adminRoleID, "actor_type": "RepositoryRole", "bypass_mode": "pull_request"})
	}
	b, _ := json.Marshal(map[string]any{
		"name": name, "target": "branch", "enforcement": "active",
		"conditions":    map[string]any{"ref_name": map[string]any{"include": include, "exclude": []string{}}},
		"bypass_actors": bypass, "rules": rules,
	})
	return string(b)
}

// createRuleset POSTs the body exactly as shown.
func createRuleset(ctx context.Context, gh *github.Client, owner, repo string, w RulesetWrite) error {
	req, err := gh.NewRequest(http.MethodPost, fmt.Sprintf("repos/%s/%s/rulesets", owner, repo), json.RawMessage(w.Body))
	if err != nil {
		return err
	}
	_, err = gh.Do(ctx, req, nil)
	return err
}
