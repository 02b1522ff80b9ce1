package ghx

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
)

// testTokenValue is what every leak check searches for.
const testTokenValue = "ghp_T0pSecretValue4TestsOnly0123456789ab"

// fakeGitHub mimics the parts of api.github.com the transport depends on:
// a primary rate limit counted per request, ETags that depend on the body
// and the caller, and 304s that (when authorised) cost nothing.
type fakeGitHub struct {
	srv *httptest.Server
	mux *http.ServeMux

	mu         sync.Mutex
	remaining  int
	requests   int  // every request that reached the server
	authorised int  // requests that carried the expected token
	wrongAuth  bool // a request carried some other Authorization value
}

func newFakeGitHub(t testing.TB) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{mux: http.NewServeMux(), remaining: 5000}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests++
		switch auth := r.Header.Get("Authorization"); auth {
		case "Bearer " + testTokenValue:
			f.authorised++
		case "":
		default:
			f.wrongAuth = true
		}
		f.mu.Unlock()
		f.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGitHub) url() string { return f.srv.URL + "/" }

func (f *fakeGitHub) counts() (requests, remaining int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests, f.remaining
}

// rateHeaders writes the X-RateLimit-* set; charge says whether this
// response uses up a request.
func (f *fakeGitHub) rateHeaders(w http.ResponseWriter, charge bool) {
	f.mu.Lock()
	if charge && f.remaining > 0 {
		f.remaining--
	}
	remaining := f.remaining
	f.mu.Unlock()
	h := w.Header()
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(5000-remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
}

// serveJSON answers like GitHub: ETag over body, Accept and caller; a
// matching If-None-Match (weak comparison) gets a bodiless 304 that is free
// when the request was authorised.
func (f *fakeGitHub) serveJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	sum := sha256.Sum256([]byte(string(body) + "\x00" + r.Header.Get("Accept") + "\x00" + r.Header.Get("Authorization")))
	etag := `"` + hex.EncodeToString(sum[:]) + `"`
	h := w.Header()
	h.Set("Cache-Control", "private, max-age=60, s-maxage=60")
	h.Set("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
	h.Set("ETag", etag)
	authorised := r.Header.Get("Authorization") != ""
	if status == http.StatusOK && r.Method == http.MethodGet && weakMatch(r.Header.Get("If-None-Match"), etag) {
		f.rateHeaders(w, !authorised)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	f.rateHeaders(w, true)
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

func weakMatch(header, etag string) bool {
	strip := func(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "W/") }
	for _, candidate := range strings.Split(header, ",") {
		if candidate = strip(candidate); candidate != "" && candidate == strip(etag) {
			return true
		}
	}
	return false
}

func githubError(w http.ResponseWriter, status int, message, doc string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{
		"message": message, "documentation_url": doc, "status": strconv.Itoa(status)})
}

// fakeSleep records waits instead of sleeping.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *fakeSleep) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

type clientSetup struct {
	client *github.Client
	logs   *bytes.Buffer
	sleep  *fakeSleep
	waits  *[]Wait
	cache  string
}

// newTestClient builds a client on f with a cache folder, a log buffer and
// a fake sleep; adjust lets a test change the options first.
func newTestClient(t testing.TB, f *fakeGitHub, adjust func(*ClientOptions)) clientSetup {
	t.Helper()
	var logs bytes.Buffer
	var mu sync.Mutex
	var waits []Wait
	setup := clientSetup{logs: &logs, sleep: &fakeSleep{}, waits: &waits, cache: t.TempDir()}
	opts := ClientOptions{
		APIURL:   f.url(),
		Token:    NewToken(testTokenValue, "test"),
		CacheDir: setup.cache,
		Logger:   slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil)),
		Sleep:    setup.sleep.sleep,
		Retry: RetryPolicy{
			Jitter: func(max time.Duration) time.Duration { return max },
			OnWait: func(w Wait) { mu.Lock(); waits = append(waits, w); mu.Unlock() },
		},
	}
	if adjust != nil {
		adjust(&opts)
	}
	client, err := NewClient(opts)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	setup.client = client
	return setup
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// assertNoToken fails (without printing the token) when text contains it.
func assertNoToken(t testing.TB, what, text string) {
	t.Helper()
	if strings.Contains(text, testTokenValue) {
		t.Errorf("%s contains the token value", what)
	}
}
