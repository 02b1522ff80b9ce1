package gatecomment

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/proof"
)

// baseConfigLayer names the base branch's config in config's refusals.
const baseConfigLayer = "the base branch's .aayudha/config.toml"

// gateRules are what the pack is judged by beyond its own bytes, read the
// way ship reads them so the gate's comment never says "verifies" where
// ship would refuse: [verify] required_floors from the base branch's tip,
// and the story's evidence map and module path at the pull request's head.
// refusal, when set, says in words why no rules could be read; the gate
// then fails closed instead of judging by less.
type gateRules struct {
	opts    proof.Options
	refusal string
}

func readGateRules(ctx context.Context, client *github.Client, owner, repo string, pull *github.PullRequest, story int) (gateRules, error) {
	var g gateRules
	base := pull.GetBase().GetRef()
	raw, err := ghx.ReadFile(ctx, client, owner, repo, base, ".aayudha/config.toml")
	switch {
	case ghx.IsNotFound(err):
		raw = nil
	case err != nil:
		return g, fmt.Errorf("reading .aayudha/config.toml on %s: %s Nothing was written", base, ghx.Describe(err))
	}
	cfg, err := config.Load(config.Sources{Repo: raw, RepoName: baseConfigLayer})
	if err != nil {
		g.refusal = fmt.Sprintf("The policy on %s cannot be read (%v), so the pack has no required floors to be judged by; the gate fails closed.", base, err)
		return g, nil
	}
	g.opts.RequiredFloors = proof.RequiredFloorsSetting(cfg.Strings("verify.required_floors"))
	g.opts.CoverageThreshold = proof.CoverageThresholdSetting(cfg.String("verify.coverage_threshold"))
	if story <= 0 {
		return g, nil
	}
	head := pull.GetHead().GetSHA()
	mapPath := fmt.Sprintf(".aayudha/evidence/%d.toml", story)
	raw, err = ghx.ReadFile(ctx, client, owner, repo, head, mapPath)
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
