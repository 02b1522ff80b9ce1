package sandbox_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func get(t *testing.T, url, token string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestConditionalRequests: a matching If-None-Match gets 304 with no body
// and costs nothing; the rate headers say so.
func TestConditionalRequests(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	url := base + "/repos/acme/benefits/issues?state=all"
	first := get(t, url, "token sandbox-founder", nil)
	etag := first.Header.Get("ETag")
	if !strings.HasPrefix(etag, `W/"`) || first.Header.Get("X-RateLimit-Used") != "1" {
		t.Fatalf("first read: etag %q used %s", etag, first.Header.Get("X-RateLimit-Used"))
	}
	for _, inm := range []string{etag, strings.TrimPrefix(etag, "W/")} {
		again := get(t, url, "token sandbox-founder", map[string]string{"If-None-Match": inm})
		body, _ := io.ReadAll(again.Body)
		if again.StatusCode != 304 || len(body) != 0 || again.Header.Get("X-RateLimit-Used") != "1" {
			t.Errorf("If-None-Match %s: %d, %d bytes, used %s", inm, again.StatusCode, len(body), again.Header.Get("X-RateLimit-Used"))
		}
	}
	other := get(t, url, "Bearer sandbox-writer", map[string]string{"If-None-Match": etag})
	if other.StatusCode != 200 {
		t.Errorf("another user's ETag must not match: %d", other.StatusCode)
	}
	lm := get(t, base+"/repos/acme/benefits", "token sandbox-founder", nil).Header.Get("Last-Modified")
	if r := get(t, base+"/repos/acme/benefits", "token sandbox-founder", map[string]string{"If-Modified-Since": lm}); r.StatusCode != 304 {
		t.Errorf("If-Modified-Since: %d", r.StatusCode)
	}
}

func TestAuthAndErrors(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	cases := []struct {
		name, path, token string
		status            int
		message           string
	}{
		{"bad token", "/user", "token ghp_notasandboxtoken", 401, "Bad credentials"},
		{"unknown account", "/user", "Bearer sandbox-mallory", 401, "Bad credentials"},
		{"no token on /user", "/user", "", 401, "Requires authentication"},
		{"other repository", "/repos/acme/other", "token sandbox-founder", 404, "Not Found"},
		{"missing issue", "/repos/acme/benefits/issues/999", "token sandbox-founder", 404, "Not Found"},
		{"reader reads permissions", "/repos/acme/benefits/collaborators/founder/permission", "token sandbox-reader", 403, "push access"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, base+c.path, c.token, nil)
			b, _ := io.ReadAll(r.Body)
			if r.StatusCode != c.status || !strings.Contains(string(b), c.message) {
				t.Errorf("%d %s, want %d %q", r.StatusCode, b, c.status, c.message)
			}
		})
	}
	if r := get(t, base+"/repos/acme/benefits/issues", "", nil); r.StatusCode != 200 || r.Header.Get("X-RateLimit-Limit") != "60" {
		t.Errorf("anonymous read of the public demo: %d limit %s", r.StatusCode, r.Header.Get("X-RateLimit-Limit"))
	}
}

// TestPrimaryRateLimit: once spent, GitHub's 403 with remaining 0, which
// go-github v66 turns into a RateLimitError; /rate_limit stays free.
func TestPrimaryRateLimit(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, RateLimit: 3})
	gh := client(t, base, "sandbox-writer")
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, _, err := gh.Issues.Get(ctx, "acme", "benefits", 1); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	raw := get(t, base+"/repos/acme/benefits/issues/1", "token sandbox-writer", nil)
	if raw.StatusCode != 403 || raw.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("spent limit: %d remaining %s", raw.StatusCode, raw.Header.Get("X-RateLimit-Remaining"))
	}
	fresh := client(t, base, "sandbox-writer")
	_, _, err := fresh.Issues.Get(ctx, "acme", "benefits", 1)
	var rle *github.RateLimitError
	if !errors.As(err, &rle) {
		t.Errorf("go-github error: %T %v, want *github.RateLimitError", err, err)
	}
	if r := get(t, base+"/rate_limit", "token sandbox-writer", nil); r.StatusCode != 200 {
		t.Errorf("/rate_limit while limited: %d", r.StatusCode)
	}
}

func TestPaginationLinks(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	cases := []struct {
		page string
		rels []string
	}{
		{"1", []string{"next", "last"}},
		{"2", []string{"prev", "next", "last", "first"}},
		{"5", []string{"prev", "first"}},
	}
	for _, c := range cases {
		r := get(t, base+"/repos/acme/benefits/issues?state=all&per_page=4&page="+c.page, "token sandbox-founder", nil)
		link := r.Header.Get("Link")
		var got []string
		for _, part := range strings.Split(link, ", ") {
			_, rel, _ := strings.Cut(part, `rel="`)
			got = append(got, strings.TrimSuffix(rel, `"`))
		}
		if strings.Join(got, ",") != strings.Join(c.rels, ",") || !strings.Contains(link, "per_page=4") {
			t.Errorf("page %s: Link %q", c.page, link)
		}
	}
	if r := get(t, base+"/repos/acme/benefits/issues?state=all&per_page=100", "token sandbox-founder", nil); r.Header.Get("Link") != "" {
		t.Errorf("a single page has no Link header")
	}
}
