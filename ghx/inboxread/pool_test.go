package inboxread_test

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// flight is a network-side transport that counts the requests in flight
// at once, and keeps when each was sent and when a 429 or 403 came back.
type flight struct {
	next http.RoundTripper

	mu       sync.Mutex
	now, max int
	busy     time.Duration // the requests' times on the wire, summed
	sent     []time.Time
	limited  []time.Time
}

func (f *flight) RoundTrip(req *http.Request) (*http.Response, error) {
	f.mu.Lock()
	f.now++
	f.max = max(f.max, f.now)
	began := time.Now()
	f.sent = append(f.sent, began)
	f.mu.Unlock()
	resp, err := f.next.RoundTrip(req)
	f.mu.Lock()
	f.now--
	f.busy += time.Since(began)
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusForbidden) {
		f.limited = append(f.limited, time.Now())
	}
	f.mu.Unlock()
	return resp, err
}

// scaledClient is the founder's client on base through rt, with sleep as
// its way of waiting.
func scaledClient(t *testing.T, base string, rt http.RoundTripper, sleep func(context.Context, time.Duration) error) *github.Client {
	t.Helper()
	client, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
		CacheDir: t.TempDir(), CacheNamespace: "founder", Base: rt, Sleep: sleep,
	})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// openIssueNumbers lists the open issues (not pull requests) one page
// after another, the order of reading nothing else relies on.
func openIssueNumbers(t *testing.T, client *github.Client) []int {
	t.Helper()
	ctx := context.Background()
	all, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "open", ListOptions: *lo})
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, is := range all {
		if !is.IsPullRequest() {
			out = append(out, is.GetNumber())
		}
	}
	sort.Ints(out)
	return out
}

func issueNumbers(t *testing.T, r *inboxread.Reader) []int {
	t.Helper()
	var out []int
	for _, is := range read(t, r).Issues {
		if is.Open() {
			out = append(out, is.Number)
		}
	}
	return out
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A cold read at scale, its lists' pages read side by side on a sandbox
// with latency, holds every open issue once and never has more than four
// requests on the wire at once.
func TestColdReadAtScaleReadsPagesSideBySideWithinTheBound(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scale test: run without -short")
	}
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, Scale: 1500, Faults: sandbox.FaultSpec{Latency: 5 * time.Millisecond}})
	f := &flight{next: http.DefaultTransport}
	r := inboxread.New(scaledClient(t, base, f, nil), owner, repo, inboxread.Options{})
	got := issueNumbers(t, r)
	want := openIssueNumbers(t, scaledClient(t, base, http.DefaultTransport, nil))
	if !sameInts(got, want) {
		t.Errorf("the read holds %d open issues, the list one page at a time %d", len(got), len(want))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.max > 4 {
		t.Errorf("%d requests in flight at once, want at most 4", f.max)
	}
	if f.max < 2 {
		t.Errorf("never more than one request in flight: the pages were not read side by side")
	}
}

// A secondary rate limit (429, Retry-After: 30) on one page of a list read
// side by side makes the whole pool wait it out and retry: the read is
// whole, the wait is the one GitHub asked for, and no request goes out
// while it lasts.
func TestSecondaryLimitOnOnePageMakesThePoolWaitNotFailOrHammer(t *testing.T) {
	if testing.Short() {
		t.Skip("scale test: run without -short")
	}
	var (
		planMu sync.Mutex
		done   bool
	)
	plan := func(r *http.Request) sandbox.Fault {
		planMu.Lock()
		defer planMu.Unlock()
		if done || r.URL.Path != "/repos/acme/benefits/issues" || r.URL.Query().Get("page") != "3" || r.URL.Query().Get("state") != "open" {
			return sandbox.NoFault
		}
		done = true
		return sandbox.FaultSecondary429
	}
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, Scale: 800, FaultPlan: plan, Faults: sandbox.FaultSpec{Latency: 5 * time.Millisecond}})
	var (
		sleepMu       sync.Mutex
		waits         []time.Duration
		waitEnds      []time.Time
		sleepForReals = 300 * time.Millisecond
	)
	sleep := func(ctx context.Context, d time.Duration) error {
		sleepMu.Lock()
		waits = append(waits, d)
		sleepMu.Unlock()
		select {
		case <-time.After(sleepForReals): // the test's stand-in for d
		case <-ctx.Done():
			return ctx.Err()
		}
		sleepMu.Lock()
		waitEnds = append(waitEnds, time.Now())
		sleepMu.Unlock()
		return nil
	}
	f := &flight{next: http.DefaultTransport}
	r := inboxread.New(scaledClient(t, base, f, sleep), owner, repo, inboxread.Options{})
	got := issueNumbers(t, r)
	want := openIssueNumbers(t, scaledClient(t, base, http.DefaultTransport, nil))
	if !sameInts(got, want) {
		t.Errorf("the read holds %d open issues, the list %d", len(got), len(want))
	}
	sleepMu.Lock()
	defer sleepMu.Unlock()
	if len(waits) != 1 || waits[0] != 30*time.Second {
		t.Fatalf("waits %v, want the one 30s GitHub asked for", waits)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.limited) != 1 {
		t.Fatalf("%d limited answers, want 1", len(f.limited))
	}
	// A request already sent when the 429 came back may still be on its
	// way; none may be sent from then until the wait is over (a few
	// milliseconds' grace for the answer to reach the retry transport).
	from, until := f.limited[0].Add(20*time.Millisecond), waitEnds[0]
	for _, at := range f.sent {
		if at.After(from) && at.Before(until) {
			t.Errorf("a request was sent %v after the 429, while the pool should wait until %v after it",
				at.Sub(f.limited[0]).Round(time.Millisecond), until.Sub(f.limited[0]).Round(time.Millisecond))
		}
	}
}
