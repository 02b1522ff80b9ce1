// Package protected is the protected-paths gate's step (`aayu protected PR
// --ci`, run by the workflow init proposes): every changed protected path
// of a pull request needs an approval of its head from one of that path's
// CODEOWNERS, read from the base branch (seed 001, invariant 2). It reads
// only, through the API; it never checks out the pull request's code.
package protected

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// Exit codes, from the one table in model/exitcode (SPEC §3).
const (
	ExitOK      = exitcode.OK
	ExitFailed  = exitcode.Failed
	ExitRefused = exitcode.Refused
)

// Check runs the gate on pull request pr and returns its exit code and the
// lines to print.
func Check(ctx context.Context, gh *github.Client, owner, repo string, pr int) (int, []string, error) {
	pull, _, err := gh.PullRequests.Get(ctx, owner, repo, pr)
	if err != nil {
		return ExitFailed, nil, fmt.Errorf("reading pull request #%d: %s", pr, ghx.Describe(err))
	}
	base := pull.GetBase().GetRef()
	in := pass.GateInput{Author: pull.GetUser().GetLogin(), Head: pull.GetHead().GetSHA()}
	// The base policy through the one reader ship uses, failing closed the
	// same way: a config, LAYERS.md or CODEOWNERS it cannot read refuses
	// here in ship's words, never drops bot_logins to nothing.
	pol, err := ghx.ReadBasePolicy(ctx, gh, owner, repo, base)
	if err != nil {
		return ExitFailed, nil, err
	}
	if refusals := pol.Refusals(); len(refusals) > 0 {
		var lines []string
		for _, r := range refusals {
			lines = append(lines, "refused: "+r)
		}
		return ExitRefused, append(lines, "Next: fix the base branch's policy through a reviewed pull request, then re-run this check."), nil
	}
	_, in.Codeowners = pol.CodeownersText()
	in.BotLogins = pol.Identity().BotLogins
	files, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
		return gh.PullRequests.ListFiles(ctx, owner, repo, pr, lo)
	})
	if err != nil {
		return ExitFailed, nil, fmt.Errorf("reading the files of #%d: %s", pr, ghx.Describe(err))
	}
	// Files counted by ship's one rule: a list at GitHub's cap may be cut.
	if why := pass.UnlistedFiles(len(files), pull.GetChangedFiles()); why != "" {
		return ExitRefused, []string{fmt.Sprintf("refused: #%d %s; the gate fails closed", pr, why)}, nil
	}
	for _, f := range files {
		in.Changed = append(in.Changed, pass.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename()})
	}
	reviews, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.PullRequestReview, *github.Response, error) {
		return gh.PullRequests.ListReviews(ctx, owner, repo, pr, lo)
	})
	if err != nil {
		return ExitFailed, nil, fmt.Errorf("reading the reviews of #%d: %s", pr, ghx.Describe(err))
	}
	for _, v := range reviews {
		in.Reviews = append(in.Reviews, pass.Review{ID: v.GetID(), State: v.GetState(), CommitID: v.GetCommitID(), SubmittedAt: v.GetSubmittedAt().Time,
			URL: v.GetHTMLURL(), Author: identity.Account{Login: v.GetUser().GetLogin(), Bot: v.GetUser().GetType() == "Bot"}})
	}
	res := pass.ProtectedPathsGate(in)
	var lines []string
	for _, p := range res.Paths {
		who := "no approval from its CODEOWNERS yet"
		if p.ApprovedBy != "" {
			who = "approved by @" + p.ApprovedBy
		}
		lines = append(lines, fmt.Sprintf("protected path %s (owners %s): %s", p.Path, strings.Join(p.Owners, ", "), who))
	}
	if res.Pass {
		if len(res.Paths) == 0 {
			lines = append(lines, fmt.Sprintf("passed: #%d changes no protected path", pr))
		} else {
			lines = append(lines, fmt.Sprintf("passed: every protected path #%d changes has its CODEOWNER's approval of head %s", pr, gitsha.Short(in.Head)))
		}
		return ExitOK, lines, nil
	}
	for _, r := range res.Refusals {
		lines = append(lines, "refused: "+r)
	}
	lines = append(lines, "Next: a CODEOWNER approves the head, then re-run this check.")
	return ExitRefused, lines, nil
}
