package actions

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

const owner, repo = sandbox.RepoOwner, sandbox.RepoName

// fixture is a validated sandbox with the founder's executor on it.
type fixture struct {
	t      *testing.T
	srv    *sandbox.Server
	base   string
	gh     *github.Client // the founder's, through any injected faults
	writer *github.Client // sandbox-writer, to change things behind the inbox's back
	exec   *Executor
	logDir string
	reads  *inboxread.Reader
	// settings are the base policy the inbox reads with: solo, or the bot's.
	settings inboxread.Settings
}

// newFixture starts the demo, solo as seeded (agents write as the
// founder); fault, when set, wraps the founder's network transport.
func newFixture(t *testing.T, fault func(http.RoundTripper) http.RoundTripper) *fixture {
	t.Helper()
	return startFixture(t, fault, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()},
		inboxread.Settings{IntegrationBranch: "dev", Approver: "founder", SoloMode: true})
}

// newBotFixture starts the demo seeded with a bot identity: agent-bot[bot]
// wrote its pull requests, so the founder can review them on GitHub.
func newBotFixture(t *testing.T) *fixture {
	t.Helper()
	return startFixture(t, nil, sandbox.Options{ShareSeed: true, StateDir: t.TempDir(), BotIdentity: true},
		inboxread.Settings{IntegrationBranch: "dev", Approver: "founder", BotLogins: []string{sandbox.BotLogin}})
}

func startFixture(t *testing.T, fault func(http.RoundTripper) http.RoundTripper, opts sandbox.Options, settings inboxread.Settings) *fixture {
	t.Helper()
	srv, _, base := conformance.StartSandbox(t, opts)
	f := &fixture{t: t, srv: srv, base: base, logDir: t.TempDir(), settings: settings}
	var transport http.RoundTripper = http.DefaultTransport.(*http.Transport).Clone()
	if fault != nil {
		transport = fault(transport)
	}
	f.gh = newClient(t, base, "founder", transport)
	f.writer = newClient(t, base, "writer", nil)
	f.exec = f.executor(f.gh, "founder")
	return f
}

func newClient(t *testing.T, base, login string, transport http.RoundTripper) *github.Client {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test"),
		CacheDir: t.TempDir(), CacheNamespace: login, Base: transport,
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// executor builds an Executor writing as login through gh, re-reading
// with a full read of the sandbox each time.
func (f *fixture) executor(gh *github.Client, login string) *Executor {
	settings := f.settings
	reads := inboxread.New(gh, owner, repo, inboxread.Options{Settings: &settings})
	if f.reads == nil {
		f.reads = reads
	}
	e, err := NewExecutor(ExecutorConfig{Client: gh, Owner: owner, Repo: repo, Viewer: login,
		Log: OpenLog(f.logDir, nil), Reread: rereadWith(reads)})
	if err != nil {
		f.t.Fatal(err)
	}
	return e
}

func rereadWith(reads *inboxread.Reader) RereadFunc {
	return func(ctx context.Context, st inbox.Step) (inbox.Step, bool, error) {
		snap, err := reads.Read(ctx)
		if err != nil {
			return inbox.Step{}, false, err
		}
		now, found := inbox.Find(inbox.Derive(snap), st.ID())
		return now, found, nil
	}
}

// step reads the demo and returns the card of kind on item n.
func (f *fixture) step(kind inbox.Kind, n int) inbox.Step {
	f.t.Helper()
	snap, err := f.reads.Read(context.Background())
	if err != nil {
		f.t.Fatalf("reading the sandbox: %v", err)
	}
	st, ok := inbox.Find(inbox.Derive(snap), fmt.Sprintf("%s#%d", kind, n))
	if !ok {
		f.t.Fatalf("no %s card for #%d in the demo", kind, n)
	}
	return st
}

// request picks key on the card.
func request(t *testing.T, st inbox.Step, key, note string) Request {
	t.Helper()
	c, refusal := inbox.Pick(st, key)
	if refusal != "" {
		t.Fatalf("picking %s on %s: %s", key, st.ID(), refusal)
	}
	return Request{Step: st, Choice: c, Note: note}
}

func (f *fixture) issue(n int) *github.Issue {
	f.t.Helper()
	is, _, err := f.writer.Issues.Get(context.Background(), owner, repo, n)
	if err != nil {
		f.t.Fatal(err)
	}
	return is
}

func labelsOf(is *github.Issue) map[string]bool {
	out := map[string]bool{}
	for _, l := range is.Labels {
		out[l.GetName()] = true
	}
	return out
}

// commentsBy lists the bodies of login's comments on n.
func (f *fixture) commentsBy(n int, login string) []string {
	f.t.Helper()
	cs, _, err := f.writer.Issues.ListComments(context.Background(), owner, repo, n, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		if c.GetUser().GetLogin() == login {
			out = append(out, c.GetBody())
		}
	}
	return out
}

// gitShow reads a file with the real git binary from the sandbox's bare
// repository; found is false when git says it is not there.
func (f *fixture) gitShow(rev string) (string, bool) {
	f.t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		f.t.Skip("git is not installed")
	}
	out, err := exec.Command("git", "--git-dir", f.srv.GitDir(), "show", rev).Output()
	if err != nil {
		return "", false
	}
	return string(out), true
}

// records reads every line of the actions log.
func (f *fixture) records() []Record {
	f.t.Helper()
	var out []Record
	entries, _ := os.ReadDir(f.logDir)
	for _, e := range entries {
		fh, err := os.Open(f.logDir + "/" + e.Name())
		if err != nil {
			f.t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var r Record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				f.t.Fatalf("log line %q: %v", sc.Text(), err)
			}
			out = append(out, r)
		}
		fh.Close()
	}
	return out
}

// faultOn answers 502 Bad Gateway, as GitHub's proxy does, to the first
// request match accepts. With forward set the request reaches the server
// first (the write landed; only the answer was lost).
type faultOn struct {
	next    http.RoundTripper
	match   func(*http.Request) bool
	forward bool

	mu    sync.Mutex
	fired int
}

func (f *faultOn) RoundTrip(req *http.Request) (*http.Response, error) {
	f.mu.Lock()
	fire := f.fired == 0 && f.match(req)
	if fire {
		f.fired++
	}
	f.mu.Unlock()
	if !fire {
		return f.next.RoundTrip(req)
	}
	if f.forward {
		resp, err := f.next.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	body := "<html><body><h1>502 Bad Gateway</h1></body></html>"
	return &http.Response{StatusCode: http.StatusBadGateway, Status: "502 Bad Gateway", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/html"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: req}, nil
}

func (f *faultOn) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fired
}

// nthWrite matches the nth request that is not a read.
func nthWrite(n int) func(*http.Request) bool {
	// A GraphQL query is a POST that only reads: it is not a write.
	return nth(n, func(r *http.Request) bool {
		return r.Method != http.MethodGet && r.Method != http.MethodHead && !strings.HasSuffix(r.URL.Path, "/graphql")
	})
}

func methodPath(method, suffix string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		return r.Method == method && strings.HasSuffix(r.URL.EscapedPath(), suffix)
	}
}

// samples reads autonomy/samples.jsonl on the ledger with git.
func (f *fixture) samples() []Sample {
	f.t.Helper()
	raw, ok := f.gitShow("ledger:" + inbox.SamplesPath)
	if !ok {
		return nil
	}
	var out []Sample
	for _, line := range strings.Split(strings.TrimSpace(raw), "\n") {
		var s Sample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			f.t.Fatalf("samples.jsonl line %q: %v", line, err)
		}
		out = append(out, s)
	}
	return out
}

// nth matches the nth request match accepts.
func nth(n int, match func(*http.Request) bool) func(*http.Request) bool {
	var mu sync.Mutex
	seen := 0
	return func(r *http.Request) bool {
		if !match(r) {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		seen++
		return seen == n
	}
}
