package packbuild

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
)

// Target is what GitHub says about the story to verify.
type Target struct {
	Story int
	Title string
	Bug   bool // labelled type:bug
	// Ready is specs/STORY/ready.md on the ledger; nil when there is none.
	Ready []byte
	// PR is the pull request that links the story (its story/N-… branch or
	// Refs/Fixes #N), the open one first, else the newest; 0 when none.
	PR      int
	HeadRef string
	HeadSHA string
	// BaseBranch is the pull request's base, or the repository's default
	// branch when no pull request links the story.
	BaseBranch string
	Private    bool
	// CloneURL is the repository's clone_url, for the advice to clone it.
	CloneURL string
}

// LedgerBranch holds the Ready snapshots.
const LedgerBranch = "ledger"

// Resolve reads the story's issue, its Ready snapshot from the ledger and
// the pull request that links it. A missing Ready snapshot is not an error
// here (the run refuses with words); a missing issue is.
func Resolve(ctx context.Context, gh *github.Client, owner, repo string, story int) (*Target, error) {
	is, _, err := gh.Issues.Get(ctx, owner, repo, story)
	if err != nil {
		return nil, fmt.Errorf("reading issue #%d: %s", story, ghx.Describe(err))
	}
	t := &Target{Story: story, Title: is.GetTitle()}
	for _, l := range is.Labels {
		if l.GetName() == inbox.LabelBug {
			t.Bug = true
		}
	}
	ready, err := ghx.ReadFile(ctx, gh, owner, repo, LedgerBranch, fmt.Sprintf("specs/%d/ready.md", story))
	switch {
	case err == nil:
		t.Ready = ready
	case !ghx.IsNotFound(err):
		return nil, fmt.Errorf("reading the Ready snapshot of story %d: %s", story, ghx.Describe(err))
	}
	r, _, err := gh.Repositories.Get(ctx, owner, repo)
	if err != nil {
		return nil, fmt.Errorf("reading %s/%s: %s", owner, repo, ghx.Describe(err))
	}
	t.Private, t.BaseBranch, t.CloneURL = r.GetPrivate(), r.GetDefaultBranch(), r.GetCloneURL()
	prs, err := ghx.ListAll(ctx, func(o *github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
		return gh.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{State: "all", ListOptions: *o})
	})
	if err != nil {
		return nil, fmt.Errorf("listing pull requests: %s", ghx.Describe(err))
	}
	var best *github.PullRequest
	for _, pr := range prs {
		if !slices.Contains(inbox.LinkedIssues(pr.GetHead().GetRef(), pr.GetBody()), story) {
			continue
		}
		if best == nil || better(pr, best) {
			best = pr
		}
	}
	if best != nil {
		t.PR, t.HeadRef, t.HeadSHA, t.BaseBranch = best.GetNumber(), best.GetHead().GetRef(), best.GetHead().GetSHA(), best.GetBase().GetRef()
	}
	return t, nil
}

// better prefers an open pull request, then the newer one.
func better(a, b *github.PullRequest) bool {
	if (a.GetState() == "open") != (b.GetState() == "open") {
		return a.GetState() == "open"
	}
	return a.GetNumber() > b.GetNumber()
}
