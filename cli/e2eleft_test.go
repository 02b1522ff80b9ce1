package cli

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/internal/syncbuf"
)

// The end-to-end tests live in package e2e. What this file holds are the
// few of their helpers that tests staying in this package still use
// (forged_test, inbox_plain_golden_test, main_test, parallel_test), copied
// so neither package reaches into the other.

// deviceCodeLine is how the plain presence check names its page and code.
const deviceCodeLine = `open (http://127\.0\.0\.1:\d+/login/device) and enter ([A-Z0-9]{4}-[A-Z0-9]{4})`

// liveAayu runs aayu in-process as a person without a terminal would, with
// lines typed on standard input only when the test decides.
type liveAayu struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *syncbuf.Buffer
	done chan int
}

func startAayu(t *testing.T, vars map[string]string, args ...string) *liveAayu {
	t.Helper()
	pr, pw := io.Pipe()
	a := &liveAayu{t: t, in: pw, out: &syncbuf.Buffer{}, done: make(chan int, 1)}
	go func() {
		a.done <- run(context.Background(), args, env{
			stdin: pr, stdout: a.out, stderr: a.out,
			getenv: func(k string) string { return vars[k] },
		})
	}()
	t.Cleanup(func() { _ = pw.Close() })
	return a
}

func (a *liveAayu) waitFor(re string) []string {
	a.t.Helper()
	pat := regexp.MustCompile(re)
	deadline := time.Now().Add(e2eWait)
	for {
		if m := pat.FindStringSubmatch(a.out.String()); m != nil {
			return m
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("aayu never printed %q; it printed:\n%s", re, a.out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
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

// shipFromPlainInbox starts a plain inbox on the sandbox as the founder,
// approves its presence check, skips the two Decisions, picks "ship it" on
// the ready card #4 and answers its confirmation y.
func shipFromPlainInbox(t *testing.T, home string) *liveAayu {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, "--sandbox", "--plain", "inbox")
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`card 1 of \d+: Decision #1\. Choose`)
	a.send("s")
	a.waitFor(`card 2 of \d+: Decision #2\. Choose`)
	a.send("s")
	a.waitFor(`card 3 of \d+: Story PR ready to ship #4\. Choose`)
	a.send("1")
	// The inbox's presence check covers the ships made from it.
	a.waitFor(`Type y and Enter to write all of these`)
	a.send("y")
	return a
}

// sandboxAt serves the sandbox GitHub from stateDir with faults, as
// `aayu sandbox --faults …` does, until the test ends.
func sandboxAt(t *testing.T, stateDir string, faults sandbox.FaultSpec) (*sandbox.Server, string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{StateDir: stateDir, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv, url
}

// runAayuEnviron runs aayu in-process with exactly vars as its variables
// and environ as what a process it starts inherits.
func runAayuEnviron(t *testing.T, vars map[string]string, environ []string, args ...string) (int, string, string) {
	t.Helper()
	if vars["HOME"] == "" {
		vars["HOME"] = t.TempDir()
	}
	var out, errb strings.Builder
	code := run(t.Context(), args, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return vars[k] }, environ: environ,
	})
	return code, out.String(), errb.String()
}
