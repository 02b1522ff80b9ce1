package initrepo

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// Result is what Apply wrote.
type Result struct {
	PR          int
	PRURL       string
	Commit      string // the set-up commit on Branch
	Branch      string
	VariableSet bool
	// Rulesets are the names of the rulesets created, in order.
	Rulesets []string
	// Failed names the write that did not happen when a later step failed
	// after an earlier one succeeded.
	Failed string
}

// Apply writes the plan: one commit on a new branch cut from the default
// branch's tip (blobs, a tree, a commit and a new ref through the Git Data
// API), one pull request into the default branch, the rulesets (each body
// exactly as the plan shows it), then the variable. The default branch
// itself is never written.
func Apply(ctx context.Context, gh *github.Client, p Plan) (Result, error) {
	res := Result{Branch: p.Branch}
	if p.PRWrites() {
		if err := openPR(ctx, gh, p, &res); err != nil {
			return res, err
		}
	}
	if p.CreatesRulesets() {
		for _, w := range p.Rulesets {
			if err := createRuleset(ctx, gh, p.Owner, p.Repo, w); err != nil {
				res.Failed = "the ruleset " + w.Name
				return res, fmt.Errorf("creating the ruleset %s: %s", w.Name, ghx.Describe(err))
			}
			res.Rulesets = append(res.Rulesets, w.Name)
		}
	}
	if p.SetsVariable() {
		if err := ghx.SetRepoVariable(ctx, gh, p.Owner, p.Repo, ghx.DeviceClientVariable, p.ClientID); err != nil {
			res.Failed = "the repository variable " + ghx.DeviceClientVariable
			return res, fmt.Errorf("setting %s: %s", ghx.DeviceClientVariable, ghx.Describe(err))
		}
		res.VariableSet = true
	}
	return res, nil
}

func openPR(ctx context.Context, gh *github.Client, p Plan, res *Result) error {
	o, r := p.Owner, p.Repo
	base, _, err := gh.Git.GetCommit(ctx, o, r, p.BaseSHA)
	if err != nil {
		return fmt.Errorf("reading %s's tip: %s", p.DefaultBranch, ghx.Describe(err))
	}
	var entries []*github.TreeEntry
	for _, c := range p.Changes {
		if c.Action == Keep {
			continue
		}
		entries = append(entries, &github.TreeEntry{Path: github.String(c.Path), Mode: github.String("100644"), Type: github.String("blob"), Content: github.String(c.Body)})
	}
	tree, _, err := gh.Git.CreateTree(ctx, o, r, base.GetTree().GetSHA(), entries)
	if err != nil {
		return fmt.Errorf("writing the set-up tree: %s", ghx.Describe(err))
	}
	commit, _, err := gh.Git.CreateCommit(ctx, o, r, &github.Commit{
		Message: github.String("Set up aayudha: the merge gate, the protected-paths gate and the policy\n\nProposed by aayu init."),
		Tree:    tree, Parents: []*github.Commit{{SHA: github.String(p.BaseSHA)}},
	}, nil)
	if err != nil {
		return fmt.Errorf("writing the set-up commit: %s", ghx.Describe(err))
	}
	res.Commit = commit.GetSHA()
	if _, _, err := gh.Git.CreateRef(ctx, o, r, &github.Reference{Ref: github.String("refs/heads/" + p.Branch), Object: &github.GitObject{SHA: commit.SHA}}); err != nil {
		return fmt.Errorf("creating the branch %s: %s", p.Branch, ghx.Describe(err))
	}
	pr, _, err := gh.PullRequests.Create(ctx, o, r, &github.NewPullRequest{
		Title: github.String("Set up aayudha: merge gate, protected paths, policy"),
		Head:  github.String(p.Branch), Base: github.String(p.DefaultBranch), Body: github.String(prBody(p)),
	})
	if err != nil {
		res.Failed = "the pull request (the branch " + p.Branch + " is pushed)"
		return fmt.Errorf("opening the set-up pull request: %s", ghx.Describe(err))
	}
	res.PR, res.PRURL = pr.GetNumber(), pr.GetHTMLURL()
	return nil
}

func prBody(p Plan) string {
	var b strings.Builder
	b.WriteString("Proposed by `aayu init`. Review it like any change to the gates; merging it turns the gates on.\n\n")
	for _, c := range p.Changes {
		if c.Action != Keep {
			fmt.Fprintf(&b, "- %s `%s`: %s\n", c.Action, c.Path, c.Why)
		}
	}
	b.WriteString("\nAfter merging, run `aayu doctor`: it checks the workflows and the rulesets that require `aayudha/merge-gate` from GitHub Actions.\n")
	return b.String()
}
