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
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// Exit codes, as every aayu command.
const (
	ExitOK      = 0
	ExitFailed  = 1
	ExitRefused = 4
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
	for _, p := range []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"} {
		b, err := ghx.ReadFile(ctx, gh, owner, repo, base, p)
		if err == nil {
			in.Codeowners = string(b)
			break
		}
		if !ghx.IsNotFound(err) {
			return ExitFailed, nil, fmt.Errorf("reading %s on %s: %s", p, base, ghx.Describe(err))
		}
	}
	if b, err := ghx.ReadFile(ctx, gh, owner, repo, base, ".aayudha/config.toml"); err == nil {
		if cfg, err := config.Load(config.Sources{Repo: b}); err == nil {
			in.BotLogins = cfg.Strings("identity.bot_logins")
		}
	}
	files, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
		return gh.PullRequests.ListFiles(ctx, owner, repo, pr, lo)
	})
	if err != nil {
		return ExitFailed, nil, fmt.Errorf("reading the files of #%d: %s", pr, ghx.Describe(err))
	}
	if len(files) < pull.GetChangedFiles() {
		return ExitRefused, []string{fmt.Sprintf("refused: #%d changes %d files and GitHub lists only %d, so the gate cannot see them all; it fails closed", pr, pull.GetChangedFiles(), len(files))}, nil
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
			lines = append(lines, fmt.Sprintf("passed: every protected path #%d changes has its CODEOWNER's approval of head %s", pr, short(in.Head)))
		}
		return ExitOK, lines, nil
	}
	for _, r := range res.Refusals {
		lines = append(lines, "refused: "+r)
	}
	lines = append(lines, "Next: a CODEOWNER approves the head, then re-run this check.")
	return ExitRefused, lines, nil
}

func short(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}
