package sandbox_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func TestParseFaults(t *testing.T) {
	t.Parallel()
	f, err := sandbox.ParseFaults("5xx=0.1,latency=300ms,secondary-limit=0.05,drop=0.02,seed=7")
	want := sandbox.FaultSpec{ServerError: 0.1, Latency: 300 * time.Millisecond, SecondaryLimit: 0.05, Drop: 0.02, Seed: 7}
	if err != nil || f != want {
		t.Errorf("ParseFaults = %+v, %v", f, err)
	}
	for _, bad := range []string{"5xx", "5xx=2", "latency=fast", "teapot=1"} {
		if _, err := sandbox.ParseFaults(bad); err == nil {
			t.Errorf("ParseFaults(%q) accepted", bad)
		}
	}
}

// TestFaultsAsGitHubShowsThem: with a fixed seed every fault shape shows
// up, and the same seed gives the same sequence.
func TestFaultsAsGitHubShowsThem(t *testing.T) {
	t.Parallel()
	run := func() []int {
		spec := sandbox.FaultSpec{ServerError: 0.25, SecondaryLimit: 0.25, Drop: 0.25, Seed: 42}
		_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, Faults: spec})
		var statuses []int
		for i := 0; i < 40; i++ {
			req, _ := http.NewRequest("GET", base+"/repos/acme/benefits/issues/1", nil)
			req.Header.Set("Authorization", "token sandbox-founder")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				statuses = append(statuses, -1)
				continue
			}
			if resp.StatusCode == 403 || resp.StatusCode == 429 {
				if resp.Header.Get("X-RateLimit-Remaining") == "0" {
					t.Errorf("a secondary limit must not say remaining 0")
				}
			}
			_, rerr := readBody(resp)
			if rerr != nil {
				statuses = append(statuses, -1)
				continue
			}
			statuses = append(statuses, resp.StatusCode)
		}
		return statuses
	}
	a, b := run(), run()
	seen := map[int]bool{}
	for i := range a {
		seen[a[i]] = true
		if a[i] != b[i] {
			t.Fatalf("same seed, different faults at request %d: %v vs %v", i, a, b)
		}
	}
	for _, want := range []int{200, 502, 503, 403, 429, -1} {
		if !seen[want] {
			t.Errorf("fault shape %d never appeared in %v", want, a)
		}
	}
}

func readBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// TestFaultPlanAndExtraTokens: a plan puts its fault on exactly the
// request it picks, and an extra token is its account while an extra
// token naming no account is refused like any unknown token.
func TestFaultPlanAndExtraTokens(t *testing.T) {
	t.Parallel()
	calls := 0
	plan := func(r *http.Request) sandbox.Fault {
		calls++
		if calls == 2 {
			return sandbox.FaultUnavailable
		}
		return sandbox.NoFault
	}
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, FaultPlan: plan,
		ExtraTokens: map[string]string{"tok-writer": "writer", "tok-ghost": "ghost"}})
	get := func(token string) (int, string) {
		req, _ := http.NewRequest("GET", base+"/user", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := readBody(resp)
		return resp.StatusCode, string(body)
	}
	cases := []struct {
		token  string
		status int
		body   string
	}{
		{"tok-writer", 200, `"login":"writer"`},
		{"tok-writer", 503, "No server is currently available"},
		{"tok-writer", 200, `"login":"writer"`},
		{"tok-ghost", 401, "Bad credentials"},
		{"sandbox-reader", 200, `"login":"reader"`},
	}
	for i, c := range cases {
		if status, body := get(c.token); status != c.status || !strings.Contains(body, c.body) {
			t.Errorf("request %d: %d %.80s, want %d with %q", i+1, status, body, c.status, c.body)
		}
	}
}

// TestWriteLatencySlowsWritesOnly: WriteLatency holds back a write (here a
// comment's POST) and not a read, so a test can interrupt a write without
// waiting through slowed reads first.
func TestWriteLatencySlowsWritesOnly(t *testing.T) {
	t.Parallel()
	// A latency no test waits out: a write is still held back when its
	// client gives up after a second, and a read answers at all only if it
	// is not held back. Neither check times anything against the other, so
	// a loaded machine cannot fail it.
	const latency = time.Hour
	// Not the validated sandbox: the write's client leaves before any
	// answer, which is no response for GitHub's description to check.
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, Now: fixedClock, Faults: sandbox.FaultSpec{WriteLatency: latency}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	base := ts.URL
	do := func(method, path, body string, timeout time.Duration) (int, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "token sandbox-founder")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := do("POST", "/repos/acme/benefits/issues/1/comments", `{"body":"slow"}`, time.Second); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a comment's POST answered %d (%v) within a second; WriteLatency must hold it back", code, err)
	}
	// A read is not held back: it answers long before the hour.
	if code, err := do("GET", "/repos/acme/benefits/issues/1", "", 5*time.Minute); err != nil || code != http.StatusOK {
		t.Errorf("a read answered %d (%v); WriteLatency must not slow a read", code, err)
	}
}
