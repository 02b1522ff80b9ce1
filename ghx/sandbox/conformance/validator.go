package conformance

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// genericStatuses are answers GitHub gives on any operation whether or not
// the description lists them: a conditional 304, a bad token, a permission
// refusal or a rate limit, and server errors. Their JSON bodies must still
// be basic-error.
var genericStatuses = map[int]bool{304: true, 400: true, 401: true, 403: true, 404: true, 429: true, 500: true, 502: true, 503: true}

// undocumented are statuses GitHub is known to send that its description
// leaves out (github-api/REFERENCE.md marks them "+"); their bodies are
// basic-error.
var undocumented = map[string]bool{
	"pulls/list-reviews 404": true, "actions/list-workflow-runs 404": true, "actions/get-workflow-run 404": true,
	"actions/list-workflow-run-artifacts 404": true, "actions/get-artifact 404": true, "actions/download-artifact 404": true,
	"actions/create-workflow-dispatch 404": true, "actions/create-workflow-dispatch 422": true,
	"repos/get-collaborator-permission-level 403": true,
	// A variable that exists already, and a name GitHub refuses (issue 12).
	"actions/create-repo-variable 409": true, "actions/create-repo-variable 422": true,
}

// Validator checks every response a handler serves against the description.
type Validator struct {
	desc *Description
	t    testing.TB

	mu   sync.Mutex
	seen map[string]int // "operationId status" → count
}

// New loads the description from the repository's testdata/openapi and
// reports every mismatch to t with t.Errorf.
func New(t testing.TB) *Validator {
	t.Helper()
	d, err := sharedDescription()
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	return &Validator{desc: d, t: t, seen: map[string]int{}}
}

// sharedDescription loads the description once per test binary: it never
// changes, and its compiled schemas (safe for concurrent use) are the
// costly part of a validator.
var sharedDescription = sync.OnceValues(func() (*Description, error) {
	dir, err := FindDir()
	if err != nil {
		return nil, err
	}
	return Load(dir)
})

// Description returns the loaded description.
func (v *Validator) Description() *Description { return v.desc }

// Wrap validates each response of h after it is written. Paths on the web
// host (/login/…, the signed /_blob/… downloads, git's smart HTTP at
// /OWNER/REPO.git/…) are not REST operations and are not checked.
func (v *Validator) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// POST /graphql is not REST: the sandbox validates each query
		// against GitHub's GraphQL schema itself.
		if strings.HasPrefix(r.URL.Path, "/login/") || strings.HasPrefix(r.URL.Path, "/_blob/") || strings.Contains(r.URL.Path, ".git/") || r.URL.Path == "/graphql" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		res := rec.Result()
		if err := v.Check(r.Method, r.URL.EscapedPath(), res.StatusCode, res.Header, rec.Body.Bytes()); err != nil {
			v.t.Errorf("conformance: %s %s: %v", r.Method, r.URL.Path, err)
		}
		for k, vals := range res.Header {
			w.Header()[k] = vals
		}
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// Check validates one response and returns what does not conform.
func (v *Validator) Check(method, escapedPath string, status int, h http.Header, body []byte) error {
	op := v.desc.match(method, escapedPath)
	if op == nil {
		return fmt.Errorf("the description has no operation for %s %s", method, escapedPath)
	}
	v.mu.Lock()
	v.seen[fmt.Sprintf("%s %d", op.ID, status)]++
	for _, alias := range v.desc.aliases(method, escapedPath) {
		v.seen[fmt.Sprintf("%s %d", alias.ID, status)]++
	}
	v.mu.Unlock()
	if err := checkHeaders(method, status, h); err != nil {
		return fmt.Errorf("%s: %w", op.ID, err)
	}
	resp, described := v.desc.response(op, status)
	if !described {
		if !genericStatuses[status] && !undocumented[fmt.Sprintf("%s %d", op.ID, status)] {
			return fmt.Errorf("%s: status %d is not in the description for this operation", op.ID, status)
		}
		resp = map[string]any{"content": map[string]any{"application/json": map[string]any{
			"schema": map[string]any{"$ref": "#/components/schemas/basic-error"}}}}
		if status == 304 {
			resp = map[string]any{}
		}
	}
	content, _ := resp["content"].(map[string]any)
	jsonContent, _ := content["application/json"].(map[string]any)
	schema, hasSchema := jsonContent["schema"]
	ctype, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	switch {
	case status == 304 || status == 204 || status == 302:
		if len(body) != 0 {
			return fmt.Errorf("%s: status %d must have no body, got %d bytes", op.ID, status, len(body))
		}
		return nil
	case !hasSchema:
		return nil
	case ctype != "application/json":
		if status >= 500 || strings.Contains(ctype, "raw") {
			return nil
		}
		return fmt.Errorf("%s: status %d: content type %q, the description expects JSON", op.ID, status, h.Get("Content-Type"))
	}
	schemaKey := fmt.Sprintf("%s %s %d", op.Method, op.Template, status)
	key := validKey(schemaKey, body)
	if _, ok := v.desc.valid.Load(key); ok {
		return nil
	}
	s, err := v.desc.schemaFor(schemaKey, schema)
	if err != nil {
		return fmt.Errorf("%s: compiling the response schema: %w", op.ID, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: the body is not JSON: %w", op.ID, err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s: status %d: the body does not match the description: %v", op.ID, status, err)
	}
	v.desc.valid.Store(key, struct{}{})
	return nil
}

// checkHeaders asks for the headers GitHub sends on every API response.
func checkHeaders(method string, status int, h http.Header) error {
	for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Used", "X-RateLimit-Reset", "X-RateLimit-Resource", "X-GitHub-Request-Id"} {
		if h.Get(k) == "" {
			return fmt.Errorf("header %s is missing", k)
		}
	}
	if method == http.MethodGet && (status == 200 || status == 304) && h.Get("ETag") == "" {
		return fmt.Errorf("a GET answered %d without an ETag", status)
	}
	if ct := h.Get("Content-Type"); status == 200 && strings.HasPrefix(ct, "application/json") && ct != "application/json; charset=utf-8" {
		return fmt.Errorf("content type %q, GitHub sends application/json; charset=utf-8", ct)
	}
	return nil
}

// Seen lists "operationId status" pairs validated so far, sorted.
func (v *Validator) Seen() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]string, 0, len(v.seen))
	for k := range v.seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SeenOperation reports whether any response of the operation was checked.
func (v *Validator) SeenOperation(id string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for k := range v.seen {
		if strings.HasPrefix(k, id+" ") {
			return true
		}
	}
	return false
}
