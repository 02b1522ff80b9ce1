package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// slowSandbox is a sandbox whose every write takes latency, so a
// Decision's writes take long enough to interrupt (its reads are not
// slowed: they would only make the test longer); commented receives a
// value once the Decision's comment has landed (its POST answered 201).
func slowSandbox(t *testing.T, latency time.Duration) (url string, commented <-chan struct{}) {
	t.Helper()
	return watchedSandbox(t, latency, fmt.Sprintf("POST /repos/%s/%s/issues/%d/comments 201", sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoDecision))
}

// watchedSandbox is a sandbox whose writes are slowed by latency and
// whose landed channel receives a value once a request it logs starts
// with watch.
// landedWithin waits for a watched request to reach the sandbox, and
// fails the test with what aayu shows (now) if it never does, rather than
// hanging until go test's own timeout.
func landedWithin(t *testing.T, landed <-chan struct{}, what string, now func() string) {
	t.Helper()
	select {
	case <-landed:
	case <-time.After(e2eWait):
		t.Fatalf("%s never reached the sandbox; aayu shows:\n%s", what, now())
	}
}

func watchedSandbox(t *testing.T, latency time.Duration, watch string) (url string, landed <-chan struct{}) {
	t.Helper()
	seen := make(chan struct{}, 1)
	_, url = sandboxWith(t, sandbox.Options{StateDir: filepath.Join(t.TempDir(), "sandbox"), Faults: sandbox.FaultSpec{WriteLatency: latency},
		Logf: func(format string, args ...any) {
			if strings.HasPrefix(fmt.Sprintf(format, args...), watch) {
				select {
				case seen <- struct{}{}:
				default:
				}
			}
		}})
	return url, seen
}

// procAayu is the real binary in its own process, plain, its lines typed
// on a pipe, so a test can send it real signals.
type procAayu struct {
	t    *testing.T
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *lockedBuffer
	done chan int
}

func startProcess(t *testing.T, bin, home string, args ...string) *procAayu {
	t.Helper()
	return startProcessMarked(t, bin, home, "AMP_THREAD_ID=T-1", args...)
}

// startProcessMarked is startProcess with marker as the host's agent
// marker ("" for none: a person's process without a terminal, which the
// presence check serves; a marked one posts a batch for ship).
func startProcessMarked(t *testing.T, bin, home, marker string, args ...string) *procAayu {
	t.Helper()
	cmd := exec.Command(bin, args...)
	// Only what the run needs: no agent marker of the test's own shell.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "AAYU_GITHUB_TOKEN=sandbox-founder"}
	if marker != "" {
		cmd.Env = append(cmd.Env, marker)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &procAayu{t: t, cmd: cmd, in: in, out: &lockedBuffer{}, done: make(chan int, 1)}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		p.done <- cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() {
		_ = in.Close()
		_ = cmd.Process.Kill()
	})
	return p
}

func (p *procAayu) waitFor(re string) []string {
	p.t.Helper()
	m, out := p.out.waitMatch(re, e2eWait)
	if m == nil {
		p.t.Fatalf("aayu never printed %q; it printed:\n%s", re, out)
	}
	return m
}

func (p *procAayu) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

func (p *procAayu) signal(sig os.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
}

// exited waits for the process to end on its own (stdin stays open: the
// signal, not the end of input, must end it).
func (p *procAayu) exited() int {
	p.t.Helper()
	select {
	case code := <-p.done:
		return code
	case <-time.After(e2eWait):
		p.t.Fatalf("aayu did not stop:\n%s", p.out.String())
		return -1
	}
}

func (p *procAayu) lastLine() string {
	lines := strings.Split(strings.TrimRight(p.out.String(), "\n"), "\n")
	return lines[len(lines)-1]
}

// acceptDecision starts the plain inbox against url, approves its
// presence check, and accepts the Decision's recommendation.
func acceptDecision(t *testing.T, bin, home, url string) *procAayu {
	t.Helper()
	p := startProcess(t, bin, home, "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/benefits", "--plain",
		"--set", "identity.device_client_id=aayu-sandbox", "inbox")
	m := p.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	p.waitFor(fmt.Sprintf(`card 1 of \d+: Decision #%d\. Choose`, sandbox.DemoDecision))
	p.send("enter")
	p.waitFor(fmt.Sprintf(`Decision #%d: writing in the background`, sandbox.DemoDecision))
	return p
}

// actionsLog reads every record of the actions log kept under home.
func actionsLog(t *testing.T, home string) []actions.Record {
	t.Helper()
	dir := filepath.Join(home, ".local", "state", "aayu", "actions")
	entries, _ := os.ReadDir(dir)
	var out []actions.Record
	for _, e := range entries {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r actions.Record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("actions log line %q: %v", sc.Text(), err)
			}
			out = append(out, r)
		}
		f.Close()
	}
	return out
}

// decisionRecords are the actions log's records of the Decision's writes.
func decisionRecords(t *testing.T, home string) []actions.Record {
	var out []actions.Record
	for _, r := range actionsLog(t, home) {
		if strings.HasPrefix(r.Command, fmt.Sprintf("inbox: decide %d ", sandbox.DemoDecision)) {
			out = append(out, r)
		}
	}
	return out
}

// listInbox is the next run: aayu inbox --list, read-only.
func nextRunList(t *testing.T, bin, home, url string) string {
	t.Helper()
	p := startProcess(t, bin, home, "--api-url", url+"/", "--repo", "acme/benefits", "inbox", "--list")
	_ = p.in.Close()
	if code := p.exited(); code != tui.ExitOK {
		t.Fatalf("the next run's --list: exit %d\n%s", code, p.out.String())
	}
	return p.out.String()
}

// TestSIGTERMDuringInboxWriteLeavesNoHalfDone: SIGTERM to the real binary
// while the Decision's writes are under way (each request slowed down) does
// not cut them: the comment, the label and the close all land, the actions
// log records it done, the last line and exit 0 say so, and the next run
// lists the Decision no more.
func TestSIGTERMDuringInboxWriteLeavesNoHalfDone(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary against a slowed sandbox")
	}
	bin := buildAayu(t)
	home := t.TempDir()
	url, commented := slowSandbox(t, 300*time.Millisecond)
	p := acceptDecision(t, bin, home, url)
	landedWithin(t, commented, "the Decision's comment", p.out.String) // on GitHub, the label and the close are not
	p.signal(syscall.SIGTERM)
	code := p.exited()
	out := p.out.String()
	if !strings.Contains(out, "SIGTERM: finishing 1 write under way") {
		t.Errorf("aayu did not say it was finishing the write under way:\n%s", out)
	}
	if !strings.Contains(out, fmt.Sprintf("done: Decision #%d", sandbox.DemoDecision)) {
		t.Errorf("the write under way did not finish:\n%s", out)
	}
	want := "stopped on SIGTERM: the 1 write under way finished first; nothing is half done (exit 0)."
	if code != tui.ExitOK || p.lastLine() != want {
		t.Errorf("exit %d, last line %q; want exit 0 and %q", code, p.lastLine(), want)
	}
	recs := decisionRecords(t, home)
	// The comment, status:proposed removed, status:accepted added, the close.
	if len(recs) != 1 || recs[0].Outcome != actions.OutcomeDone || len(recs[0].Writes) != 4 {
		t.Errorf("the actions log does not record the Decision's four writes done: %+v", recs)
	}
	if list := nextRunList(t, bin, home, url); strings.Contains(list, fmt.Sprintf("Decision #%d", sandbox.DemoDecision)) {
		t.Errorf("the next run still lists the Decision:\n%s", list)
	}
}

// TestCtrlCTwiceDuringDecisionWriteLeavesItHalfDoneForTheNextRun: a second
// ctrl+c (SIGINT, as a terminal sends it to the plain twin) after the
// comment landed stops the write: the actions log records it interrupted
// with the comment it wrote, exit 1 and the last line say so, and the next
// run shows the Decision as half done, not as a fresh card.
func TestCtrlCTwiceDuringDecisionWriteLeavesItHalfDoneForTheNextRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary against a slowed sandbox")
	}
	bin := buildAayu(t)
	home := t.TempDir()
	url, commented := slowSandbox(t, 500*time.Millisecond)
	p := acceptDecision(t, bin, home, url)
	landedWithin(t, commented, "the Decision's comment", p.out.String)
	p.signal(syscall.SIGINT)
	p.waitFor(`ctrl\+c: finishing 1 write under way`)
	p.signal(syscall.SIGINT)
	code := p.exited()
	out := p.out.String()
	if code != tui.ExitFailed || !strings.Contains(p.lastLine(), "stopped on ctrl+c: 1 write was cut short") {
		t.Errorf("exit %d, last line %q; want exit 1 and a line saying the write was cut short:\n%s", code, p.lastLine(), out)
	}
	recs := decisionRecords(t, home)
	if len(recs) != 1 || recs[0].Outcome != actions.OutcomeInterrupted || len(recs[0].Writes) != 1 {
		t.Fatalf("the actions log does not record the write as interrupted after its comment: %+v", recs)
	}
	list := nextRunList(t, bin, home, url)
	if !strings.Contains(list, "Half done: option 1 was accepted in a comment by @founder") || !strings.Contains(list, "Press Enter to finish it") {
		t.Errorf("the next run does not show the Decision as half done:\n%s", list)
	}
}

// shipProcess starts the real binary's plain ship of the demo's #4 by the
// Solo-mode bypass against url, approves its presence check, and waits
// for the confirmation.
func shipProcess(t *testing.T, bin, home, url string) *procAayu {
	t.Helper()
	// No agent's marker: a marked process without a terminal is a host
	// agent's lane, whose ship posts a batch; this is the person's.
	p := startProcessMarked(t, bin, home, "", "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/benefits", "--plain",
		"--set", "identity.device_client_id=aayu-sandbox", "ship", "4", "--solo-bypass")
	m := p.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	p.waitFor(`Type y and Enter to write all of these`)
	return p
}

// shipState is #4 as GitHub has it: merged, and how many bypass comments.
func shipState(t *testing.T, url string) (merged bool, bypasses int) {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"reader", "test")})
	if err != nil {
		t.Fatal(err)
	}
	return prState(t, c, 4)
}

// shipRecordOnLedger says whether the ledger holds #4's ship.json, as
// GitHub has it.
func shipRecordOnLedger(t *testing.T, url string) bool {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"reader", "test")})
	if err != nil {
		t.Fatal(err)
	}
	tree, _, err := c.Git.GetTree(context.Background(), "acme", "benefits", "ledger", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tree.Entries {
		if strings.HasPrefix(e.GetPath(), "proof/3/") && strings.HasSuffix(e.GetPath(), "/authoritative/ship.json") {
			return true
		}
	}
	return false
}

// TestCtrlCAtShipConfirmationWritesNothing: ctrl+c (SIGINT to the plain
// binary) while ship lists its writes is a no: nothing is written, exit 4,
// and the last line says why.
func TestCtrlCAtShipConfirmationWritesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary against the sandbox")
	}
	bin := buildAayu(t)
	url, _ := watchedSandbox(t, 0, "-")
	p := shipProcess(t, bin, t.TempDir(), url)
	p.signal(syscall.SIGINT)
	code := p.exited()
	want := "result: exit 4 — ctrl+c at the confirmation: nothing was written"
	if code != tui.ExitRefused || p.lastLine() != want {
		t.Errorf("exit %d, last line %q; want exit 4 and %q:\n%s", code, p.lastLine(), want, p.out.String())
	}
	if merged, bypasses := shipState(t, url); merged || bypasses != 0 {
		t.Errorf("ctrl+c at the confirmation wrote: merged=%v, %d bypass comments", merged, bypasses)
	}
}

// TestSIGTERMDuringShipMergeStopsAfterItLands: SIGTERM while ship's merge
// is under way does not cut it: the merge lands, ship stops there with
// exit 1 and a last line saying so, and the next aayu ship finishes the
// record without merging twice.
func TestSIGTERMDuringShipMergeStopsAfterItLands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary against a slowed sandbox")
	}
	bin := buildAayu(t)
	home := t.TempDir()
	url, merged := watchedSandbox(t, 200*time.Millisecond, "PUT /repos/acme/benefits/pulls/4/merge 200")
	p := shipProcess(t, bin, home, url)
	p.send("y")
	landedWithin(t, merged, "the merge", p.out.String) // on GitHub; the answer is on its way back to aayu
	p.signal(syscall.SIGTERM)
	code := p.exited()
	last := p.lastLine()
	if m, bypasses := shipState(t, url); !m || bypasses != 1 {
		t.Fatalf("after the stop: merged=%v, %d bypass comments; want merged once with its one bypass", m, bypasses)
	}
	// The signal may reach aayu before the ledger write starts or while it
	// is under way: either way the last words are what GitHub holds.
	words, landed := "did not reach the ledger", "merged, the record not finished"
	if shipRecordOnLedger(t, url) {
		words, landed = "its record is on the ledger, but Story #3 is not updated", "merged and recorded, the Story not updated"
	}
	if code != tui.ExitFailed || !strings.Contains(last, "stopped on SIGTERM after the write under way landed: "+landed+"; aayu ship 4 finishes it without merging twice") {
		t.Fatalf("exit %d, last line %q; want exit 1 and %q:\n%s", code, last, landed, p.out.String())
	}
	stopped := false
	for _, r := range actionsLog(t, home) {
		stopped = stopped || (r.Command == "ship 4" && r.Outcome == actions.OutcomeInterrupted && strings.Contains(r.Detail, words))
	}
	if !stopped {
		t.Errorf("the actions log does not record the ship stopped after its merge as %q: %+v", words, actionsLog(t, home))
	}
	again := startProcessMarked(t, bin, home, "", "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/benefits", "--plain",
		"--set", "identity.device_client_id=aayu-sandbox", "ship", "4", "--solo-bypass")
	again.waitFor(`Type y and Enter to write all of these`) // the writes left, with no new presence check
	again.send("y")
	if code := again.exited(); code != tui.ExitOK || !strings.Contains(again.out.String(), "shipped: #4 merged as") {
		t.Errorf("the next ship did not finish the record: exit %d\n%s", code, again.out.String())
	}
}

// TestTmuxCtrlCDuringDecisionWriteFinishesIt: the real ctrl+c key in the
// full screen (a raw terminal, so a key, not a signal) while the Decision's
// writes are under way: the screen says it is finishing the write, the
// write lands, and the line left on the terminal says what happened.
func TestTmuxCtrlCDuringDecisionWriteFinishesIt(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	url, commented := slowSandbox(t, 300*time.Millisecond)
	s := newTmux(t, 140, 34, humanEnv(home)+" AAYU_GITHUB_TOKEN=sandbox-founder "+bin+" --api-url "+url+"/ --oauth-url "+url+" --repo acme/benefits inbox")
	s.waitCards(8)
	s.waitFor("Decision #1 (needs you)") // the first card, under the cursor
	s.keys("Enter")
	landedWithin(t, commented, "the Decision's comment", s.screen)
	s.keys("C-c")
	s.waitFor("finishing 1 write under way")
	scr := s.waitFor("AAYU-EXIT=0")
	for _, want := range []string{"done: Decision #1", "stopped on ctrl+c: the 1 write under way finished first; nothing is half done (exit 0)."} {
		if !strings.Contains(scr, want) {
			t.Errorf("the terminal after aayu lacks %q:\n%s", want, scr)
		}
	}
	recs := decisionRecords(t, home)
	if len(recs) != 1 || recs[0].Outcome != actions.OutcomeDone {
		t.Errorf("the actions log does not record the Decision done: %+v", recs)
	}
}
