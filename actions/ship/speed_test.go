package ship

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/identity"
)

// tripper is a transport that counts what the client sent: the requests,
// each line prefixed with its round trip, and the round trips.
type tripper interface {
	http.RoundTripper
	take() (lines []string, rounds int)
}

// counter counts requests without holding any, and estimates round trips
// from when the answers came: a request's round is one more than the
// highest round among the requests answered before it was sent. With
// latency on every request this is close to how many times the client
// waited for the network, but a slow answer on a loaded machine can push a
// request a round later: the benchmark's estimate, not the test's count.
type counter struct {
	next     http.RoundTripper
	mu       sync.Mutex
	lines    []string
	answered []int
	rounds   int
}

func (c *counter) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	round := 1
	for _, a := range c.answered {
		round = max(round, a+1)
	}
	c.rounds = max(c.rounds, round)
	c.lines = append(c.lines, fmt.Sprintf("%d %s %s", round, req.Method, req.URL.RequestURI()))
	c.mu.Unlock()
	resp, err := c.next.RoundTrip(req)
	c.mu.Lock()
	c.answered = append(c.answered, round)
	c.mu.Unlock()
	return resp, err
}

func (c *counter) take() ([]string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, rounds := c.lines, c.rounds
	c.lines, c.answered, c.rounds = nil, nil, 0
	return out, rounds
}

// barrier holds every request until the client has sent all it can send
// without another answer (nothing new for quiet, and every request of the
// round before answered), then lets them go together: each release is one
// round trip. The count does not depend on the machine's load as long as
// the client sends what it sends together within quiet of each other.
type barrier struct {
	next   http.RoundTripper
	quiet  time.Duration
	mu     sync.Mutex
	held   []*heldReq
	out    int // released, not yet answered
	timer  *time.Timer
	rounds int
	lines  []string
}

type heldReq struct {
	line    string
	release chan struct{}
	gone    bool // its context ended while held
}

func newBarrier(next http.RoundTripper, quiet time.Duration) *barrier {
	b := &barrier{next: next, quiet: quiet}
	b.timer = time.AfterFunc(time.Hour, b.release)
	return b
}

func (b *barrier) RoundTrip(req *http.Request) (*http.Response, error) {
	h := &heldReq{line: req.Method + " " + req.URL.RequestURI(), release: make(chan struct{})}
	b.mu.Lock()
	b.held = append(b.held, h)
	b.timer.Reset(b.quiet)
	b.mu.Unlock()
	select {
	case <-h.release:
	case <-req.Context().Done():
		b.mu.Lock()
		select {
		case <-h.release:
			b.answered()
		default:
			h.gone = true
		}
		b.mu.Unlock()
		return nil, req.Context().Err()
	}
	resp, err := b.next.RoundTrip(req)
	b.mu.Lock()
	b.answered()
	b.mu.Unlock()
	return resp, err
}

// answered counts one released request answered; b.mu is held.
func (b *barrier) answered() {
	b.out--
	if b.out == 0 {
		b.timer.Reset(b.quiet)
	}
}

func (b *barrier) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.out > 0 {
		return
	}
	var now []*heldReq
	for _, h := range b.held {
		if !h.gone {
			now = append(now, h)
		}
	}
	b.held = nil
	if len(now) == 0 {
		return
	}
	b.rounds++
	b.out += len(now)
	for _, h := range now {
		b.lines = append(b.lines, fmt.Sprintf("%d %s", b.rounds, h.line))
		close(h.release)
	}
}

func (b *barrier) take() ([]string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out, rounds := b.lines, b.rounds
	b.lines, b.rounds = nil, 0
	return out, rounds
}

// speedRun is one ship of the demo's PR 4 by the Solo-mode bypass, with
// the presence check approved beforehand: the requests, round trips and
// time from the start to the confirmation, and from the yes to shipped.
type speedRun struct {
	before, after           []string
	tripsBefore, tripsAfter int
	toConfirm, yesToShipped time.Duration
}

func shipMeasured(tb testing.TB, latency time.Duration, cnt tripper) speedRun {
	tb.Helper()
	_, _, base := conformance.StartSandbox(tb, sandbox.Options{StateDir: tb.TempDir(), Faults: sandbox.FaultSpec{Latency: latency}})
	client, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"), Base: cnt,
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
	})
	if err != nil {
		tb.Fatal(err)
	}
	pr := sandbox.DemoPRReady
	var out speedRun
	var began, yes time.Time
	cfg := Config{Client: client, Owner: owner, Repo: repo, Viewer: "founder", WorkDir: tb.TempDir(), Terminal: true, Env: envOf(nil),
		SoloBypass: true,
		Presence:   &identity.Session{Command: Command(pr), Login: "founder", Access: identity.AccessAdmin, Method: "device-flow"},
		Confirm: func(context.Context, Plan) (bool, error) {
			yes = time.Now()
			out.toConfirm = yes.Sub(began)
			out.before, out.tripsBefore = cnt.take()
			return true, nil
		}}
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	cnt.take()
	began = time.Now()
	res, err := s.Run(context.Background(), pr, nil)
	out.yesToShipped = time.Since(yes)
	out.after, out.tripsAfter = cnt.take()
	if err != nil || res.ExitCode != ExitShipped {
		tb.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	return out
}

// TestShipTakesAtMostEightRoundTripsBeforeTheConfirmation: the read-only
// gates of ship 4 --solo-bypass, the presence check approved beforehand,
// wait for the network at most eight times before the person is asked (one
// request after another they waited 30 times).
func TestShipTakesAtMostEightRoundTripsBeforeTheConfirmation(t *testing.T) {
	t.Parallel()
	m := shipMeasured(t, 0, newBarrier(http.DefaultTransport, 150*time.Millisecond))
	if m.tripsBefore > 8 {
		t.Errorf("%d round trips (%d requests) before the confirmation, want at most 8:\n%s", m.tripsBefore, len(m.before), strings.Join(m.before, "\n"))
	}
	t.Logf("before the confirmation: %d requests in %d round trips; after the yes: %d requests in %d round trips",
		len(m.before), m.tripsBefore, len(m.after), m.tripsAfter)
}

// TestShipTakesAtMostElevenRoundTripsFromTheYesToShipped: after the yes,
// ship 4 --solo-bypass waits for the network at most eleven times with at
// most fifteen requests (it waited 17 times for 24 before the record's
// commit started from the tip read at the yes, carried its files in the
// tree request, and the Story's labels went in one write after reads made
// together), and its writes keep their order: each goes out only after
// the one before was answered, in a later round trip.
func TestShipTakesAtMostElevenRoundTripsFromTheYesToShipped(t *testing.T) {
	t.Parallel()
	m := shipMeasured(t, 0, newBarrier(http.DefaultTransport, 150*time.Millisecond))
	listed := strings.Join(m.after, "\n")
	if m.tripsAfter > 11 || len(m.after) > 15 {
		t.Errorf("%d round trips and %d requests from the yes to shipped, want at most 11 and 15:\n%s", m.tripsAfter, len(m.after), listed)
	}
	// The writes, in the order they must land; every other request after
	// the yes is a read.
	writes := []string{
		"POST /repos/acme/benefits/issues/4/comments", // the Solo-mode bypass comment
		"PUT /repos/acme/benefits/pulls/4/merge",
		"POST /repos/acme/benefits/git/trees", // the record's tree, its files inline
		"POST /repos/acme/benefits/git/commits",
		"PATCH /repos/acme/benefits/git/refs/heads/ledger",
		"PATCH /repos/acme/benefits/issues/3", // the Story's labels, one write
		"POST /repos/acme/benefits/issues/3/comments",
	}
	var got []string
	last := 0
	for _, l := range m.after {
		round, req, _ := strings.Cut(l, " ")
		if strings.HasPrefix(req, "GET ") {
			continue
		}
		got = append(got, req)
		n, err := strconv.Atoi(round)
		if err != nil || n <= last {
			t.Errorf("%q went out in round %s, not after the write before it (round %d):\n%s", req, round, last, listed)
		}
		last = n
	}
	if strings.Join(got, "\n") != strings.Join(writes, "\n") {
		t.Errorf("the writes after the yes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(writes, "\n"))
	}
	t.Logf("after the yes: %d requests in %d round trips:\n%s", len(m.after), m.tripsAfter, listed)
}

// BenchmarkShipSoloBypassLatency100ms is `ship 4 --solo-bypass` on the
// sandbox with 100 ms added to every request, the presence check approved
// beforehand: requests, estimated round trips and seconds before the
// confirmation and after the yes, as custom metrics (ns/op includes the
// seeding of each iteration's sandbox; read the custom metrics). On a
// loaded machine the sandbox's own work, one request at a time, dominates
// the time: compare figures from one run only.
func BenchmarkShipSoloBypassLatency100ms(b *testing.B) {
	var before, after, tripsBefore, tripsAfter int
	var toConfirm, yesToShipped time.Duration
	for range b.N {
		m := shipMeasured(b, 100*time.Millisecond, &counter{next: http.DefaultTransport})
		before += len(m.before)
		after += len(m.after)
		tripsBefore += m.tripsBefore
		tripsAfter += m.tripsAfter
		toConfirm += m.toConfirm
		yesToShipped += m.yesToShipped
	}
	n := float64(b.N)
	b.ReportMetric(float64(before)/n, "requests-to-confirm")
	b.ReportMetric(float64(tripsBefore)/n, "trips-to-confirm")
	b.ReportMetric(toConfirm.Seconds()/n, "s-to-confirm")
	b.ReportMetric(float64(after)/n, "requests-after-yes")
	b.ReportMetric(float64(tripsAfter)/n, "trips-after-yes")
	b.ReportMetric(yesToShipped.Seconds()/n, "s-yes-to-shipped")
}
