package gatecomment

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/proof"
)

// gateRules are what the pack is judged by beyond its own bytes, read the
// way ship reads them so the gate's comment never says "verifies" where
// ship would refuse: [verify] required_floors from the base branch's tip,
// and the story's evidence map and module path at the pull request's head.
// A pull request that carries a local pack is refused (localpack.go).
// refusal, when set, says in words why no rules could be read; the gate
// then fails closed instead of judging by less.
type gateRules struct {
	opts    proof.Options
	refusal string
	// bots are the base's [identity] bot logins: a floor waiver one of
	// them accepted waives nothing, as ship judges it.
	bots []string
}

func readGateRules(ctx context.Context, client *github.Client, owner, repo string, pull *github.PullRequest, story int) (gateRules, error) {
	var g gateRules
	base := pull.GetBase().GetRef()
	// The base policy through the one reader ship, the protected-paths
	// gate and doctor use, failing closed in their words.
	pol, err := ghx.ReadBasePolicy(ctx, client, owner, repo, base)
	if err != nil {
		return g, fmt.Errorf("%s Nothing was written", err)
	}
	if g.refusal = pol.Sentence(); g.refusal != "" {
		return g, nil
	}
	if g.refusal, err = localPackRefusal(ctx, client, owner, repo, pull); err != nil || g.refusal != "" {
		return g, err
	}
	g.bots = pol.Identity().BotLogins
	floors := pol.Floors()
	g.opts.RequiredFloors, g.opts.CoverageThreshold = floors.Required, floors.CoverageThreshold
	if story <= 0 {
		return g, nil
	}
	head := pull.GetHead().GetSHA()
	mapPath := fmt.Sprintf(".aayudha/evidence/%d.toml", story)
	raw, err := ghx.ReadFile(ctx, client, owner, repo, head, mapPath)
	switch {
	case ghx.IsNotFound(err):
		// No map at the head: the criteria are still held to events that
		// show a test passing and none failing.
		return g, nil
	case err != nil:
		return g, fmt.Errorf("reading %s at the head: %s Nothing was written", mapPath, ghx.Describe(err))
	}
	if g.opts.EvidenceMap, err = proof.LoadEvidenceMap(raw); err != nil {
		g.refusal = fmt.Sprintf("The head's %s cannot be read (%v), so no criterion's tests can be checked; the gate fails closed.", mapPath, err)
		return g, nil
	}
	if gomod, err := ghx.ReadFile(ctx, client, owner, repo, head, "go.mod"); err == nil {
		g.opts.ModulePath = proof.ModulePathOf(gomod)
	}
	return g, nil
}
