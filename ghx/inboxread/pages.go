package inboxread

import (
	"context"
	"fmt"
	"sync"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// listPages reads a whole list like ghx.ListAll, but once page 1 names the
// last page (GitHub's Link rel="last"), asks for the others side by side
// — the Reader's transport keeps at most maxInFlight in flight — and puts
// them back in order. A list of 80 pages then costs about 20 round trips
// instead of 80. GitHub's ordering makes a list read in any order the same
// as one read in sequence: every page is a fixed window of the one sort.
func listPages[T any](ctx context.Context, fetch func(opts *github.ListOptions) ([]T, *github.Response, error)) ([]T, error) {
	first, resp, err := fetch(&github.ListOptions{PerPage: 100, Page: 1})
	if err != nil {
		return nil, err
	}
	last := resp.LastPage
	if resp.NextPage == 0 {
		return first, nil
	}
	if last < 2 {
		// No last page named: follow the next links one by one (page 1
		// again is a 304, free).
		return ghx.ListAll(ctx, fetch)
	}
	if last > ghx.MaxListPages {
		return first, fmt.Errorf("the list has %d pages: %w", last, ghx.ErrTooManyPages)
	}
	pages := make([][]T, last+1)
	errs := make([]error, last+1)
	pages[1] = first
	var wg sync.WaitGroup
	for p := 2; p <= last; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pages[p], _, errs[p] = fetch(&github.ListOptions{PerPage: 100, Page: p})
		}()
	}
	wg.Wait()
	var all []T
	for p := 1; p <= last; p++ {
		if errs[p] != nil {
			return all, fmt.Errorf("reading page %d of %d: %w", p, last, errs[p])
		}
		all = append(all, pages[p]...)
	}
	return all, nil
}
