package conformance

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// StartSandbox runs a sandbox with the validator wrapped around it for the
// length of the test and returns it, the validator, and its base URL (no
// trailing slash). Every response the test receives has been checked
// against GitHub's description; a mismatch fails the test.
func StartSandbox(t testing.TB, opts sandbox.Options) (*sandbox.Server, *Validator, string) {
	t.Helper()
	// Every test's sandbox starts from a copy of the process's first
	// seeding (New makes its own when the test gives it a clock).
	opts.ShareSeed = true
	v := New(t)
	inner := opts.Wrap
	opts.Wrap = func(h http.Handler) http.Handler {
		if inner != nil {
			h = inner(h)
		}
		return v.Wrap(h)
	}
	s, err := sandbox.New(opts)
	if err != nil {
		t.Fatalf("starting the sandbox: %v", err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		ts.Close()
		_ = s.Close()
	})
	return s, v, ts.URL
}
