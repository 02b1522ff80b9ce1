package conformance_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// ghNow is the sandbox's clock for the gh tests, so dates and SHAs are
// the same every run.
var ghNow = time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC)

// recorder keeps every REST exchange the sandbox serves, in github.com's
// layout, for the full-description validator to check afterwards.
type recorder struct {
	mu sync.Mutex
	xs []exchange
}

func (rc *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Not REST: the device flow's pages, signed blob downloads, git's
		// smart HTTP, and GraphQL (the sandbox checks each query against
		// GitHub's GraphQL schema itself).
		p := r.URL.Path
		if strings.HasPrefix(p, "/login/") || strings.HasPrefix(p, "/_blob/") || strings.Contains(p, ".git/") || p == "/graphql" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		res := rec.Result()
		rc.mu.Lock()
		rc.xs = append(rc.xs, exchange{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
			Status: res.StatusCode, Header: res.Header.Clone(), Body: bytes.Clone(rec.Body.Bytes())})
		rc.mu.Unlock()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// tag marks the exchanges from index from on as the operation op.
func (rc *recorder) tag(from int, op string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i := from; i < len(rc.xs); i++ {
		rc.xs[i].op = op
	}
}

func (rc *recorder) all() []exchange {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]exchange(nil), rc.xs...)
}

// ghEnv is a sandbox served over TLS the way GitHub Enterprise Server lays
// out its API (/api/v3/, /api/graphql), and Debian's gh pointed at it.
type ghEnv struct {
	t    *testing.T
	srv  *sandbox.Server
	rec  *recorder
	host string // 127.0.0.1:PORT, gh's GH_HOST
	bin  string
	env  []string // everything but the token

	client *http.Client // trusts the sandbox's certificate
}

// startGH skips the test when gh is not installed, and otherwise starts a
// sandbox for gh: TLS with a certificate gh trusts through SSL_CERT_FILE,
// gh's config in a temporary folder, and GH_ENTERPRISE_TOKEN as the token
// (gh sends it to any host other than github.com).
func startGH(t *testing.T) *ghEnv {
	t.Helper()
	return startGHWith(t, false)
}

// startGHWith is startGH on the demo seeded with a bot identity when bot
// is set, so the agents' pull requests are agent-bot[bot]'s.
func startGHWith(t *testing.T, bot bool) *ghEnv {
	t.Helper()
	bin, err := exec.LookPath("gh")
	if err != nil {
		skipOrFail(t, "gh (GitHub's CLI) is not installed: `apt-get install gh` (Debian's package; .ci/run installs it) to drive the sandbox with a real client")
	}
	rec := &recorder{}
	subset := conformance.New(t) // the repository's own validator, on the subset
	srv, err := sandbox.New(sandbox.Options{
		Now:         func() time.Time { return ghNow },
		Wrap:        func(h http.Handler) http.Handler { return subset.Wrap(rec.wrap(h)) },
		BotIdentity: bot,
	})
	if err != nil {
		t.Fatalf("starting the sandbox: %v", err)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.StartTLS()
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	dir := t.TempDir()
	cert := filepath.Join(dir, "sandbox.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(ts.URL, "https://")
	// A clean environment: no token, proxy or config of the machine's
	// reaches gh, and gh never prompts, pages or checks for updates.
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"GH_CONFIG_DIR=" + filepath.Join(dir, "gh"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"GH_HOST=" + host,
		"SSL_CERT_FILE=" + cert,
		"GH_NO_UPDATE_NOTIFIER=1",
		"GH_PROMPT_DISABLED=1",
		"GH_PAGER=cat",
		"NO_COLOR=1",
		"LANG=C.UTF-8",
	}
	return &ghEnv{t: t, srv: srv, rec: rec, host: host, bin: bin, env: env, client: ts.Client()}
}

// gh runs gh as the sandbox account key (founder, writer, agent-bot…) and
// returns its standard output; a non-zero exit is returned as err with
// standard error in it.
func (g *ghEnv) gh(account string, stdin []byte, args ...string) (string, error) {
	g.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, g.bin, args...)
	cmd.Env = append(append([]string(nil), g.env...), "GH_ENTERPRISE_TOKEN="+sandbox.TokenPrefix+account)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), &ghError{args: args, err: err, stderr: errb.String()}
	}
	if errb.Len() > 0 {
		g.t.Logf("gh %s: standard error: %s", strings.Join(args, " "), errb.String())
	}
	return out.String(), nil
}

type ghError struct {
	args   []string
	err    error
	stderr string
}

func (e *ghError) Unwrap() error { return e.err }

func (e *ghError) Error() string {
	return "gh " + strings.Join(e.args, " ") + ": " + e.err.Error() + ": " + strings.TrimSpace(e.stderr)
}

// ghResponse is one HTTP response as `gh api --include` prints it.
type ghResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// parseIncluded splits gh api --include output into its responses (one a
// page with --paginate): status line, headers, blank line, body.
func parseIncluded(out string) ([]ghResponse, error) {
	var res []ghResponse
	r := bufio.NewReader(strings.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			return res, nil
		}
		if !strings.HasPrefix(line, "HTTP/") {
			if len(res) == 0 {
				return nil, &parseError{line}
			}
			res[len(res)-1].Body = append(res[len(res)-1].Body, line...)
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, &parseError{line}
		}
		code, cerr := strconv.Atoi(f[1])
		if cerr != nil {
			return nil, &parseError{line}
		}
		resp := ghResponse{Status: code, Header: http.Header{}}
		for {
			h, herr := r.ReadString('\n')
			h = strings.TrimRight(h, "\r\n")
			if h == "" || herr != nil {
				break
			}
			k, v, _ := strings.Cut(h, ":")
			resp.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
		res = append(res, resp)
	}
}

type parseError struct{ line string }

func (e *parseError) Error() string {
	return "gh api --include: unexpected line " + strconv.Quote(e.line)
}

// jsonValues decodes one or more concatenated JSON values (gh --paginate
// prints one array a page) and joins arrays into one.
func jsonValues(b []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var out []any
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if arr, ok := v.([]any); ok {
			out = append(out, arr...)
		} else {
			out = append(out, v)
		}
	}
	return out, nil
}
