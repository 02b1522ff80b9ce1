package ship

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/google/go-github/v66/github"
)

const owner, repo = sandbox.RepoOwner, sandbox.RepoName

// fixture is a validated sandbox with a client per account.
type fixture struct {
	t       *testing.T
	srv     *sandbox.Server
	base    string
	clients map[string]*github.Client
	logDir  string
	lastPR  int // the pull request a test opened last
}

// newFixture is the demo as seeded: solo, so agents wrote its pull requests
// under the founder's token, the founder is their author, and only the
// founder's Solo-mode bypass can pass them (seed 001).
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return startFixture(t, sandbox.Options{StateDir: seededCopy(t, false)})
}

// newBotFixture is the demo seeded with a bot identity (seed 001's other
// case): agent-bot[bot] authored its pull requests, so the founder's review
// is the human pass and the bypass is refused. Tests of a review passing
// run here.
func newBotFixture(t *testing.T) *fixture {
	t.Helper()
	return startFixture(t, sandbox.Options{StateDir: seededCopy(t, true), BotIdentity: true})
}

// seeded are the demo's two seedings (solo, and with a bot identity), each
// made once per test binary in its own state folder: seeding writes some
// thousand git objects one file at a time, a quarter of this package's
// time when every test seeded its own. A test starts from a copy, so what
// it writes stays its own; the sandbox reloads a state folder as it finds
// it, and signs the demo's attestations again with its own keys.
var seeded = [2]func() (string, error){sync.OnceValues(func() (string, error) { return seedOnce(false) }),
	sync.OnceValues(func() (string, error) { return seedOnce(true) })}

// seededRoot holds the seedings; TestMain removes it.
var seededRoot = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "aayu-ship-seeded-") })

func seedOnce(bot bool) (string, error) {
	root, err := seededRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, fmt.Sprintf("bot-%v", bot))
	srv, err := sandbox.New(sandbox.Options{StateDir: dir, BotIdentity: bot})
	if err != nil {
		return "", fmt.Errorf("seeding the demo: %w", err)
	}
	if err := srv.Close(); err != nil {
		return "", err
	}
	return dir, packRepos(dir)
}

// packRepos packs each of the state folder's git repositories, so a copy
// of it is some thirty files instead of some three hundred files and two
// hundred folders: the copy each test makes was a seventh of this
// package's CPU. The sandbox's git storage reads packs as it reads loose
// objects, and writes what a test adds loose beside them.
func packRepos(dir string) error {
	repos, err := filepath.Glob(filepath.Join(dir, "*.git"))
	if err != nil {
		return err
	}
	for _, r := range repos {
		out, err := exec.Command("git", "-C", r, "-c", "repack.writeBitmaps=false", "repack", "-a", "-d", "-q").CombinedOutput()
		if err != nil {
			return fmt.Errorf("packing the seeded %s: %v: %s", filepath.Base(r), err, out)
		}
	}
	return nil
}

// seededCopy is a new state folder holding the demo as seeded (with a bot
// identity when bot is true), for this test alone.
func seededCopy(t *testing.T, bot bool) string {
	t.Helper()
	i := 0
	if bot {
		i = 1
	}
	src, err := seeded[i]()
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "sandbox")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatalf("copying the seeded demo: %v", err)
	}
	return dst
}

func startFixture(t *testing.T, opts sandbox.Options) *fixture {
	t.Helper()
	srv, _, base := conformance.StartSandbox(t, opts)
	return &fixture{t: t, srv: srv, base: base, clients: map[string]*github.Client{}, logDir: t.TempDir()}
}

func (f *fixture) client(login string) *github.Client {
	f.t.Helper()
	if c, ok := f.clients[login]; ok {
		return c
	}
	c, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: f.base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	f.clients[login] = c
	return c
}

// config is a person at a terminal shipping as login.
func (f *fixture) config(login string) Config {
	return Config{Client: f.client(login), Owner: owner, Repo: repo, Viewer: login, Log: actions.OpenLog(f.logDir, nil),
		WorkDir: f.t.TempDir(), Terminal: true, Env: envOf(nil), Confirm: yes}
}

// yes is a person who answers yes at the confirmation.
func yes(context.Context, Plan) (bool, error) { return true, nil }

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// ship runs ship on pr and returns the result and every event.
func (f *fixture) ship(cfg Config, pr int) (Result, []Event, error) {
	f.t.Helper()
	s, err := New(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	events := make(chan Event, 1024)
	res, err := s.Run(context.Background(), pr, events)
	close(events)
	var all []Event
	for e := range events {
		all = append(all, e)
	}
	return res, all, err
}

// approve posts login's review of pr's head (or of commit).
func (f *fixture) review(login string, pr int, event, commit string) {
	f.t.Helper()
	if commit == "" {
		commit = f.srv.HeadSHA(pr)
	}
	_, _, err := f.client(login).PullRequests.CreateReview(context.Background(), owner, repo, pr,
		&github.PullRequestReviewRequest{CommitID: github.String(commit), Event: github.String(event)})
	if err != nil {
		f.t.Fatalf("%s %s on #%d: %v", login, event, pr, err)
	}
}

// commit writes files onto branch as founder, as an outside script would.
func (f *fixture) commit(branch string, files map[string]string) {
	f.t.Helper()
	m := map[string][]byte{}
	for k, v := range files {
		m[k] = []byte(v)
	}
	if _, err := ghx.CommitFiles(context.Background(), f.client("founder"), owner, repo, branch, m, "staged by the test", ghx.CommitOptions{}); err != nil {
		f.t.Fatalf("committing onto %s: %v", branch, err)
	}
}

// baseConfig rewrites dev's .aayudha/config.toml by replacing old with new.
func (f *fixture) baseConfig(pairs ...string) {
	f.t.Helper()
	b, err := ghx.ReadFile(context.Background(), f.client("founder"), owner, repo, "dev", ".aayudha/config.toml")
	if err != nil {
		f.t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			f.t.Fatalf("the demo config has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	f.commit("dev", map[string]string{".aayudha/config.toml": s})
}

// soloLine is the demo config's line saying no [identity] table is set; a
// test that needs a seat puts its table there (one that needs a bot
// identity starts from newBotFixture, whose pull requests are the bot's).
const soloLine = sandbox.SoloConfigLine

// solo says the test relies on solo mode, which the demo already is.
func (f *fixture) solo() {
	f.t.Helper()
	b, err := ghx.ReadFile(context.Background(), f.client("founder"), owner, repo, "dev", ".aayudha/config.toml")
	if err != nil || !strings.Contains(string(b), soloLine) {
		f.t.Fatalf("the demo is no longer in solo mode: %v", err)
	}
}

// git runs git on the sandbox's bare repository.
func (f *fixture) git(args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"--git-dir", f.srv.GitDir()}, args...)...).CombinedOutput()
	return string(out), err
}

// squashCommits counts the commits on dev whose title names #pr.
func (f *fixture) squashCommits(pr int) int {
	f.t.Helper()
	out, err := f.git("log", "--format=%s", "dev")
	if err != nil {
		f.t.Fatalf("git log: %v\n%s", err, out)
	}
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "(#"+strconv.Itoa(pr)+")") {
			n++
		}
	}
	return n
}

// snapshot is the state a refused ship must leave unchanged.
type snapshot struct{ dev, ledger, head string }

func (f *fixture) snapshot(pr int) snapshot {
	return snapshot{dev: f.srv.BranchSHA("dev"), ledger: f.srv.BranchSHA("ledger"), head: f.srv.HeadSHA(pr)}
}

func (f *fixture) assertUnchanged(before snapshot, pr int) {
	f.t.Helper()
	if now := f.snapshot(pr); now != before {
		f.t.Errorf("a refused ship changed the repository: before %+v, after %+v", before, now)
	}
}

func hasWords(list []string, words string) bool {
	for _, s := range list {
		if strings.Contains(s, words) {
			return true
		}
	}
	return false
}

// lastEvent is the final state of each gate's line.
func lastEvent(events []Event) map[GateID]Event {
	out := map[GateID]Event{}
	for _, e := range events {
		out[e.Gate] = e
	}
	return out
}

// bypassComments counts the Solo-mode bypass: comments naming head on pr.
func (f *fixture) bypassComments(pr int, head string) int {
	f.t.Helper()
	list, _, err := f.client("reader").Issues.ListComments(context.Background(), owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		f.t.Fatal(err)
	}
	n := 0
	for _, c := range list {
		if strings.HasPrefix(c.GetBody(), "Solo-mode bypass:") && strings.Contains(c.GetBody(), head) {
			n++
		}
	}
	return n
}
