package ghx

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-github/v66/github"
)

func serveIssue(f *fakeGitHub, title *atomic.Value) {
	f.mux.HandleFunc("GET /repos/acme/benefits/issues/{n}", func(w http.ResponseWriter, r *http.Request) {
		f.serveJSON(w, r, http.StatusOK, map[string]any{"number": 131, "title": title.Load().(string), "state": "open"})
	})
}

func TestConditionalRefreshIsFreeAndServedFromCache(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var title atomic.Value
	title.Store("Story 131: benefits summary")
	serveIssue(f, &title)
	s := newTestClient(t, f, nil)
	ctx := context.Background()

	first, resp1, err := s.client.Issues.Get(ctx, "acme", "benefits", 131)
	if err != nil {
		t.Fatalf("first read: %v", err)
	}
	if resp1.Header.Get(CacheHeader) == "hit" {
		t.Error("the first read cannot be a cache hit")
	}
	_, remainingAfterFirst := f.counts()

	second, resp2, err := s.client.Issues.Get(ctx, "acme", "benefits", 131)
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	requests, remainingAfterSecond := f.counts()
	if requests != 2 {
		t.Errorf("%d requests reached GitHub, want 2 (the refresh asks once)", requests)
	}
	if resp2.Header.Get(CacheHeader) != "hit" {
		t.Error("the refresh was not served from the cache")
	}
	if remainingAfterSecond != remainingAfterFirst {
		t.Errorf("the 304 refresh cost rate limit: remaining %d → %d", remainingAfterFirst, remainingAfterSecond)
	}
	if resp2.Rate.Remaining != remainingAfterSecond || resp2.Rate.Limit != 5000 {
		t.Errorf("go-github saw rate %+v, want the 304's fresh remaining %d", resp2.Rate, remainingAfterSecond)
	}
	if first.GetTitle() != second.GetTitle() || second.GetNumber() != 131 {
		t.Errorf("cached body differs: %q vs %q", first.GetTitle(), second.GetTitle())
	}

	title.Store("Story 131: renamed")
	third, resp3, err := s.client.Issues.Get(ctx, "acme", "benefits", 131)
	if err != nil {
		t.Fatal(err)
	}
	if third.GetTitle() != "Story 131: renamed" || resp3.Header.Get(CacheHeader) == "hit" {
		t.Errorf("a changed issue must come fresh, got %q", third.GetTitle())
	}
	fourth, resp4, err := s.client.Issues.Get(ctx, "acme", "benefits", 131)
	if err != nil || fourth.GetTitle() != "Story 131: renamed" || resp4.Header.Get(CacheHeader) != "hit" {
		t.Errorf("the new version was not cached: %q, hit=%q, err %v", fourth.GetTitle(), resp4.Header.Get(CacheHeader), err)
	}
	if !strings.Contains(s.logs.String(), "cache=hit") {
		t.Error("the log does not show the cache hit")
	}
}

func TestCorruptCacheEntryIsAMiss(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var title atomic.Value
	title.Store("a title")
	serveIssue(f, &title)
	var conditional atomic.Int32
	f.mux.HandleFunc("GET /repos/acme/benefits/pulls/{n}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			conditional.Add(1)
		}
		f.serveJSON(w, r, http.StatusOK, map[string]any{"number": 148})
	})
	s := newTestClient(t, f, nil)
	ctx := context.Background()
	if _, _, err := s.client.PullRequests.Get(ctx, "acme", "benefits", 148); err != nil {
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(filepath.Join(s.cache, "*"))
	if len(entries) != 1 {
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	damage := []struct {
		name string
		do   func(path string) error
	}{
		{"garbage", func(p string) error { return os.WriteFile(p, []byte("\x00\x01 not an entry"), 0o600) }},
		{"body flipped", func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[len(b)-2] ^= 0xff
			return os.WriteFile(p, b, 0o600)
		}},
		{"truncated", func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, b[:len(b)-5], 0o600)
		}},
		{"empty", func(p string) error { return os.WriteFile(p, nil, 0o600) }},
	}
	for _, d := range damage {
		if err := d.do(entries[0]); err != nil {
			t.Fatal(err)
		}
		before := conditional.Load()
		pr, resp, err := s.client.PullRequests.Get(ctx, "acme", "benefits", 148)
		if err != nil {
			t.Fatalf("%s: a damaged cache must not fail the read: %v", d.name, err)
		}
		if pr.GetNumber() != 148 || resp.Header.Get(CacheHeader) == "hit" || conditional.Load() != before {
			t.Errorf("%s: damaged entry was used (hit=%q)", d.name, resp.Header.Get(CacheHeader))
		}
	}
}

func TestCacheKeepsUsersApart(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var title atomic.Value
	title.Store("t")
	serveIssue(f, &title)
	dir := t.TempDir()
	ctx := context.Background()
	for _, login := range []string{"founder", "writer"} {
		s := newTestClient(t, f, func(o *ClientOptions) { o.CacheDir = dir; o.CacheNamespace = login })
		if _, _, err := s.client.Issues.Get(ctx, "acme", "benefits", 1); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries for two users reading one URL, want 2", len(entries))
	}
}

func TestTokenNeverInCacheOrLog(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var title atomic.Value
	title.Store("t")
	serveIssue(f, &title)
	f.mux.HandleFunc("GET /repos/acme/benefits/issues", func(w http.ResponseWriter, r *http.Request) {
		f.serveJSON(w, r, http.StatusOK, []map[string]any{{"number": 1}})
	})
	f.mux.HandleFunc("POST /repos/acme/benefits/issues/1/comments", func(w http.ResponseWriter, r *http.Request) {
		githubError(w, http.StatusBadGateway, "Server Error", "")
	})
	s := newTestClient(t, f, func(o *ClientOptions) { o.CacheNamespace = "" }) // namespace derived from the token
	ctx := context.Background()
	for range 2 {
		s.client.Issues.Get(ctx, "acme", "benefits", 1)
		s.client.Issues.ListByRepo(ctx, "acme", "benefits", &github.IssueListByRepoOptions{})
	}
	_, _, err := s.client.Issues.CreateComment(ctx, "acme", "benefits", 1, &github.IssueComment{Body: github.String("x")})
	if err == nil {
		t.Fatal("the comment should have failed")
	}
	assertNoToken(t, "error", err.Error())
	assertNoToken(t, "description", Describe(err))
	assertNoToken(t, "log", s.logs.String())
	if !strings.Contains(s.logs.String(), "status=304") {
		t.Error("log lacks the revalidation lines; the scan proves nothing")
	}
	files := 0
	filepath.WalkDir(s.cache, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		assertNoToken(t, "cache file name "+d.Name(), path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		assertNoToken(t, "cache file "+d.Name(), string(b))
		if strings.Contains(strings.ToLower(string(b)), "authorization\"") {
			t.Errorf("cache file %s stores an Authorization header", d.Name())
		}
		return nil
	})
	if files != 2 {
		t.Errorf("%d cache files, want 2", files)
	}
	if f.wrongAuth {
		t.Error("GitHub received a malformed Authorization header")
	}
}
