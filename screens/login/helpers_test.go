package login

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// sandboxGitHub is a running sandbox and the paths it was asked for.
type sandboxGitHub struct {
	url   string
	mu    sync.Mutex
	paths []string
}

func (s *sandboxGitHub) asked(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.paths {
		if strings.Contains(p, path) {
			return true
		}
	}
	return false
}

func startSandbox(t *testing.T, dev sandbox.DeviceOptions) *sandboxGitHub {
	t.Helper()
	sg := &sandboxGitHub{}
	dev.ClientIDs = append(dev.ClientIDs, "aayu-test-client")
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, Device: &dev, Wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sg.mu.Lock()
			sg.paths = append(sg.paths, r.Method+" "+r.URL.Path)
			sg.mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	sg.url = u
	return sg
}

// fastDevice is a device flow that answers at once: no interval enforced
// (the paced transport keeps the client from spinning) and a short expiry.
func fastDevice() sandbox.DeviceOptions {
	return sandbox.DeviceOptions{Interval: 0, Expiry: 5 * time.Second}
}

// pollRecorder paces the token polls and records the error code of each
// poll's answer ("" for the token itself, whose value is never kept).
type pollRecorder struct {
	base  http.RoundTripper
	pace  time.Duration
	mu    sync.Mutex
	polls []string
}

func (p *pollRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, tokenPath) {
		return p.base.RoundTrip(r)
	}
	if p.pace > 0 {
		select {
		case <-time.After(p.pace):
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	resp, err := p.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	v, _ := url.ParseQuery(string(body))
	p.mu.Lock()
	p.polls = append(p.polls, v.Get("error"))
	p.mu.Unlock()
	return resp, nil
}

func (p *pollRecorder) answers() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.polls...)
}

// testDeps wires the screen to the sandbox, with the actions log in a
// temporary folder and the API client built the way aayu builds it, without
// a cache.
func testDeps(t *testing.T, sg *sandboxGitHub, rec *pollRecorder) (Deps, string) {
	t.Helper()
	logDir := t.TempDir()
	if rec == nil {
		rec = &pollRecorder{pace: 20 * time.Millisecond}
	}
	rec.base = http.DefaultTransport
	return Deps{
		OAuthHost:  sg.url,
		ClientID:   "aayu-test-client",
		HTTPClient: &http.Client{Transport: rec, Timeout: 10 * time.Second},
		APIClient: func(token string) (*github.Client, error) {
			return ghx.NewClient(ghx.ClientOptions{APIURL: sg.url + "/", Token: ghx.NewToken(token, "device flow")})
		},
		// The writing token is the founder's, an admin, who may read anyone's
		// permission; the device token reads /user only.
		Permission: func(ctx context.Context, login string) (string, error) {
			c, err := ghx.NewClient(ghx.ClientOptions{APIURL: sg.url + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "writing")})
			if err != nil {
				return "", err
			}
			level, _, err := c.Repositories.GetPermissionLevel(ctx, "acme", "benefits", login)
			return level.GetPermission(), err
		},
		Log: actions.OpenLog(logDir, nil),
	}, logDir
}

// writesAs makes deps hold the approver to login, the account whose token
// the command writes with.
func writesAs(deps Deps, login string) Deps {
	deps.Writer = func(context.Context) (string, error) { return login, nil }
	return deps
}

func shipRequest() Request {
	return Request{
		Command:   "aayu ship 4 --solo-bypass",
		Approving: []string{"Merges pull request #4 (Story #3) into dev.", "Posts your Solo-mode bypass: comment on pull request #4."},
		Repo:      "acme/benefits",
		Need:      identity.AccessAdmin,
	}
}

// lineWriter collects the plain output and hands each complete line to
// onLine as it is printed.
type lineWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial string
	onLine  func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	text := w.partial + string(p)
	lines := strings.Split(text, "\n")
	w.partial = lines[len(lines)-1]
	w.mu.Unlock()
	for _, l := range lines[:len(lines)-1] {
		if w.onLine != nil {
			w.onLine(l)
		}
	}
	return len(p), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

var codeLine = regexp.MustCompile(`and enter ([A-Z0-9]{4}-[A-Z0-9]{4}) \(`)

// plainRun runs the screen in plain mode to the end. onCode is called (in
// its own goroutine) with each code as it is printed, and type writes a line
// to the screen's standard input.
type plainRun struct {
	t      *testing.T
	m      *Model
	out    *lineWriter
	stdinW *io.PipeWriter
	codes  []string
	mu     sync.Mutex
}

func (r *plainRun) typeLine(s string) {
	go func() { _, _ = io.WriteString(r.stdinW, s+"\n") }()
}

func runPlain(t *testing.T, req Request, deps Deps, onLine func(r *plainRun, line string)) (*plainRun, int) {
	t.Helper()
	m := New(context.Background(), tui.Common{Plain: true}, req, deps)
	stdinR, stdinW := io.Pipe()
	r := &plainRun{t: t, m: m, stdinW: stdinW}
	r.out = &lineWriter{onLine: func(l string) {
		if c := codeLine.FindStringSubmatch(l); c != nil {
			r.mu.Lock()
			r.codes = append(r.codes, c[1])
			r.mu.Unlock()
		}
		if onLine != nil {
			onLine(r, l)
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code, err := tui.Run(ctx, m, tui.RunOptions{Plain: true, In: stdinR, Out: r.out})
	_ = stdinW.Close()
	if err != nil {
		t.Fatalf("the screen stopped: %v\n%s", err, r.out.String())
	}
	return r, code
}

// decideOnGitHub approves or cancels a code on the sandbox's device page,
// as a person would on their phone.
func decideOnGitHub(t *testing.T, base, code, login, action string) {
	resp, err := http.PostForm(base+"/login/device", url.Values{"user_code": {code}, "login": {login}, "action": {action}})
	if err != nil {
		t.Errorf("the device page: %v", err)
		return
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the device page answered %d to %s as %s", resp.StatusCode, action, login)
	}
}

// approveAs returns an onLine that approves the first code as login.
func approveAs(t *testing.T, sg *sandboxGitHub, login, action string) func(*plainRun, string) {
	return func(r *plainRun, l string) {
		if c := codeLine.FindStringSubmatch(l); c != nil {
			go decideOnGitHub(t, sg.url, c[1], login, action)
		}
	}
}

func readLog(t *testing.T, dir string) string {
	t.Helper()
	var all strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	return all.String()
}

// fixedClock is a clock the test moves by hand.
type fixedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fixedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fixedClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
