package initrepo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// GateCheck is the commit status the merge gate's comment job posts on a
// pull request's head: the check a ruleset must require.
const GateCheck = "aayudha/merge-gate"

// readUnguarded lists the branches (default and integration) on which
// nothing requires the gate, as far as the token can see.
func (p *Plan) readUnguarded(ctx context.Context, gh *github.Client) {
	p.Unguarded = nil
	branches := []string{p.DefaultBranch}
	if p.Integration != p.DefaultBranch {
		branches = append(branches, p.Integration)
	}
	for _, b := range branches {
		reqs, _, err := ghx.RequiredChecks(ctx, gh, p.Owner, p.Repo, b)
		if err != nil {
			continue // doctor says what cannot be read; init offers only what it saw missing
		}
		required := false
		for _, r := range reqs {
			required = required || r.Check == GateCheck
		}
		if !required {
			p.Unguarded = append(p.Unguarded, b)
		}
	}
}

// RulesetOffer is the ruleset init offers for the branches where nothing
// requires the gate: one active branch ruleset requiring aayudha/merge-gate
// (POST /repos/{owner}/{repo}/rulesets), with the repository admin role as
// its one bypass actor, as `gh pr merge --admin` expects. It returns the
// command an admin runs and the body; "" when every branch is guarded.
func (p Plan) RulesetOffer() (command, body string) {
	if len(p.Unguarded) == 0 {
		return "", ""
	}
	var include []string
	for _, b := range p.Unguarded {
		include = append(include, "refs/heads/"+b)
	}
	rs := map[string]any{
		"name": "aayudha merge gate", "target": "branch", "enforcement": "active",
		"conditions":    map[string]any{"ref_name": map[string]any{"include": include, "exclude": []string{}}},
		"bypass_actors": []any{map[string]any{"actor_id": 5, "actor_type": "RepositoryRole", "bypass_mode": "always"}},
		"rules": []any{map[string]any{"type": "required_status_checks", "parameters": map[string]any{
			"strict_required_status_checks_policy": false,
			"required_status_checks":               []any{map[string]any{"context": GateCheck}},
		}}},
	}
	b, _ := json.Marshal(rs)
	return fmt.Sprintf("gh api --method POST repos/%s/%s/rulesets --input ruleset.json", p.Owner, p.Repo), string(b)
}
