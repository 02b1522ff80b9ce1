package packbuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

func newDemo(t *testing.T) *demoRepo {
	t.Helper()
	needTools(t)
	s, err := sandbox.New(sandbox.Options{StateDir: t.TempDir(), Now: func() time.Time { return demoNow }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &demoRepo{srv: s}
}

// checkout clones the demo and checks out the head of story's pull request.
func (d *demoRepo) checkout(t *testing.T, story int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "benefits")
	if err := (Tools{}).CloneCheckout(context.Background(), d.srv.GitDir(), dir, d.srv.HeadSHA(demoStoryPRs[story])); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (d *demoRepo) ready(t *testing.T, story int) []byte {
	t.Helper()
	out, err := exec.Command("git", "--git-dir", d.srv.GitDir(), "show", "ledger:specs/"+strconv.Itoa(story)+"/ready.md").Output()
	if err != nil {
		t.Fatalf("reading the Ready snapshot of %d: %v", story, err)
	}
	return out
}

// request is a verify run of story on a fresh checkout.
func (d *demoRepo) request(t *testing.T, story int, now time.Time) Request {
	t.Helper()
	return Request{
		Dir: d.checkout(t, story), Repo: "acme/benefits", Story: story, PR: demoStoryPRs[story],
		BaseRef: "origin/dev", Ready: d.ready(t, story),
		Bug:    story == sandbox.DemoBug || story == sandbox.DemoBugGreenOnBase,
		Config: config.Sources{}, Now: func() time.Time { return now },
	}
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
