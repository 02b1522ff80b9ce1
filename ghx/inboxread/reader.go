package inboxread

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
)

// GateFile is the merge gate's workflow file; its pull_request_target runs
// say whether the gate is green on a pull request's head.
const GateFile = "aayudha-merge-gate.yml"

// LedgerBranch holds the audit entries (autonomy/audit/PR.json).
const LedgerBranch = "ledger"

// clockSkew widens every "since" query, so an item changed while the
// reader's clock and GitHub's disagree by less than this is never missed.
// It costs nothing when nothing changed: the answer is the same list, and
// the ETag cache turns it into a 304.
const clockSkew = time.Minute

// Settings are the configuration values the inbox judges by.
type Settings struct {
	IntegrationBranch string   // autonomy.integration_branch; "" reads as "dev"
	Approver          string   // autonomy.approver
	BotLogins         []string // identity.bot_logins
	SoloMode          bool     // no bot identity is configured (SPEC §9)
}

// Options configure a Reader.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Settings, when set, are used as given: the caller has layered the
	// configuration itself. Nil reads the default branch's
	// .aayudha/config.toml on every Read (a 304 when it did not change).
	Settings *Settings
	// Logf hears about facts the reader could not read and went on without
	// (a permission GitHub would not show, a ledger without audit entries).
	// Nil logs nothing.
	Logf func(format string, args ...any)
	// PerItem reads every pull request's facts through REST, one by one,
	// never through GraphQL: for a GitHub that serves no GraphQL, and for
	// tests that hold the two ways to the same answer.
	PerItem bool
	// Viewer, when set, is who reads, known already: an App's
	// installation token cannot read /user (ghx.Writer), so a reader
	// holding one is told its bot's login instead of asking.
	Viewer string
}

// Stats counts the requests one call made.
type Stats struct {
	// Requests the reader sent (a retry inside the transport counts once).
	Requests int
	// CountedAgainstLimit are those GitHub charged to the rate limit: every
	// request but the ones answered 304 (served from the ETag cache).
	CountedAgainstLimit int
}

// Reader reads the inbox's facts for one repository through one client.
// Its methods may be called from several goroutines.
type Reader struct {
	gh      *github.Client
	owner   string
	repo    string
	apiHost string
	opts    Options
	clock   *serverClock // GitHub's clock, as its answers' Date headers bound it

	mu     sync.Mutex
	seen   map[int]seenVersion // the version of every item the last reads saw
	readAt time.Time           // when the last full Read began
	// shipMerge is whether a merge commit carries ship's trailer block,
	// by its SHA: a commit never changes, so it is read once per Reader.
	shipMerge sync.Map
}

// New builds a Reader. The client is used as given — its transport keeps
// the ETag cache and retries — with a counter wrapped around it.
func New(client *github.Client, owner, repo string, opts Options) *Reader {
	hc := client.Client()
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	clock := &serverClock{}
	hc.Transport = countingTransport{next: next, slots: make(chan struct{}, maxInFlight), clock: clock, now: opts.Now}
	gh := github.NewClient(hc)
	gh.BaseURL = cloneURL(client.BaseURL)
	gh.UploadURL = cloneURL(client.UploadURL)
	gh.UserAgent = client.UserAgent
	host := ""
	if client.BaseURL != nil {
		host = client.BaseURL.Host
	}
	return &Reader{gh: gh, owner: owner, repo: repo, apiHost: host, opts: opts, clock: clock, seen: map[int]seenVersion{}}
}

// LastReadAt is when the last full Read began: pass it to Refresh as since
// and to SaveCache as readAt. Read asks GitHub's "changed since" question
// for exactly this moment once, so the first Refresh with it is already a
// conditional request.
func (r *Reader) LastReadAt() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.readAt
}

func (r *Reader) logf(format string, args ...any) {
	if r.opts.Logf != nil {
		r.opts.Logf(format, args...)
	}
}

// unseen reports whether an item changed since the reader last saw it.
func (r *Reader) unseen(number int, updated time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.seen[number]
	return !ok || !v.updated.Equal(updated) || !settled(v.updated, v.readAt)
}

// seenVersion is the version of an item a read saw, and when that read
// began (see settled).
type seenVersion struct {
	updated, readAt time.Time
}

func (r *Reader) remember(seen map[int]time.Time, readAt time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for n, at := range seen {
		r.seen[n] = seenVersion{updated: at, readAt: readAt}
	}
}

func cloneURL(u *url.URL) *url.URL {
	if u == nil {
		return nil
	}
	c := *u
	return &c
}

// counter is one call's Stats, carried in the request context so that
// concurrent calls on one Reader count apart.
type counter struct{ requests, counted atomic.Int64 }

type counterKey struct{}

func withCounter(ctx context.Context) (context.Context, *counter) {
	c := &counter{}
	return context.WithValue(ctx, counterKey{}, c), c
}

func (c *counter) stats() Stats {
	return Stats{Requests: int(c.requests.Load()), CountedAgainstLimit: int(c.counted.Load())}
}

// countingTransport counts the requests that reach the client's own
// transport. A response the ETag cache served (GitHub answered 304) is not
// counted against the limit; one that failed without an answer is, since
// GitHub may have charged it.
// Unwrap is the transport this one wraps: ghx finds the client's cache
// folder through it.
func (t countingTransport) Unwrap() http.RoundTripper { return t.next }

type countingTransport struct {
	next  http.RoundTripper
	slots chan struct{} // one per request in flight
	clock *serverClock
	now   func() time.Time
}

// maxInFlight bounds a Reader's requests in flight: GitHub asks clients
// to avoid concurrency and counts it towards its secondary limits, so a
// read overlaps only a few independent lists, never fans out per item.
const maxInFlight = 4

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case t.slots <- struct{}{}:
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	resp, err := t.next.RoundTrip(req)
	<-t.slots
	if err == nil {
		t.clock.observe(resp.Header, t.now())
	}
	if c, ok := req.Context().Value(counterKey{}).(*counter); ok {
		c.requests.Add(1)
		free := err == nil && (resp.Header.Get(ghx.CacheHeader) == "hit" || resp.StatusCode == http.StatusNotModified)
		if !free {
			c.counted.Add(1)
		}
	}
	return resp, err
}

type progressKey struct{}

// WithProgress returns a context under which Read calls show, from Read's
// own goroutine, with what it has read so far each time a part of the
// inbox is whole: the items, then the issues' details. Each snapshot is
// show's own copy. Cards from it are not to be acted on: the snapshot
// Read returns is the read.
func WithProgress(ctx context.Context, show func(inbox.Snapshot)) context.Context {
	if show == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, show)
}

// progress hands a sorted copy of snap to the context's WithProgress
// function, if any.
func (s *session) progress(snap *inbox.Snapshot) {
	show, _ := s.ctx.Value(progressKey{}).(func(inbox.Snapshot))
	if show == nil {
		return
	}
	c := cloneSnapshot(*snap)
	sortSnapshot(&c)
	show(c)
}
