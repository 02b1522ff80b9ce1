package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// lockedBuffer is aayu's output as it is written, safe to read while it
// is; a waiter learns of each write from written instead of polling.
type lockedBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	next chan struct{} // closed by the next Write
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next != nil {
		close(l.next)
		l.next = nil
	}
	return l.b.Write(p)
}

// written is closed by the next Write: take it before reading String, and
// nothing written after that read is missed.
func (l *lockedBuffer) written() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next == nil {
		l.next = make(chan struct{})
	}
	return l.next
}

// waitMatch waits until the output matches re and returns the match,
// or nil and the output once wait has passed. It reads the output once per
// write, not on a timer.
func (l *lockedBuffer) waitMatch(re string, wait time.Duration) ([]string, string) {
	pat := regexp.MustCompile(re)
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		next := l.written()
		s := l.String()
		if m := pat.FindStringSubmatch(s); m != nil {
			return m, s
		}
		select {
		case <-next:
		case <-deadline.C:
			s = l.String()
			return pat.FindStringSubmatch(s), s
		}
	}
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// liveAayu runs aayu in-process as a person without a terminal would, with
// lines typed on standard input only when the test decides.
type liveAayu struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *lockedBuffer
	done chan int
}

func startAayu(t *testing.T, vars map[string]string, args ...string) *liveAayu {
	t.Helper()
	pr, pw := io.Pipe()
	a := &liveAayu{t: t, in: pw, out: &lockedBuffer{}, done: make(chan int, 1)}
	go func() {
		a.done <- runCLI(context.Background(), vars, args, cli.Env{Stdin: pr, Stdout: a.out, Stderr: a.out})
	}()
	t.Cleanup(func() { _ = pw.Close() })
	return a
}

func (a *liveAayu) waitFor(re string) []string {
	a.t.Helper()
	m, out := a.out.waitMatch(re, e2eWait)
	if m == nil {
		a.t.Fatalf("aayu never printed %q; it printed:\n%s", re, out)
	}
	return m
}

func (a *liveAayu) send(line string) {
	a.t.Helper()
	if _, err := io.WriteString(a.in, line+"\n"); err != nil {
		a.t.Fatal(err)
	}
}

func (a *liveAayu) exit() int {
	a.t.Helper()
	_ = a.in.Close()
	select {
	case code := <-a.done:
		return code
	case <-time.After(e2eWait):
		a.t.Fatalf("aayu did not stop:\n%s", a.out.String())
		return -1
	}
}

// approveOnSandbox approves a device code on the sandbox's device page, as
// the person does on their phone.
func approveOnSandbox(t *testing.T, page, code, login string) {
	t.Helper()
	resp, err := http.PostForm(page, url.Values{"user_code": {code}, "login": {login}, "action": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the device page answered %d", resp.StatusCode)
	}
}

// filesContaining lists the files under dir whose bytes contain s.
func filesContaining(t *testing.T, dir, s string) []string {
	t.Helper()
	var hits []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(s)) {
			hits = append(hits, p)
		}
		return nil
	})
	return hits
}

// TestInboxLoginScreen: a person in a shell that carries a host's agent
// marker gets the presence check before the inbox; the code is shown on
// that screen only and never reaches a log, a cache or the sandbox's state.
func TestInboxLoginScreen(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	a := startAayu(t, map[string]string{"HOME": home, "AMP_THREAD_ID": "T-123"}, "--sandbox", "--plain", "inbox")
	m := a.waitFor(deviceCodeLine)
	page, code := m[1], m[2]
	approveOnSandbox(t, page, code, "founder")
	a.waitFor(`Approved by @founder \(device-flow, admin access\)`)
	a.waitFor(`card 1 of \d+: Decision #1`)
	a.send("q")
	if c := a.exit(); c != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", c, a.out.String())
	}
	if n := strings.Count(a.out.String(), code); n != 1 {
		t.Errorf("the code was printed %d times, want once, on the login screen", n)
	}
	if hits := filesContaining(t, home, code); len(hits) > 0 {
		t.Fatalf("the device code reached files: %v", hits)
	}
	log := filesContaining(t, home, "presence.approve")
	if len(log) != 1 {
		t.Fatalf("presence.approve is not in the actions log (found in %v)", log)
	}
}

// seedBotIdentityDemo seeds the sandbox's state at stateDir with a bot
// identity (agent-bot[bot] in [identity], its pull requests the bot's), so
// aayu --sandbox finds that demo instead of the solo one.
func seedBotIdentityDemo(t *testing.T, stateDir string) {
	t.Helper()
	srv, err := newSandbox(sandbox.Options{StateDir: stateDir, BotIdentity: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
}

// approveHeadFromInbox approves #6's head from the plain inbox, under the
// session's one approval, and returns the head shown and the output.
func approveHeadFromInbox(t *testing.T, home string) (string, string, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home, "CLAUDECODE": "1"}, "--sandbox", "--plain", "inbox")
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	card := a.waitFor(`card (\d+): PR that needs your review #6 \(needs you\)`)[1]
	head := a.waitFor(`(?s)PR that needs your review #6.*?head ([0-9a-f]{40})`)[1]
	// Skip to the card: one s per question, each sent only once the next
	// question is printed, so no s lands on a card not yet read, and a
	// bounded number of them.
	choose := regexp.MustCompile(`card (\d+) of \d+: [^\n]*\. Choose`)
	for asked := 0; ; {
		deadline := time.Now().Add(e2eWait)
		all := choose.FindAllStringSubmatch(a.out.String(), -1)
		for len(all) <= asked {
			if time.Now().After(deadline) {
				t.Fatalf("no next question after %d; aayu printed:\n%s", asked, a.out.String())
			}
			time.Sleep(20 * time.Millisecond)
			all = choose.FindAllStringSubmatch(a.out.String(), -1)
		}
		asked = len(all)
		if all[asked-1][1] == card {
			break
		}
		if asked > 30 {
			t.Fatalf("card %s never came up in %d questions:\n%s", card, asked, a.out.String())
		}
		a.send("s")
	}
	a.send("2")
	a.waitFor(`One line on what you checked`)
	a.send("Ran the copay tests and read the diff of copay/copay.go")
	a.waitFor(`\(y applies it; anything else cancels\)`)
	a.send("y")
	a.waitFor(`done: PR that needs your review #6`)
	a.send("q")
	if c := a.exit(); c != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", c, a.out.String())
	}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
	out, err := runCmd("git", "--git-dir", git, "show", "ledger:reviews/6/"+head+".json")
	if err != nil {
		t.Fatalf("no review record on the ledger: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"founder"`) || !strings.Contains(out, "copay") {
		t.Errorf("the review record lacks the login or the note:\n%s", out)
	}
	if hits := filesContaining(t, home, m[2]); len(hits) > 0 {
		t.Fatalf("the device code reached files: %v", hits)
	}
	return head, a.out.String(), out
}

// foundersReviews lists the founder's reviews of #6 in the persisted state.
func foundersReviews(t *testing.T, home string) []string {
	t.Helper()
	rs, _, err := sandboxState(t, home).PullRequests.ListReviews(context.Background(), "acme", "benefits", 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		if r.GetUser().GetLogin() == "founder" {
			out = append(out, r.GetState()+" "+r.GetCommitID())
		}
	}
	return out
}

// TestInboxApproveHead: from the inbox, under the session's one
// approval, the founder approves #6's head; its record, naming the head
// shown, lands on the ledger either way.
//
//   - ApprovesHumanReviews: with a bot identity, the approval is a review
//     of exactly that head on GitHub.
//   - InTheSoloDemoIsARecordNotAReview: in the solo demo the founder is
//     #6's author (agents wrote it under their token), so "approve its
//     head" says ship still needs the bypass, and writes only the ledger
//     record and the Human review: reply inspect reads: no review on
//     GitHub, which refuses an author's own.
func TestInboxApproveHead(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		botIdentity bool
		says        []string // in the session's output; HEAD is the head shown
		reviews     []string // the founder's reviews of #6 on GitHub afterwards
	}{
		{"ApprovesHumanReviews", true, []string{"approve pull request #6 at head HEAD"}, []string{"APPROVED HEAD"}},
		{"InTheSoloDemoIsARecordNotAReview", false,
			[]string{"you are its author, so ship still needs your Solo-mode bypass", "Human review: @founder approved head HEAD"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if c.botIdentity {
				seedBotIdentityDemo(t, filepath.Join(home, ".cache", "aayu", "sandbox"))
			}
			head, out, _ := approveHeadFromInbox(t, home)
			for _, want := range c.says {
				if want = strings.ReplaceAll(want, "HEAD", head); !strings.Contains(out, want) {
					t.Errorf("the session does not say %q:\n%s", want, out)
				}
			}
			var want []string
			for _, r := range c.reviews {
				want = append(want, strings.ReplaceAll(r, "HEAD", head))
			}
			if got := foundersReviews(t, home); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("the founder's reviews of #6: %q, want %q", got, want)
			}
		})
	}
}

func runCmd(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}
