package initrepo

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
)

// GateCheck is the commit status the merge gate's comment job posts on a
// pull request's head: the check a ruleset must require.
const GateCheck = "aayudha/merge-gate"

// Guard is what a repository's rules must hold, read from its default
// branch's policy: the integration branch ([autonomy] integration_branch,
// dev by default, when that branch exists) and whether a bot identity is
// configured ([identity]), which adds the reviewed pull request.
type Guard struct {
	Integration string
	Bot         bool
}

// ReadGuard reads the default branch's policy for the guard; a policy
// that cannot be read is the defaults (doctor's policy row says why).
func ReadGuard(ctx context.Context, gh *github.Client, owner, repo, def string) Guard {
	g := Guard{Integration: "dev"}
	if pol, err := ghx.ReadBaseConfig(ctx, gh, owner, repo, def); err == nil && pol.ConfigRead() {
		if ib := pol.Config().String("autonomy.integration_branch"); ib != "" {
			g.Integration = ib
		}
		g.Bot = !identity.SoloMode(pol.Identity())
	}
	if g.Integration != def {
		if _, _, err := gh.Git.GetRef(ctx, owner, repo, "heads/"+g.Integration); err != nil {
			g.Integration = def
		}
	}
	return g
}

// Targets are the branches this guard needs rules on.
func (g Guard) Targets(def string) []Target { return Targets(def, g.Integration, g.Bot) }

// readRules judges the rules the repository holds and plans the rulesets
// that set what is missing.
func (p *Plan) readRules(ctx context.Context, gh *github.Client) {
	targets := Targets(p.DefaultBranch, p.Integration, p.Bot)
	p.Rules = CheckRules(ctx, gh, p.Owner, p.Repo, targets)
	p.Rulesets = rulesetWrites(targets, p.Rules, rulesetNames(ctx, gh, p.Owner, p.Repo))
}

// rulesetNames are the names of the repository's rulesets: GitHub refuses
// a second ruleset of a name (422 "Name must be unique"), and a ruleset
// an earlier set-up made under init's name but weaker stays as it is
// (other rules may live in it), so the new one takes a free name beside
// it. A list that cannot be read names nothing: the create then says why.
func rulesetNames(ctx context.Context, gh *github.Client, owner, repo string) map[string]bool {
	taken := map[string]bool{}
	all, _, err := gh.Repositories.GetAllRulesets(ctx, owner, repo, false)
	if err != nil {
		return taken
	}
	for _, rs := range all {
		taken[rs.Name] = true
	}
	return taken
}

// freeName is name, or name with the first number from 2 that no ruleset
// holds ("aayudha merge gate 2").
func freeName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s %d", name, i); !taken[n] {
			return n
		}
	}
}
