package ghx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// RetryPolicy says how the transport rides out GitHub's bad moments. The
// zero value means the defaults below.
type RetryPolicy struct {
	// MaxAttempts bounds tries of an idempotent request (GET, HEAD) on a
	// 502/503/504 or a dropped connection. Default 4.
	MaxAttempts int
	// BaseDelay and MaxDelay shape the exponential backoff with full jitter.
	// Defaults 500ms and 8s.
	BaseDelay, MaxDelay time.Duration
	// MaxLimitWait is the longest secondary-rate-limit wait the transport
	// sits out by itself; a longer one is returned as a
	// *SecondaryRateLimitError at once. Default 2 minutes.
	MaxLimitWait time.Duration
	// MaxLimitRetries bounds secondary-rate-limit waits per request. Default 3.
	MaxLimitRetries int
	// BufferLimit is how much of a GET body the transport reads before
	// handing the response on, so a connection dropped mid-body is retried.
	// Default 8 MiB; the rest of a longer body streams unprotected.
	BufferLimit int64
	// OnWait, when set, hears about every wait before it starts, so a
	// screen can say "waiting 30s for GitHub's secondary rate limit".
	OnWait func(Wait)
	// Jitter picks a delay in [0, max); nil means uniformly at random.
	Jitter func(max time.Duration) time.Duration
}

// Wait describes one pause the transport is about to take.
type Wait struct {
	Duration time.Duration
	Reason   string // e.g. "GitHub's secondary rate limit", "GitHub answered 502"
	Method   string
	URL      string // masked
	Attempt  int    // the attempt that will follow the wait, from 2
}

// String is the line a screen shows.
func (w Wait) String() string {
	return fmt.Sprintf("waiting %s for %s", w.Duration.Round(time.Second), w.Reason)
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 500 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 8 * time.Second
	}
	if p.MaxLimitWait <= 0 {
		p.MaxLimitWait = 2 * time.Minute
	}
	if p.MaxLimitRetries <= 0 {
		p.MaxLimitRetries = 3
	}
	if p.BufferLimit <= 0 {
		p.BufferLimit = 8 << 20
	}
	if p.Jitter == nil {
		p.Jitter = func(max time.Duration) time.Duration {
			if max <= 0 {
				return 0
			}
			return rand.N(max)
		}
	}
	return p
}

// ErrMayHaveLanded is matched (errors.Is) by a write that failed in a way
// that does not say whether GitHub applied it: re-read before trying again.
var ErrMayHaveLanded = errors.New("the change may have reached GitHub")

// MayHaveLandedError is a write (POST, PATCH, PUT, DELETE) that got a
// 502/503/504 or lost its connection after being sent. It is never retried.
type MayHaveLandedError struct {
	Method string
	URL    string // masked
	Status int    // 0 when the connection dropped
	Err    error  // the transport error, if any
}

func (e *MayHaveLandedError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s %s: GitHub answered %d %s; the change may or may not have been made",
			e.Method, e.URL, e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("%s %s: the connection failed after the request was sent (%v); the change may or may not have been made",
		e.Method, e.URL, e.Err)
}

func (e *MayHaveLandedError) Is(target error) bool { return target == ErrMayHaveLanded }
func (e *MayHaveLandedError) Unwrap() error        { return e.Err }

// PrimaryRateLimitError is GitHub's hourly request budget used up. The
// transport does not wait for it: the reset can be an hour away.
type PrimaryRateLimitError struct {
	Method, URL string
	Limit       int
	Resource    string
	Reset       time.Time
}

func (e *PrimaryRateLimitError) Error() string {
	until := "until GitHub resets it"
	if !e.Reset.IsZero() {
		until = "until " + e.Reset.UTC().Format("15:04:05 MST")
	}
	return fmt.Sprintf("%s %s: GitHub's rate limit of %d requests an hour is used up %s", e.Method, e.URL, e.Limit, until)
}

// SecondaryRateLimitError is a secondary rate limit the transport did not
// (or could no longer) wait out.
type SecondaryRateLimitError struct {
	Method, URL string
	RetryAfter  time.Duration
}

func (e *SecondaryRateLimitError) Error() string {
	return fmt.Sprintf("%s %s: GitHub's secondary rate limit asks to wait %s before trying again",
		e.Method, e.URL, e.RetryAfter.Round(time.Second))
}

type retryTransport struct {
	next   http.RoundTripper
	policy RetryPolicy
	sleep  func(context.Context, time.Duration) error
	now    func() time.Time
	limit  limitPause
}

// limitPause holds every new request of a client while one of its
// requests sits out a secondary rate limit: GitHub asks the client to
// wait, not the one request, so requests issued side by side must not
// keep asking meanwhile (REFERENCE §3.6).
type limitPause struct {
	mu      sync.Mutex
	waiting int           // requests sitting out a limit now
	over    chan struct{} // closed when the last of them is done; nil when none
}

// begin marks one request's limit wait; the function it returns ends it.
func (p *limitPause) begin() (end func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waiting++
	if p.over == nil {
		p.over = make(chan struct{})
	}
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.waiting--
		if p.waiting == 0 {
			close(p.over)
			p.over = nil
		}
	}
}

// hold returns once no request is sitting out a limit, or ctx ends.
func (p *limitPause) hold(ctx context.Context) error {
	for {
		p.mu.Lock()
		over := p.over
		p.mu.Unlock()
		if over == nil {
			return nil
		}
		select {
		case <-over:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	idempotent := req.Method == http.MethodGet || req.Method == http.MethodHead
	masked := MaskURL(req.URL.String())
	attempt, limitWaits, tries := 1, 0, 1
	if err := t.limit.hold(req.Context()); err != nil {
		return nil, err
	}
	for {
		resp, err := t.next.RoundTrip(req)
		if err == nil && !idempotent {
			// A write's answer is small; a drop in its middle must read as
			// "may have landed", not as a decoding error later.
			if berr := bufferBody(resp, t.policy.BufferLimit); berr != nil {
				return nil, &MayHaveLandedError{Method: req.Method, URL: masked, Err: berr}
			}
		}
		if err == nil && idempotent {
			err = bufferBody(resp, t.policy.BufferLimit)
		}
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, firstError(err, ctxErr)
		}
		var wait time.Duration
		var reason string
		endPause := func() {}
		switch {
		case err != nil:
			if !idempotent && !neverSent(err) {
				return nil, &MayHaveLandedError{Method: req.Method, URL: masked, Err: err}
			}
			if !transient(err) || refusedOnThisMachine(req, err) || attempt >= t.policy.MaxAttempts {
				return nil, err
			}
			wait, reason = t.backoff(attempt), "the connection to GitHub to recover"
		case isGatewayStatus(resp.StatusCode):
			if !idempotent {
				drain(resp)
				return nil, &MayHaveLandedError{Method: req.Method, URL: masked, Status: resp.StatusCode}
			}
			if attempt >= t.policy.MaxAttempts {
				return resp, nil
			}
			drain(resp)
			wait, reason = t.backoff(attempt), fmt.Sprintf("GitHub to recover from %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
		default:
			limit := classifyLimit(resp, t.now(), limitWaits)
			switch limit.kind {
			case limitNone:
				return resp, nil
			case limitPrimary:
				drain(resp)
				return nil, &PrimaryRateLimitError{Method: req.Method, URL: masked,
					Limit: limit.limit, Resource: limit.resource, Reset: limit.reset}
			}
			drain(resp)
			if limit.wait > t.policy.MaxLimitWait || limitWaits >= t.policy.MaxLimitRetries {
				return nil, &SecondaryRateLimitError{Method: req.Method, URL: masked, RetryAfter: limit.wait}
			}
			// From the moment the limit is known, the client's other new
			// requests wait with this one.
			endPause = t.limit.begin()
			limitWaits++
			wait, reason = limit.wait, "GitHub's secondary rate limit"
			attempt-- // a rate-limit wait does not use up a failure attempt
		}
		next, err := rewindBody(req)
		if err != nil {
			endPause()
			return nil, err
		}
		req = next
		attempt++
		tries++
		if t.policy.OnWait != nil {
			t.policy.OnWait(Wait{Duration: wait, Reason: reason, Method: req.Method, URL: masked, Attempt: tries})
		}
		err = t.sleep(req.Context(), wait)
		endPause()
		if err != nil {
			return nil, err
		}
	}
}

// backoff is exponential with full jitter: a random delay below
// min(MaxDelay, BaseDelay·2^(attempt-1)).
func (t *retryTransport) backoff(attempt int) time.Duration {
	ceiling := t.policy.BaseDelay << (attempt - 1)
	if ceiling > t.policy.MaxDelay || ceiling <= 0 {
		ceiling = t.policy.MaxDelay
	}
	return t.policy.Jitter(ceiling)
}

func isGatewayStatus(code int) bool {
	return code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

// bufferBody reads up to limit bytes of the body now, so a drop in the
// middle shows up here (and is retried) instead of in go-github's decoder.
func bufferBody(resp *http.Response, limit int64) error {
	body, complete, err := readCapped(resp.Body, limit)
	if err != nil {
		resp.Body.Close()
		return err
	}
	if !complete {
		resp.Body = joinBody(body, resp.Body)
		return nil
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// rewindBody gives a retried request a fresh copy of its body, on a clone:
// a RoundTripper must not change the request it was given.
func rewindBody(req *http.Request) (*http.Request, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, nil
	}
	if req.GetBody == nil {
		return nil, fmt.Errorf("%s %s cannot be retried: its body cannot be read twice", req.Method, MaskURL(req.URL.String()))
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, fmt.Errorf("re-reading the body of %s %s for a retry: %w", req.Method, MaskURL(req.URL.String()), err)
	}
	clone := req.Clone(req.Context())
	clone.Body = body
	return clone, nil
}

// neverSent: the connection was never made, so a write cannot have landed.
func neverSent(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr)
}

// refusedOnThisMachine: nothing listens at a loopback address (a sandbox
// that is not running, a mistyped port). This machine's own answer does
// not change in the next seconds, so it is said at once rather than after
// four tries; a remote host refusing may be a balancer's moment, and is
// tried again.
func refusedOnThisMachine(req *http.Request, err error) bool {
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return false
	}
	host := req.URL.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// transient errors are worth another try: dropped or refused connections
// and timeouts, not certificate or protocol mistakes.
func transient(err error) bool {
	for _, target := range []error{io.ErrUnexpectedEOF, io.EOF, syscall.ECONNRESET,
		syscall.ECONNREFUSED, syscall.ECONNABORTED, syscall.EPIPE} {
		if errors.Is(err, target) {
			return true
		}
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr)
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

type limitKind int

const (
	limitNone limitKind = iota
	limitPrimary
	limitSecondary
)

type limitVerdict struct {
	kind     limitKind
	wait     time.Duration
	reset    time.Time
	limit    int
	resource string
}

// classifyLimit reads a 403/429 as GitHub documents its rate limits: a
// secondary limit says so in its message or documentation_url, or carries
// Retry-After; a primary limit has x-ratelimit-remaining 0. A secondary
// limit's wait is Retry-After, else the reset time, else a minute doubled
// per earlier wait. Any other 403 is a permission problem, left alone.
func classifyLimit(resp *http.Response, now time.Time, earlierWaits int) limitVerdict {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return limitVerdict{}
	}
	body, complete, err := readCapped(resp.Body, 64<<10)
	if err != nil {
		body, complete = nil, true
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if !complete {
		body = body[:64<<10]
	}
	text := strings.ToLower(string(body))
	secondary := strings.Contains(text, "secondary rate limit") ||
		strings.Contains(text, "secondary-rate-limits") || strings.Contains(text, "abuse-rate-limits")
	remainingZero := resp.Header.Get("X-RateLimit-Remaining") == "0"
	reset := parseEpoch(resp.Header.Get("X-RateLimit-Reset"))
	retryAfter, hasRetryAfter := parseRetryAfter(resp.Header.Get("Retry-After"), now)

	switch {
	case hasRetryAfter:
		return limitVerdict{kind: limitSecondary, wait: retryAfter}
	case secondary && remainingZero && !reset.IsZero():
		return limitVerdict{kind: limitSecondary, wait: max(reset.Sub(now), time.Second)}
	case secondary || (resp.StatusCode == http.StatusTooManyRequests && !remainingZero):
		return limitVerdict{kind: limitSecondary, wait: time.Minute << min(earlierWaits, 4)}
	case remainingZero:
		limit, _ := strconv.Atoi(resp.Header.Get("X-RateLimit-Limit"))
		return limitVerdict{kind: limitPrimary, reset: reset, limit: limit,
			resource: resp.Header.Get("X-RateLimit-Resource")}
	}
	return limitVerdict{}
}

func parseEpoch(v string) time.Time {
	seconds, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || seconds <= 0 {
		return time.Time{}
	}
	return time.Unix(seconds, 0)
}

// parseRetryAfter accepts seconds (what GitHub sends) or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseInt(v, 10, 64); err == nil && seconds >= 0 {
		return time.Duration(seconds) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// sleepContext waits d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Steps is the one retry policy for a step above the transport — a read
// repeated after a fault, a write repeated after a re-read, the ledger's
// creates — where the transport's own policy (RetryPolicy) covers single
// requests. Issue #21 counted eight loops, each with its own count, wait
// and rule; each now says only how many tries it allows and when a failure
// deserves another (Retryable, WriteAgain).
type Steps struct {
	// Attempts bounds the tries in all, the first one included.
	Attempts int
	// Delay is the wait after the attempt-th try fails; nil is StepDelay.
	Delay func(attempt int) time.Duration
	// Sleep waits d or until ctx ends; nil waits on the clock. The ledger
	// writer passes its client's (ClientOptions.Sleep), so tests of faults
	// do not wait.
	Sleep func(ctx context.Context, d time.Duration) error
}

// StepDelay is the wait after the attempt-th failed try: 200 ms more each
// time, at most a second — long enough for a passing fault to clear, short
// enough that a person at a screen never waits for the policy itself.
func StepDelay(attempt int) time.Duration {
	return min(time.Duration(attempt)*200*time.Millisecond, time.Second)
}

// Retry runs step until it succeeds, again says its failure deserves no
// other try, Attempts tries are spent, or ctx ends while waiting; it returns
// the last try's error (never ctx's, so the caller words what failed).
// again nil retries every failure, which is right only for reads.
func (p Steps) Retry(ctx context.Context, again func(error) bool, step func() error) error {
	delay, sleep := p.Delay, p.Sleep
	if delay == nil {
		delay = StepDelay
	}
	if sleep == nil {
		sleep = sleepContext
	}
	for attempt := 1; ; attempt++ {
		err := step()
		if err == nil || attempt >= p.Attempts || (again != nil && !again(err)) {
			return err
		}
		if d := delay(attempt); d <= 0 {
			if ctx.Err() != nil { // no wait: try again at once, unless stopped
				return err
			}
		} else if sleep(ctx, d) != nil {
			return err
		}
	}
}

// WriteAgain is the rule for a write that may have landed (ErrMayHaveLanded:
// its answer was lost, or GitHub answered 5xx after it was sent): it is
// never sent again blindly. landed re-reads GitHub; the write deserves
// another try only when that read worked and shows the write is not there.
// Any other failure is not this rule's to repeat.
func WriteAgain(err error, landed func() (bool, error)) bool {
	if !errors.Is(err, ErrMayHaveLanded) {
		return false
	}
	there, rerr := landed()
	return rerr == nil && !there
}
