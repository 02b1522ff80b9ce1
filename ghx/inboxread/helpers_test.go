package inboxread_test

import (
	"context"
	"fmt"
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
	"github.com/aayudha/aayu/model/inbox"
)

const owner, repo = sandbox.RepoOwner, sandbox.RepoName

// wire counts what reaches the network under the client's whole transport
// stack: every attempt, and the 304s GitHub does not charge for. It is the
// independent witness the Reader's own Stats are checked against.
type wire struct {
	next http.RoundTripper

	mu          sync.Mutex
	requests    int
	notModified int
	paths       []string
}

func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(req)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests++
	w.paths = append(w.paths, req.Method+" "+req.URL.RequestURI())
	if err == nil && resp.StatusCode == http.StatusNotModified {
		w.notModified++
	}
	return resp, err
}

// take returns the counts since the last take and starts again.
func (w *wire) take() (requests, counted int, paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	requests, counted, paths = w.requests, w.requests-w.notModified, w.paths
	w.requests, w.notModified, w.paths = 0, 0, nil
	return requests, counted, paths
}

type fixture struct {
	srv    *sandbox.Server
	base   string
	wire   *wire
	reader *inboxread.Reader
}

// start runs a validated sandbox and a Reader for login through
// ghx.NewClient with its ETag cache in a temporary folder.
func start(t *testing.T, opts sandbox.Options, login string) *fixture {
	t.Helper()
	srv, _, base := conformance.StartSandbox(t, opts)
	w := &wire{next: http.DefaultTransport}
	client := clientFor(t, base, login, w)
	return &fixture{srv: srv, base: base, wire: w, reader: inboxread.New(client, owner, repo, inboxread.Options{Logf: t.Logf})}
}

func clientFor(t *testing.T, base, login string, rt http.RoundTripper) *github.Client {
	t.Helper()
	return clientAs(t, base, login, t.TempDir(), rt)
}

// clientWithCache is the founder's client with its ETag cache in dir.
func clientWithCache(t *testing.T, base, dir string, rt http.RoundTripper) *github.Client {
	t.Helper()
	return clientAs(t, base, "founder", dir, rt)
}

func clientAs(t *testing.T, base, login, cacheDir string, rt http.RoundTripper) *github.Client {
	t.Helper()
	client, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test"),
		CacheDir: cacheDir, CacheNamespace: login, Base: rt,
	})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

func startPlain(t *testing.T) (*sandbox.Server, *conformance.Validator, string) {
	t.Helper()
	return conformance.StartSandbox(t, sandbox.Options{ShareSeed: true})
}

// writer is go-github as sandbox-writer, for staging a change.
func writer(t *testing.T, base string) *github.Client {
	return clientFor(t, base, "writer", nil)
}

func read(t *testing.T, r *inboxread.Reader) inbox.Snapshot {
	t.Helper()
	snap, err := r.Read(context.Background())
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return snap
}

// stepsByKind lists the item numbers of each kind of step.
func stepsByKind(steps []inbox.Step) map[inbox.Kind][]int {
	out := map[inbox.Kind][]int{}
	for _, st := range steps {
		out[st.Kind] = append(out[st.Kind], st.Item.Number)
	}
	for _, ns := range out {
		sort.Ints(ns)
	}
	return out
}

func stepIDs(steps []inbox.Step) map[string]inbox.Step {
	out := map[string]inbox.Step{}
	for _, st := range steps {
		out[st.ID()] = st
	}
	return out
}

func id(kind inbox.Kind, n int) string { return fmt.Sprintf("%s#%d", kind, n) }

func since(r *inboxread.Reader) time.Time { return r.LastReadAt() }

// withoutReadTimes is snap with each issue's ReadAt cleared: two reads of
// the same facts differ in when they were read, and nothing else should.
func withoutReadTimes(snap inbox.Snapshot) inbox.Snapshot {
	snap.Issues = append([]inbox.Issue(nil), snap.Issues...)
	for i := range snap.Issues {
		snap.Issues[i].ReadAt = time.Time{}
	}
	return snap
}

// shiftingClock is a sandbox clock that runs with the machine's and can be
// moved on, so a test can let a second pass without sleeping.
type shiftingClock struct {
	mu    sync.Mutex
	ahead time.Duration
}

func (c *shiftingClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.ahead)
}

func (c *shiftingClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ahead += d
}
