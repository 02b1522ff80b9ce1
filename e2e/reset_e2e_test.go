package e2e

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// sandboxProcess runs `aayu sandbox` (with args) as its own process under
// home, as a person runs it in another terminal; it returns once the
// sandbox answers on addr.
func sandboxProcess(t *testing.T, bin, home, addr string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "sandbox", "--addr", addr)
	cmd.Env = sandboxEnviron(home)
	// Its own process group, so the cleanup's kill reaches what it started
	// (a gate run's go and git): one left running writes into home while
	// the test's TempDir is being removed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	})
	deadline := time.Now().Add(e2eWait)
	for {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/repos/acme/benefits", nil)
		req.Header.Set("Authorization", "token sandbox-founder")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cmd
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("aayu sandbox --addr %s never answered:\n%s", addr, out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sandboxEnviron is a person's environment under home: a new HOME, the
// Go caches as go env reports them (a new HOME would mean an empty build
// cache for every go its gate runs start, the standard library compiled
// again, writing into home while the test ends).
func sandboxEnviron(home string) []string {
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	return append(env, strings.Fields(goEnv())...)
}

// stopSandbox ends a sandbox process as Ctrl-C does: it saves its state.
func stopSandbox(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	// What it started and did not wait for ends with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if err != nil {
		t.Fatalf("aayu sandbox did not stop cleanly: %v", err)
	}
}

// TestTmuxInboxReadsAllAfterTheSandboxIsReset: the inbox stays open on
// `aayu sandbox --addr` on a fixed port and a Decision is closed; then
// `aayu sandbox --reset` runs from another process, first while that
// sandbox keeps serving, then as the README does it (stopped, reset,
// started again on the same port). Each time r shows the Decision the
// reset re-opened: the repository is another one (a new id), so the
// refresh reads everything rather than asking what changed since its last
// read, which the re-opened Decision's older updated_at never answers.
func TestTmuxInboxReadsAllAfterTheSandboxIsReset(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	first := sandboxProcess(t, bin, home, addr)

	s := newTmux(t, 120, 30, humanEnv(home)+" AAYU_GITHUB_TOKEN=sandbox-founder "+bin+
		" --api-url http://"+addr+"/ --oauth-url http://"+addr+" --repo acme/benefits inbox")
	s.waitCards(8)
	client, err := ghx.NewClient(ghx.ClientOptions{APIURL: "http://" + addr + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.Issues.Edit(context.Background(), sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoDecision,
		&github.IssueRequest{State: github.String("closed")}); err != nil {
		t.Fatal(err)
	}
	s.keys("r")
	s.waitCards(7)

	reset := func() {
		t.Helper()
		cmd := exec.Command(bin, "sandbox", "--reset")
		cmd.Env = sandboxEnviron(home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("aayu sandbox --reset: %v\n%s", err, out)
		}
	}
	reopened := func() {
		t.Helper()
		s.keys("r")
		scr := s.waitCards(8)
		if !strings.Contains(scr, "Decision #"+itoa(sandbox.DemoDecision)) {
			t.Errorf("the re-opened Decision #%d is not on the screen:\n%s", sandbox.DemoDecision, scr)
		}
	}

	// Reset while the sandbox serves: it serves the new repository.
	reset()
	reopened()

	// The README's way: stop it, reset, start it again on the same port.
	if _, _, err := client.Issues.Edit(context.Background(), sandbox.RepoOwner, sandbox.RepoName, sandbox.DemoDecision,
		&github.IssueRequest{State: github.String("closed")}); err != nil {
		t.Fatal(err)
	}
	s.keys("r")
	s.waitCards(7)
	stopSandbox(t, first)
	reset()
	sandboxProcess(t, bin, home, addr)
	reopened()
	s.keys("q")
	s.waitFor("AAYU-EXIT=")
}
