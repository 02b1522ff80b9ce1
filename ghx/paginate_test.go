package ghx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-github/v66/github"
)

// serveIssuePages serves total issues the way GitHub pages them: Link with
// next/last on the first page, prev/next/last/first in the middle,
// prev/first on the last, none for a single page.
func serveIssuePages(f *fakeGitHub, total int, perPageSeen *atomic.Value) {
	f.mux.HandleFunc("GET /repos/acme/benefits/issues", func(w http.ResponseWriter, r *http.Request) {
		perPage, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		perPageSeen.Store(perPage)
		if perPage <= 0 {
			perPage = 30
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page <= 0 {
			page = 1
		}
		last := (total + perPage - 1) / perPage
		link := func(p int, rel string) string {
			return fmt.Sprintf(`<%srepos/acme/benefits/issues?per_page=%d&page=%d>; rel="%s"`, f.url(), perPage, p, rel)
		}
		var links []string
		if page > 1 {
			links = append(links, link(page-1, "prev"))
		}
		if page < last {
			links = append(links, link(page+1, "next"), link(last, "last"))
		}
		if page > 1 {
			links = append(links, link(1, "first"))
		}
		if len(links) > 0 {
			w.Header().Set("Link", strings.Join(links, ", "))
		}
		var items []map[string]any
		for n := (page-1)*perPage + 1; n <= min(page*perPage, total); n++ {
			items = append(items, map[string]any{"number": n})
		}
		f.serveJSON(w, r, http.StatusOK, items)
	})
}

func TestListAllFollowsEveryPage(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var perPage atomic.Value
	serveIssuePages(f, 250, &perPage)
	s := newTestClient(t, f, nil)
	ctx := context.Background()
	list := func(opts *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return s.client.Issues.ListByRepo(ctx, "acme", "benefits", &github.IssueListByRepoOptions{State: "all", ListOptions: *opts})
	}
	issues, err := ListAll(ctx, list)
	if err != nil {
		t.Fatalf("ListAll: %v", err)
	}
	if len(issues) != 250 {
		t.Fatalf("%d issues, want 250", len(issues))
	}
	for i, issue := range issues {
		if issue.GetNumber() != i+1 {
			t.Fatalf("issue %d has number %d: pages out of order or repeated", i, issue.GetNumber())
		}
	}
	if requests, _ := f.counts(); requests != 3 || perPage.Load() != 100 {
		t.Errorf("%d requests with per_page %v, want 3 of 100", requests, perPage.Load())
	}

	// A second pass is three conditional requests, all answered from the cache.
	_, before := f.counts()
	again, err := ListAll(ctx, list)
	if _, after := f.counts(); err != nil || len(again) != 250 || after != before {
		t.Errorf("refresh: %d issues, err %v, rate remaining %d → %d", len(again), err, before, after)
	}
}

func TestListAllStops(t *testing.T) {
	t.Parallel()
	t.Run("cap", func(t *testing.T) {
		pages := 0
		_, err := ListAll(context.Background(), func(opts *github.ListOptions) ([]int, *github.Response, error) {
			pages++
			return []int{opts.Page}, &github.Response{NextPage: opts.Page + 1}, nil
		})
		if !errors.Is(err, ErrTooManyPages) || pages != MaxListPages {
			t.Errorf("err %v after %d pages, want ErrTooManyPages after %d", err, pages, MaxListPages)
		}
	})
	t.Run("loop", func(t *testing.T) {
		_, err := ListAll(context.Background(), func(opts *github.ListOptions) ([]int, *github.Response, error) {
			return []int{1}, &github.Response{NextPage: 1}, nil
		})
		if err == nil || !strings.Contains(err.Error(), "back to page 1") {
			t.Errorf("err = %v, want the loop refused", err)
		}
	})
	t.Run("error keeps what was read", func(t *testing.T) {
		got, err := ListAll(context.Background(), func(opts *github.ListOptions) ([]int, *github.Response, error) {
			if opts.Page == 2 {
				return nil, nil, errors.New("boom")
			}
			return []int{1, 2}, &github.Response{NextPage: 2}, nil
		})
		if err == nil || len(got) != 2 || !strings.Contains(err.Error(), "page 2") {
			t.Errorf("got %v, err %v", got, err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := ListAll(ctx, func(opts *github.ListOptions) ([]int, *github.Response, error) {
			t.Error("fetched after cancellation")
			return nil, nil, nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
}
