package e2e

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// interruptAt is a sandbox that sends ctrl+c (SIGINT) to the ship process
// the moment GitHub starts serving the first request matching at
// ("METHOD /path"), and holds that request until ship has said it stops
// once the write under way lands: the stop comes during exactly that
// write, every run, whatever the machine's speed.
func interruptAt(t *testing.T, at string) (url string, proc *atomic.Pointer[procAayu]) {
	t.Helper()
	proc = new(atomic.Pointer[procAayu])
	var once sync.Once
	plan := func(r *http.Request) sandbox.Fault {
		if r.Method+" "+r.URL.Path != at {
			return sandbox.NoFault
		}
		once.Do(func() {
			p := proc.Load()
			if p == nil {
				return
			}
			_ = p.cmd.Process.Signal(syscall.SIGINT)
			deadline := time.Now().Add(e2eWait)
			for !strings.Contains(p.out.String(), "ship stops once the write under way lands") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		})
		return sandbox.NoFault
	}
	_, url = sandboxWith(t, sandbox.Options{StateDir: filepath.Join(t.TempDir(), "sandbox"), FaultPlan: plan,
		Faults: sandbox.FaultSpec{WriteLatency: 800 * time.Millisecond}})
	return url, proc
}

// storyShipped is Story #3 as GitHub has it: labelled status:merged, and
// whether it carries ship's shipped comment.
func storyShipped(t *testing.T, url string) (labelled, commented bool) {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"reader", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	is, _, err := c.Issues.Get(ctx, "acme", "benefits", 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range is.Labels {
		labelled = labelled || l.GetName() == "status:merged"
	}
	list, _, err := c.Issues.ListComments(ctx, "acme", "benefits", 3, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range list {
		commented = commented || strings.Contains(cm.GetBody(), "#4")
	}
	return labelled, commented
}

func TestShipInterruptedExplore(t *testing.T) {
	t.Parallel()
	for _, at := range []string{
		"POST /repos/acme/benefits/issues/4/comments",
		"PUT /repos/acme/benefits/pulls/4/merge",
		"PATCH /repos/acme/benefits/git/refs/heads/ledger",
		"PATCH /repos/acme/benefits/issues/3",
		"POST /repos/acme/benefits/issues/3/comments",
	} {
		t.Run(strings.ReplaceAll(at, "/", "_"), func(t *testing.T) {
			t.Parallel()
			bin := buildAayu(t)
			home := t.TempDir()
			url, proc := interruptAt(t, at)
			p := shipProcess(t, bin, home, url)
			proc.Store(p)
			p.send("y")
			code := p.exited()
			merged, bypasses := shipState(t, url)
			lab, com := storyShipped(t, url)
			t.Logf("AT %s exit %d merged=%v bypass=%d ledger=%v story=%v,%v\n%s", at, code, merged, bypasses, shipRecordOnLedger(t, url), lab, com, p.out.String())
			t.Logf("LIST:\n%s", nextRunList(t, bin, home, url))
		})
	}
}
