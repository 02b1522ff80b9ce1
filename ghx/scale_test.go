package ghx_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestScaleReadsOpenItems measures, on a sandbox with 10,000 more items,
// the two reads the inbox makes of the open issues and pull requests,
// newest change first, 100 a page: the first costs no more requests than
// pages plus a handful; the second, with nothing changed, costs one request
// per list and none against the rate limit. A change then shows at once.
func TestScaleReadsOpenItems(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 10,000 items; skipped with -short")
	}
	if raceEnabled {
		t.Skip("seeding 10,000 items under the race detector takes minutes")
	}
	start := time.Now()
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{Scale: 10000}})
	seeded := time.Since(start)
	ctx := context.Background()
	lists := ghx.NewListCache()
	readIssues := func() ([]*github.Issue, bool, error) {
		return ghx.ListAllCached(ctx, lists, func(o *github.ListOptions) ([]*github.Issue, *github.Response, error) {
			return env.client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{
				State: "open", Sort: "updated", Direction: "desc", ListOptions: *o})
		})
	}
	readPulls := func() ([]*github.PullRequest, bool, error) {
		return ghx.ListAllCached(ctx, lists, func(o *github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
			return env.client.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{
				State: "open", Sort: "updated", Direction: "desc", ListOptions: *o})
		})
	}
	type read struct {
		issues, prs       int
		unchanged         bool
		requests, counted int
		took              time.Duration
		firstIssue        int
	}
	readBoth := func() read {
		t.Helper()
		mark, began := env.served.mark(), time.Now()
		issues, sameIssues, err := readIssues()
		if err != nil {
			t.Fatalf("open issues: %v", err)
		}
		prs, samePulls, err := readPulls()
		if err != nil {
			t.Fatalf("open pull requests: %v", err)
		}
		lines, counted := env.served.since(mark)
		return read{issues: len(issues), prs: len(prs), unchanged: sameIssues && samePulls,
			requests: len(lines), counted: counted, took: time.Since(began), firstIssue: issues[0].GetNumber()}
	}
	pages := func(n int) int { return (n + 99) / 100 }

	first := readBoth()
	if limit := pages(first.issues) + pages(first.prs) + 5; first.requests > limit || first.issues < 1000 || first.prs < 500 {
		t.Errorf("first read: %d open items and %d open PRs in %d requests, want at most %d", first.issues, first.prs, first.requests, limit)
	}
	second := readBoth()
	if !second.unchanged || second.requests != 2 || second.counted != 0 || second.issues != first.issues || second.prs != first.prs {
		t.Errorf("second read: unchanged %v, %d requests (%d counted), %d/%d items; want 2 requests, none counted",
			second.unchanged, second.requests, second.counted, second.issues, second.prs)
	}

	// A comment on the oldest open item moves it to the top of page 1.
	oldest := sandbox.DemoBug
	if _, _, err := env.client.Issues.CreateComment(ctx, owner, repo, oldest, &github.IssueComment{Body: github.String("still open")}); err != nil {
		t.Fatal(err)
	}
	third := readBoth()
	if third.unchanged || third.firstIssue != oldest {
		t.Errorf("after a comment on #%d: unchanged %v, first item #%d", oldest, third.unchanged, third.firstIssue)
	}
	t.Logf("seeded %d more items in %s", 10000, seeded.Round(time.Millisecond))
	t.Logf("first read:  %d open issues+PRs, %d open PRs: %d requests (%d counted against the rate limit) in %s",
		first.issues, first.prs, first.requests, first.counted, first.took.Round(time.Millisecond))
	t.Logf("second read, nothing changed: %d requests (%d counted) in %s", second.requests, second.counted, second.took.Round(time.Millisecond))
	t.Logf("after one comment: %d requests (%d counted) in %s", third.requests, third.counted, third.took.Round(time.Millisecond))
}
