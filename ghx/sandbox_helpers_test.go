package ghx_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/internal/syncbuf"
)

// coverage records the operations the validated sandboxes of this test
// binary served; TestMain fails the suite when one was never tried.
var coverage = conformance.NewCoverage()

func TestMain(m *testing.M) { os.Exit(conformance.RunWithCoverage(m, coverage)) }

var demoNow = time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC)

const (
	owner = sandbox.RepoOwner
	repo  = sandbox.RepoName
)

// sandboxEnv is a validated sandbox and a ghx client on it with its log,
// cache folder and clock under the test's control.
type sandboxEnv struct {
	srv    *sandbox.Server
	v      *conformance.Validator
	base   string
	client *github.Client
	logs   *syncbuf.Buffer
	cache  string
	served *servedLog
	sleeps *sleepLog
	waits  *[]ghx.Wait
}

type envConfig struct {
	sandbox sandbox.Options
	token   string
	client  func(*ghx.ClientOptions)
}

// startSandbox runs the demo (fixed clock, validator on, every request
// line kept) and builds a ghx client for token (default sandbox-founder)
// whose waits are recorded instead of slept.
func startSandbox(t testing.TB, cfg envConfig) *sandboxEnv {
	t.Helper()
	env := &sandboxEnv{logs: &syncbuf.Buffer{}, cache: t.TempDir(), served: &servedLog{}, sleeps: &sleepLog{}}
	opts := cfg.sandbox
	if opts.Now == nil {
		opts.Now = func() time.Time { return demoNow }
	}
	opts.Logf = env.served.logf
	env.srv, env.v, env.base = conformance.StartSandbox(t, opts)
	coverage.Add(env.v)
	if cfg.token == "" {
		cfg.token = "sandbox-founder"
	}
	env.client = env.newClient(t, cfg.token, cfg.client)
	return env
}

func (env *sandboxEnv) newClient(t testing.TB, token string, adjust func(*ghx.ClientOptions)) *github.Client {
	t.Helper()
	var mu sync.Mutex
	waits := []ghx.Wait{}
	env.waits = &waits
	opts := ghx.ClientOptions{
		APIURL:   env.base + "/",
		Token:    ghx.NewToken(token, "test"),
		CacheDir: env.cache,
		Logger:   slog.New(slog.NewTextHandler(env.logs, nil)),
		Sleep:    env.sleeps.sleep,
		Retry: ghx.RetryPolicy{
			Jitter: func(max time.Duration) time.Duration { return max },
			OnWait: func(w ghx.Wait) { mu.Lock(); waits = append(waits, w); mu.Unlock() },
		},
	}
	if adjust != nil {
		adjust(&opts)
	}
	c, err := ghx.NewClient(opts)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// servedLog keeps the sandbox's request lines: "GET /path 200 counted".
type servedLog struct {
	mu    sync.Mutex
	lines []string
}

func (s *servedLog) logf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

// mark returns how many lines there are, to count from later.
func (s *servedLog) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lines)
}

// since returns the API request lines after mark (web pages excluded), and
// how many of them counted against the rate limit.
func (s *servedLog) since(mark int) (lines []string, counted int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.lines[mark:] {
		if strings.Contains(l, " /login/") || strings.Contains(l, " /_blob/") {
			continue
		}
		lines = append(lines, l)
		if strings.HasSuffix(l, " counted") && !strings.HasSuffix(l, "not counted") {
			counted++
		}
	}
	return lines, counted
}

func (s *servedLog) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

// sleepLog records the transport's waits and returns at once.
type sleepLog struct {
	mu     sync.Mutex
	waited []time.Duration
}

func (s *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waited = append(s.waited, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepLog) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waited...)
}

// planOnce puts fault on the first request whose method and path match,
// and on nothing else.
func planOnce(method, path string, fault sandbox.Fault) sandbox.FaultPlan {
	done := false // the sandbox calls a plan one request at a time
	return func(r *http.Request) sandbox.Fault {
		if done || r.Method != method || r.URL.Path != path {
			return sandbox.NoFault
		}
		done = true
		return fault
	}
}
