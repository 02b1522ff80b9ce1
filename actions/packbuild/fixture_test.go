package packbuild

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

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/config"
)

var (
	demoNow      = time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC)
	beforeBlock  = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	afterBlock   = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	demoStoryPRs = map[int]int{3: sandbox.DemoPRReady, 5: sandbox.DemoPRReview, 7: sandbox.DemoPRStopped,
		sandbox.DemoBug: sandbox.DemoPRBugFix, sandbox.DemoBugGreenOnBase: sandbox.DemoPRBugFix}
)

// demoRepo is the sandbox's demo repository as a bare git repository on
// disk, seeded with a fixed clock so its SHAs are stable.
type demoRepo struct {
	srv *sandbox.Server
}

func needTools(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs git and go test on the demo module")
	}
	for _, bin := range []string{"git", "go"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s is not on PATH", bin)
		}
	}
}

// shared holds what this package's tests build once and only read: the
// demo repository, and the go runs more than one test reads. TestMain
// removes it.
var shared struct {
	once sync.Once
	root string
	err  error
	demo *demoRepo // nil until a test asks for it
}

func sharedRoot() (string, error) {
	shared.once.Do(func() { shared.root, shared.err = os.MkdirTemp("", "aayu-packbuild-") })
	return shared.root, shared.err
}

// theDemo is the demo seeded once for every test: the tests only clone it
// and read its SHAs and ledger, never write to it.
var theDemo = sync.OnceValues(func() (*demoRepo, error) {
	root, err := sharedRoot()
	if err != nil {
		return nil, err
	}
	s, err := sandbox.New(sandbox.Options{StateDir: filepath.Join(root, "sandbox"), Now: func() time.Time { return demoNow }})
	if err != nil {
		return nil, err
	}
	shared.demo = &demoRepo{srv: s}
	return shared.demo, nil
})

// TestMain runs the tests, then stops the shared demo and removes what
// was built once.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.demo != nil {
		_ = shared.demo.srv.Close()
	}
	if shared.root != "" {
		_ = os.RemoveAll(shared.root)
	}
	os.Exit(code)
}

func newDemo(t *testing.T) *demoRepo {
	t.Helper()
	needTools(t)
	d, err := theDemo()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkout clones the demo and checks out the head of story's pull request.
func (d *demoRepo) checkout(t *testing.T, story int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "benefits")
	if err := d.checkoutTo(dir, story); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (d *demoRepo) checkoutTo(dir string, story int) error {
	return (Tools{}).CloneCheckout(context.Background(), d.srv.GitDir(), dir, d.srv.HeadSHA(demoStoryPRs[story]))
}

func (d *demoRepo) readyOf(story int) ([]byte, error) {
	out, err := exec.Command("git", "--git-dir", d.srv.GitDir(), "show", "ledger:specs/"+strconv.Itoa(story)+"/ready.md").Output()
	if err != nil {
		return nil, fmt.Errorf("reading the Ready snapshot of %d: %w", story, err)
	}
	return out, nil
}

// request is a verify run of story on a fresh checkout.
func (d *demoRepo) request(t *testing.T, story int, now time.Time) Request {
	t.Helper()
	req, err := d.requestIn(filepath.Join(t.TempDir(), "benefits"), story, now)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func (d *demoRepo) requestIn(dir string, story int, now time.Time) (Request, error) {
	if err := d.checkoutTo(dir, story); err != nil {
		return Request{}, err
	}
	ready, err := d.readyOf(story)
	if err != nil {
		return Request{}, err
	}
	return Request{
		Dir: dir, Repo: "acme/benefits", Story: story, PR: demoStoryPRs[story],
		BaseRef: "origin/dev", Ready: ready,
		Bug:    story == sandbox.DemoBug || story == sandbox.DemoBugGreenOnBase,
		Config: config.Sources{}, Now: func() time.Time { return now },
	}, nil
}

// sharedRun is one verify run, made once for every test that reads it.
type sharedRun struct {
	once sync.Once
	req  Request
	out  *Outcome
	ev   *events
	err  error
}

var sharedRuns sync.Map // "story@clock" → *sharedRun

// directRun is the verify run of story, unchanged, at now, on a checkout
// of its own: the same go test, go vet and red-on-base runs for every test
// that asks, made once. Its callers only read it (the outcome, the pack
// folder, the checkout's git state); a test that changes the checkout or
// runs again on it takes d.request and run instead.
func (d *demoRepo) directRun(t *testing.T, story int, now time.Time) (Request, *Outcome, *events) {
	t.Helper()
	key := fmt.Sprintf("%d@%s", story, now.Format(time.RFC3339))
	v, _ := sharedRuns.LoadOrStore(key, &sharedRun{})
	s := v.(*sharedRun)
	s.once.Do(func() {
		root, err := sharedRoot()
		if err != nil {
			s.err = err
			return
		}
		dir := filepath.Join(root, "run-"+strings.NewReplacer(":", "", "@", "-").Replace(key), "benefits")
		if s.req, s.err = d.requestIn(dir, story, now); s.err != nil {
			return
		}
		s.ev = &events{}
		s.out, s.err = Run(context.Background(), Tools{}, s.req, s.ev.add)
	})
	if s.err != nil {
		t.Fatalf("the shared run of story %d: %v", story, s.err)
	}
	return s.req, s.out, s.ev
}

// rawRun is RunRaw's outputs for story's unchanged head, made once.
var rawRuns sync.Map // story → *sharedRun (req.FromRaw holds the folder)

func (d *demoRepo) rawRun(t *testing.T, story int) string {
	t.Helper()
	v, _ := rawRuns.LoadOrStore(story, &sharedRun{})
	s := v.(*sharedRun)
	s.once.Do(func() {
		root, err := sharedRoot()
		if err != nil {
			s.err = err
			return
		}
		dir := filepath.Join(root, fmt.Sprintf("raw-%d", story))
		if s.err = d.checkoutTo(filepath.Join(dir, "benefits"), story); s.err != nil {
			return
		}
		s.req.FromRaw = filepath.Join(dir, "raw")
		s.err = RunRaw(context.Background(), Tools{}, RawRequest{Dir: filepath.Join(dir, "benefits"), Story: story, BaseBranch: "dev", Out: s.req.FromRaw}, nil)
	})
	if s.err != nil {
		t.Fatalf("the shared raw outputs of story %d: %v", story, s.err)
	}
	return s.req.FromRaw
}

// events records what a run emitted.
type events struct{ list []Event }

func (e *events) add(ev Event) { e.list = append(e.list, ev) }

func (e *events) ended() map[string]StepEnded {
	out := map[string]StepEnded{}
	for _, ev := range e.list {
		if s, ok := ev.(StepEnded); ok {
			out[s.Step] = s
		}
	}
	return out
}

func run(t *testing.T, req Request) (*Outcome, *events) {
	t.Helper()
	ev := &events{}
	out, err := Run(context.Background(), Tools{}, req, ev.add)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out, ev
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gitCommit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "change"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}
