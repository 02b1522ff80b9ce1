package ghx

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/gitsha"
)

// HeadChecks reads every check on a commit: its statuses, the newest per
// context (GET commits/{ref}/status), and its check runs, the newest per
// name (GET commits/{ref}/check-runs, filter=latest).
func HeadChecks(ctx context.Context, c *github.Client, owner, repo, sha string) ([]checks.Check, error) {
	var out []checks.Check
	// The statuses and the check runs are read side by side; a failure of
	// the statuses is still the one named when both fail.
	var (
		runs    []*github.CheckRun
		runsErr error
		done    = make(chan struct{})
	)
	go func() {
		defer close(done)
		runs, runsErr = ListAll(ctx, func(lo *github.ListOptions) ([]*github.CheckRun, *github.Response, error) {
			res, resp, err := c.Checks.ListCheckRunsForRef(ctx, owner, repo, sha, &github.ListCheckRunsOptions{Filter: github.String("latest"), ListOptions: *lo})
			if err != nil {
				return nil, resp, err
			}
			return res.CheckRuns, resp, nil
		})
	}()
	combined, _, err := c.Repositories.GetCombinedStatus(ctx, owner, repo, sha, &github.ListOptions{PerPage: 100})
	<-done
	if err != nil {
		return nil, fmt.Errorf("reading the statuses of %s: %w", gitsha.Short(sha), err)
	}
	for _, s := range combined.Statuses {
		ch := checks.FromStatus(s.GetContext(), s.GetState(), s.GetCreator().GetLogin(), s.GetTargetURL())
		ch.Summary = s.GetDescription()
		out = append(out, ch)
	}
	if err := runsErr; err != nil {
		return nil, fmt.Errorf("reading the check runs of %s: %w", gitsha.Short(sha), err)
	}
	for _, r := range runs {
		ch := checks.FromCheckRun(r.GetName(), r.GetStatus(), r.GetConclusion(), r.GetApp().GetSlug(), r.GetDetailsURL())
		ch.Summary = r.GetOutput().GetTitle()
		out = append(out, ch)
	}
	return out, nil
}

// RequiredOf is RequiredChecks in the judgement's terms.
func RequiredOf(ctx context.Context, c *github.Client, owner, repo, branch string) ([]checks.Required, bool, error) {
	reqs, unread, err := RequiredChecks(ctx, c, owner, repo, branch)
	out := make([]checks.Required, 0, len(reqs))
	for _, r := range reqs {
		out = append(out, checks.Required{Name: r.Check, By: r.By})
	}
	return out, unread, err
}
