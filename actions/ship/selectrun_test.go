package ship

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// methods records the method of every request that reaches the network.
type methods struct {
	mu   sync.Mutex
	seen []string
}

func (m *methods) RoundTrip(req *http.Request) (*http.Response, error) {
	m.mu.Lock()
	m.seen = append(m.seen, req.Method+" "+req.URL.Path)
	m.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func passedIDs(p []PassedOver) []int64 {
	var ids []int64
	for _, x := range p {
		ids = append(ids, x.RunID)
	}
	return ids
}

// On the demo's PR 4 the newest qualifying run's artifact is tampered and
// an older one expired: SelectRun passes over both, as ship does, and names
// the run ship takes with ship's verdict on it. Ship's own run, on the same
// pull request, passes over exactly the same runs: one rule, not two.
func TestSelectRunTakesTheRunShipTakes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	choice, err := SelectRun(ctx, Config{Client: f.client("founder"), Owner: owner, Repo: repo, WorkDir: t.TempDir()}, sandbox.DemoPRReady)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.srv.RunID(sandbox.RunQualifying); choice.RunID != want || !choice.FloorsHold {
		t.Fatalf("SelectRun took run %d (floors hold %v: %s), want the qualifying run %d", choice.RunID, choice.FloorsHold, choice.Verdict, want)
	}
	if choice.Attempt != 1 || choice.Head != f.srv.HeadSHA(sandbox.DemoPRReady) {
		t.Errorf("the run's attempt %d and head %s: want attempt 1 on the pull request's head %s", choice.Attempt, choice.Head, f.srv.HeadSHA(sandbox.DemoPRReady))
	}
	if !strings.Contains(choice.Verdict, "the pack verifies") || !strings.Contains(choice.Verdict, "every floor holds") {
		t.Errorf("verdict %q is not ship's words for a pack that passes", choice.Verdict)
	}
	for _, s := range []string{sandbox.RunTampered, sandbox.RunExpired} {
		if !slices.Contains(passedIDs(choice.Passed), f.srv.RunID(s)) {
			t.Errorf("the %s run %d is not among those passed over: %v", s, f.srv.RunID(s), choice.Passed)
		}
	}

	s, err := New(f.config("founder"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(ctx, sandbox.DemoPRReady, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(passedIDs(res.Passed), passedIDs(choice.Passed)) {
		t.Errorf("ship passed over %v, SelectRun %v", passedIDs(res.Passed), passedIDs(choice.Passed))
	}
	if res.Pack == nil || res.Pack.Pack == nil || res.Pack.Pack.Authority.RunID != choice.RunID {
		t.Errorf("ship took another run than SelectRun's %d: %+v", choice.RunID, res.Pack)
	}
}

// PR 8's only run does not verify: ship would take no run, and SelectRun
// says so in gate 3's words.
func TestSelectRunNamesNoRunWhenNoneQualifies(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	choice, err := SelectRun(context.Background(), Config{Client: f.client("founder"), Owner: owner, Repo: repo, WorkDir: t.TempDir()}, sandbox.DemoPRStopped)
	if err != nil {
		t.Fatal(err)
	}
	if choice.RunID != 0 || choice.FloorsHold || !strings.Contains(choice.Verdict, "nothing qualifies") {
		t.Errorf("SelectRun on #%d: run %d, %q; want no run and gate 3's refusal", sandbox.DemoPRStopped, choice.RunID, choice.Verdict)
	}
	if !slices.Contains(passedIDs(choice.Passed), f.srv.RunID(sandbox.RunUnverifiedPR)) {
		t.Errorf("the unverified run is not named as passed over: %v", choice.Passed)
	}
}

// SelectRun only reads: every request it sends is a GET.
func TestSelectRunWritesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	wire := &methods{}
	client, err := ghx.NewClient(ghx.ClientOptions{APIURL: f.base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}, Base: wire})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SelectRun(context.Background(), Config{Client: client, Owner: owner, Repo: repo, WorkDir: t.TempDir()}, sandbox.DemoPRReady); err != nil {
		t.Fatal(err)
	}
	wire.mu.Lock()
	defer wire.mu.Unlock()
	for _, s := range wire.seen {
		if !strings.HasPrefix(s, "GET ") {
			t.Errorf("SelectRun sent %s", s)
		}
	}
	if len(wire.seen) == 0 {
		t.Error("SelectRun sent nothing")
	}
}
