package ghx

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/go-github/v66/github"
)

// MaxListPages caps ListAll: 100 pages of 100 items. A list longer than
// that is a sign of a wrong query, not something to read to the end.
const MaxListPages = 100

// ErrTooManyPages is matched by ListAll's error when the cap was reached.
var ErrTooManyPages = errors.New("the list is longer than aayu reads")

// ListAll reads every page of a GitHub list, 100 items a page, following
// resp.NextPage until GitHub gives no next page or MaxListPages is reached.
// fetch gets the options to pass on (per_page and page already set). On an
// error the items read so far are returned with it.
func ListAll[T any](ctx context.Context, fetch func(opts *github.ListOptions) ([]T, *github.Response, error)) ([]T, error) {
	return readPages(ctx, fetch, nil, 1, 0)
}

// readPages appends to all the pages from page on; read is how many pages
// were read before it, so the cap counts them too.
func readPages[T any](ctx context.Context, fetch func(opts *github.ListOptions) ([]T, *github.Response, error), all []T, page, read int) ([]T, error) {
	opts := &github.ListOptions{PerPage: 100, Page: page}
	for pages := read + 1; ; pages++ {
		if err := ctx.Err(); err != nil {
			return all, err
		}
		items, resp, err := fetch(opts)
		all = append(all, items...)
		if err != nil {
			return all, fmt.Errorf("reading page %d of a GitHub list: %w", opts.Page, err)
		}
		if resp == nil || resp.NextPage == 0 {
			return all, nil
		}
		if resp.NextPage <= opts.Page {
			return all, fmt.Errorf("GitHub's list pointed from page %d back to page %d; stopped reading", opts.Page, resp.NextPage)
		}
		if pages >= MaxListPages {
			return all, fmt.Errorf("stopped after %d pages (%d items): %w", pages, len(all), ErrTooManyPages)
		}
		opts = &github.ListOptions{PerPage: 100, Page: resp.NextPage}
	}
}
