package conformance

import (
	"net/http"
	"strings"
	"testing"
)

func githubHeaders() http.Header {
	h := http.Header{}
	for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Used", "X-RateLimit-Reset", "X-RateLimit-Resource", "X-GitHub-Request-Id", "ETag"} {
		h.Set(k, "1")
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	return h
}

// TestCheckRefuses shows the validator fails what GitHub would not send.
func TestCheckRefuses(t *testing.T) {
	v := New(t)
	cases := []struct {
		name, method, path string
		status             int
		body, wantErr      string
	}{
		{"unknown operation", "GET", "/repos/acme/benefits/teleport", 200, `{}`, "no operation"},
		{"undescribed status", "PUT", "/repos/acme/benefits/pulls/4/merge", 418, `{}`, "not in the description"},
		{"missing required field", "GET", "/repos/acme/benefits/git/ref/heads/main", 200, `{"ref":"refs/heads/main","url":"u","object":{"type":"commit","sha":"0123456789012345678901234567890123456789","url":"u"}}`, "node_id"},
		{"wrong type", "GET", "/rate_limit", 200, `{"rate":{"limit":"many","remaining":1,"reset":1,"used":1},"resources":{"core":{"limit":1,"remaining":1,"reset":1,"used":1},"search":{"limit":1,"remaining":1,"reset":1,"used":1}}}`, "limit"},
		{"null where not nullable", "GET", "/repos/acme/benefits/actions/permissions/artifact-and-log-retention", 200, `{"days":null,"maximum_allowed_days":90}`, "days"},
		{"body on 302", "GET", "/repos/acme/benefits/actions/artifacts/1/zip", 302, `{"x":1}`, "no body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := v.Check(c.method, c.path, c.status, githubHeaders(), []byte(c.body))
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Check = %v, want an error mentioning %q", err, c.wantErr)
			}
		})
	}
}

// TestCheckAccepts shows the same checks pass conforming bodies, and that
// nullable fields, greedy paths and generic statuses are understood.
func TestCheckAccepts(t *testing.T) {
	v := New(t)
	cases := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"ref with slashes", "GET", "/repos/acme/benefits/git/ref/heads/story/3-x", 200, `{"ref":"refs/heads/story/3-x","node_id":"n","url":"u","object":{"type":"commit","sha":"0123456789012345678901234567890123456789","url":"u"}}`},
		{"retention", "GET", "/repos/acme/benefits/actions/permissions/artifact-and-log-retention", 200, `{"days":30,"maximum_allowed_days":90}`},
		{"bad credentials anywhere", "GET", "/repos/acme/benefits/pulls/4/files", 401, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`},
		{"not modified", "GET", "/repos/acme/benefits/issues/1", 304, ``},
		{"compare with escaped slash", "GET", "/repos/acme/benefits/compare/dev...story%2F3-x", 404, `{"message":"Not Found"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := v.Check(c.method, c.path, c.status, githubHeaders(), []byte(c.body)); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

// TestCoverageCountsAliases: a request to the compare URL exercises the
// current operation and its deprecated alias at once, and Missing names
// only what no validator saw.
func TestCoverageCountsAliases(t *testing.T) {
	v := New(t)
	c := NewCoverage()
	c.Add(v)
	want := []string{"repos/compare-commits-with-basehead", "repos/compare-commits", "git/get-ref"}
	if got := c.Missing(want); len(got) != 3 {
		t.Errorf("before any request: missing %v", got)
	}
	if err := v.Check("GET", "/repos/acme/benefits/compare/dev...story%2F3-x", 404, githubHeaders(), []byte(`{"message":"Not Found"}`)); err != nil {
		t.Fatal(err)
	}
	if got := c.Missing(want); len(got) != 1 || got[0] != "git/get-ref" {
		t.Errorf("after a compare: missing %v, want only git/get-ref", got)
	}
	ids, err := RequiredOperations()
	if err != nil || len(ids) != 47 {
		t.Errorf("operations.txt: %d operations, %v", len(ids), err)
	}
}

// TestCheckKeepsOnlyWhatMatched: a body found to match is not validated
// again, and that never lets another body through: the same operation
// and status with a body missing a required field is refused after the
// matching one passed (twice).
func TestCheckKeepsOnlyWhatMatched(t *testing.T) {
	v := New(t)
	const path = "/repos/acme/benefits/git/ref/heads/main"
	good := `{"ref":"refs/heads/main","node_id":"n","url":"u","object":{"type":"commit","sha":"0123456789012345678901234567890123456789","url":"u"}}`
	bad := `{"ref":"refs/heads/main","url":"u","object":{"type":"commit","sha":"0123456789012345678901234567890123456789","url":"u"}}`
	for range 2 {
		if err := v.Check("GET", path, 200, githubHeaders(), []byte(good)); err != nil {
			t.Fatalf("the matching body: %v", err)
		}
	}
	if err := v.Check("GET", path, 200, githubHeaders(), []byte(bad)); err == nil || !strings.Contains(err.Error(), "node_id") {
		t.Errorf("a body missing node_id after a matching one: Check = %v, want it refused", err)
	}
}
