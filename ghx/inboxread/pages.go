package inboxread

import (
	"context"
	"fmt"
	"sync"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// pageFetch asks for one page of a list, under ctx.
type pageFetch[T any] func(ctx context.Context, opts *github.ListOptions) ([]T, *github.Response, error)

// listPages reads a whole list like ghx.ListAll, but once page 1 names the
// last page (GitHub's Link rel="last"), asks for the others side by side
// (listRest) and puts them back in order. A list of 80 pages then costs
// about 20 round trips instead of 80. GitHub's ordering makes a list read
// in any order the same as one read in sequence: every page is a fixed
// window of the one sort.
func listPages[T any](ctx context.Context, fetch pageFetch[T]) ([]T, error) {
	return listPagesUntil(ctx, fetch, nil)
}

// listPagesUntil is listPages for a sorted list read only down to a bound:
// the list ends before its first item for which stop is true (nil: never),
// and no page after the one holding it is asked for once that is known.
// At most pageWorkers-1 pages past the end may already be in flight then;
// they are thrown away.
func listPagesUntil[T any](ctx context.Context, fetch pageFetch[T], stop func(T) bool) ([]T, error) {
	first, resp, err := fetch(ctx, &github.ListOptions{PerPage: 100, Page: 1})
	if err != nil {
		return nil, err
	}
	if i := firstStop(first, stop); i >= 0 {
		return first[:i], nil
	}
	if resp.NextPage == 0 {
		return first, nil
	}
	last := resp.LastPage
	if last < 2 {
		// No last page named: follow the next links one by one (page 1
		// again is a 304, free).
		all, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]T, *github.Response, error) { return fetch(ctx, lo) })
		if i := firstStop(all, stop); i >= 0 {
			return all[:i], nil
		}
		return all, err
	}
	if last > ghx.MaxListPages {
		if stop == nil {
			return first, fmt.Errorf("the list has %d pages: %w", last, ghx.ErrTooManyPages)
		}
		// The bound may come early: read as far as the cap allows.
		all, found, err := listRest(ctx, fetch, stop, first, ghx.MaxListPages)
		if err == nil && !found {
			err = fmt.Errorf("stopped after %d pages of %d: %w", ghx.MaxListPages, last, ghx.ErrTooManyPages)
		}
		return all, err
	}
	all, _, err := listRest(ctx, fetch, stop, first, last)
	return all, err
}

// pageWorkers is how many pages of one list are asked for at once. The
// Reader's transport bounds all its requests in flight to maxInFlight
// anyway; more workers than that would only queue there.
const pageWorkers = maxInFlight

// listRest reads pages 2..last with pageWorkers workers, each taking the
// lowest page not yet asked for, so pages arrive roughly in order and a
// bound is found early. The first error stops the others: a partial list
// is never returned as whole. A secondary rate limit on one page pauses
// the whole client (ghx's retry transport), so the other workers wait
// with it rather than keep asking. found says whether a page held the
// bound.
func listRest[T any](ctx context.Context, fetch pageFetch[T], stop func(T) bool, first []T, last int) (all []T, found bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		next     = 2
		end      = last // the last page needed: lowered when a page holds the bound
		pages    = make([][]T, last+1)
		firstErr error
		errPage  int
		wg       sync.WaitGroup
	)
	pages[1] = first
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil || next > end {
			return 0, false
		}
		p := next
		next++
		return p, true
	}
	for range min(pageWorkers, last-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				p, ok := take()
				if !ok {
					return
				}
				items, _, err := fetch(ctx, &github.ListOptions{PerPage: 100, Page: p})
				mu.Lock()
				switch {
				case p > end:
					// Past the bound found meanwhile: not needed.
				case err != nil:
					// The first error is the cause; those after it are
					// the others' cancellations.
					if firstErr == nil {
						firstErr, errPage = err, p
						cancel()
					}
				default:
					if i := firstStop(items, stop); i >= 0 {
						items, end, found = items[:i], p, true
					}
					pages[p] = items
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, false, fmt.Errorf("reading page %d of %d: %w", errPage, last, firstErr)
	}
	for p := 1; p <= end; p++ {
		all = append(all, pages[p]...)
	}
	return all, found, nil
}

// firstStop is the index of the first item stop holds for, or -1.
func firstStop[T any](items []T, stop func(T) bool) int {
	if stop == nil {
		return -1
	}
	for i, it := range items {
		if stop(it) {
			return i
		}
	}
	return -1
}
