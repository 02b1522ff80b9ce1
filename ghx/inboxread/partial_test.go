package inboxread_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// forbidCommitsOf answers GraphQL as GitHub does when one field is
// FORBIDDEN: data with that field null, and an error whose path names it.
func forbidCommitsOf(pr int) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/graphql" {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var body map[string]any
			if json.Unmarshal(rec.Body.Bytes(), &body) == nil {
				data, _ := body["data"].(map[string]any)
				repo, _ := data["repository"].(map[string]any)
				prs, _ := repo["pullRequests"].(map[string]any)
				nodes, _ := prs["nodes"].([]any)
				for i, n := range nodes {
					if node, _ := n.(map[string]any); node != nil && node["number"] == float64(pr) {
						node["commits"] = nil
						body["errors"] = []any{map[string]any{"type": "FORBIDDEN", "message": "Resource not accessible by integration",
							"path": []any{"repository", "pullRequests", "nodes", i, "commits"}, "locations": []any{}}}
					}
				}
			}
			b, _ := json.Marshal(body)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(b)
		})
	}
}

// TestGraphQLPartialDataIsNotTrusted: GraphQL answers the page with one pull
// request's commits FORBIDDEN (data and errors). The reader keeps the page
// but takes none of that pull request's facts from it: they are read
// through REST, so the facts equal a REST-only read — its statuses are
// there, not silently missing.
func TestGraphQLPartialDataIsNotTrusted(t *testing.T) {
	t.Parallel()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, Wrap: forbidCommitsOf(sandbox.DemoPRReady)})
	w := &wire{next: http.DefaultTransport}
	partial := inboxread.New(clientFor(t, base, "founder", w), owner, repo, inboxread.Options{Logf: t.Logf})
	perItem := inboxread.New(clientFor(t, base, "founder", nil), owner, repo, inboxread.Options{PerItem: true})
	got := read(t, partial)
	_, _, paths := w.take()
	want := read(t, perItem)
	// The rest of the page is used: only PR 4's head is read through REST.
	statusReads := 0
	for _, p := range paths {
		if strings.Contains(p, "/status?") || strings.HasSuffix(p, "/status") {
			statusReads++
		}
	}
	if statusReads != 1 {
		t.Errorf("%d combined-status reads through REST, want PR 4's alone (the page's other pull requests are taken from GraphQL):\n%v", statusReads, paths)
	}
	if len(got.PRFacts[sandbox.DemoPRReady].Statuses) == 0 {
		t.Fatal("PR 4's statuses went missing with the forbidden field")
	}
	g, _ := json.Marshal(got.PRFacts)
	h, _ := json.Marshal(want.PRFacts)
	if !bytes.Equal(g, h) {
		t.Errorf("with partial GraphQL data the facts differ from REST's:\n partial %s\n rest    %s", g, h)
	}
}
