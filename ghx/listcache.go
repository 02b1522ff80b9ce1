package ghx

import (
	"context"
	"fmt"
	"net/url"
	"sync"

	"github.com/google/go-github/v66/github"
)

// ListCache remembers the lists ListAllCached read, each under the request
// of its first page, so a refresh whose first page is unchanged costs one
// request and no rate limit. Use one ListCache per client: it does not
// tell users apart. Make one with NewListCache; a nil *ListCache caches
// nothing.
type ListCache struct {
	mu    sync.Mutex
	lists map[string]cachedList
}

type cachedList struct {
	etag  string // page 1's ETag when the list was read
	items any    // []T
}

// NewListCache returns an empty ListCache.
func NewListCache() *ListCache { return &ListCache{lists: map[string]cachedList{}} }

// ListAllCached reads a list like ListAll, but first asks for page 1 alone:
// when GitHub answers it 304 (the client's conditional cache turns that
// into a stored 200 marked CacheHeader "hit") and page 1's ETag is the one
// the cached list was read with, the whole cached list is returned and
// unchanged is true — one request, free of rate limit. Otherwise every
// page is read again (each page still conditional, so unchanged pages are
// free) and the cache updated. It needs a client built with a CacheDir.
//
// An unchanged page 1 says the list is unchanged only when every change
// reaches page 1, so order the list by sort=updated&direction=desc: GitHub
// bumps an item's updated_at on every comment, label, edit, push, close
// and reopen, which moves it to the top and changes page 1's body and so
// its ETag. One change does not reach page 1 of a filtered list: an item
// further down that leaves the filter (closed, on a state=open list) is
// simply gone from its page. Such a list shows the item until the next
// full read; every write re-reads its item first, so nothing is acted on
// by mistake, and a caller that must see it at once reads state=all.
func ListAllCached[T any](ctx context.Context, cache *ListCache, fetch func(opts *github.ListOptions) ([]T, *github.Response, error)) (items []T, unchanged bool, err error) {
	if cache == nil {
		items, err := ListAll(ctx, fetch)
		return items, false, err
	}
	first, resp, err := fetch(&github.ListOptions{PerPage: 100, Page: 1})
	if err != nil {
		return nil, false, fmt.Errorf("reading page 1 of a GitHub list: %w", err)
	}
	key, etag, hit := listKey(resp)
	if hit && key != "" {
		cache.mu.Lock()
		prev, ok := cache.lists[key]
		cache.mu.Unlock()
		if cached, typed := prev.items.([]T); ok && typed && prev.etag == etag {
			return append([]T(nil), cached...), true, nil
		}
	}
	all := append([]T(nil), first...)
	if resp.NextPage != 0 {
		if resp.NextPage <= 1 {
			return all, false, fmt.Errorf("GitHub's list pointed from page 1 back to page %d; stopped reading", resp.NextPage)
		}
		if all, err = readPages(ctx, fetch, all, resp.NextPage, 1); err != nil {
			return all, false, err
		}
	}
	if key != "" && etag != "" {
		cache.mu.Lock()
		cache.lists[key] = cachedList{etag: etag, items: append([]T(nil), all...)}
		cache.mu.Unlock()
	}
	return all, false, nil
}

// listKey names a list by its first page's URL without the page number,
// and reports page 1's ETag and whether the cache served it after a 304.
func listKey(resp *github.Response) (key, etag string, hit bool) {
	if resp == nil || resp.Response == nil {
		return "", "", false
	}
	etag = resp.Header.Get("ETag")
	hit = resp.Header.Get(CacheHeader) == "hit"
	if resp.Request == nil || resp.Request.URL == nil {
		return "", etag, hit
	}
	u := *resp.Request.URL
	q := u.Query()
	q.Del("page")
	u.RawQuery = q.Encode()
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}).String(), etag, hit
}
