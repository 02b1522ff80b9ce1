package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// armedSandbox is the bot-identity demo whose writes are slowed by
// latency; arm(prefix) returns a channel that receives once a request the
// sandbox logs after that moment starts with prefix.
func armedSandbox(t *testing.T, latency time.Duration) (url string, arm func(prefix string) <-chan struct{}) {
	t.Helper()
	var mu sync.Mutex
	var watch string
	var seen chan struct{}
	_, url = sandboxWith(t, sandbox.Options{StateDir: filepath.Join(t.TempDir(), "sandbox"), BotIdentity: true,
		Device: &sandbox.DeviceOptions{Interval: 0, Expiry: 5 * 60e9}, Faults: sandbox.FaultSpec{WriteLatency: latency},
		Logf: func(format string, args ...any) {
			line := fmt.Sprintf(format, args...)
			mu.Lock()
			defer mu.Unlock()
			if watch != "" && strings.HasPrefix(line, watch) {
				select {
				case seen <- struct{}{}:
				default:
				}
			}
		}})
	return url, func(prefix string) <-chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		watch, seen = prefix, make(chan struct{}, 1)
		return seen
	}
}

// TestBatchApplyKilledAtEachStepIsFinishedByNextApprove: the founder's
// aayu approve HASH (the real binary) applying a batch that accepts
// Decisions #1 and #2 is killed with SIGKILL right after each of its
// writes lands: the first acceptance comment, the first Decision closed,
// the second Decision closed (before the applied record: the case that
// stuck for ever), and the applied record (before the comment says so).
// Each time, the next aayu approve HASH finishes the batch or says it is
// done, exit 0: both Decisions closed as accepted with one acceptance
// comment each, the applied record on the ledger, the batch comment
// saying it was applied.
func TestBatchApplyKilledAtEachStepIsFinishedByNextApprove(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and kills it")
	}
	bin := buildAayu(t)
	repo := sandbox.RepoOwner + "/" + sandbox.RepoName
	for _, step := range []struct{ name, after string }{
		{"after the first acceptance comment", "POST /repos/" + repo + "/issues/1/comments 201"},
		{"after the first Decision closed", "PATCH /repos/" + repo + "/issues/1 200"},
		{"after the second Decision closed", "PATCH /repos/" + repo + "/issues/2 200"},
		{"after the applied record", "PATCH /repos/" + repo + "/git/refs/heads/ledger 200"},
	} {
		t.Run(step.name, func(t *testing.T) {
			t.Parallel()
			url, arm := armedSandbox(t, 150*time.Millisecond)
			at := []string{"--api-url", url + "/", "--oauth-url", url, "--repo", repo, "--plain"}
			code, out, errOut := runAayuEnv(t, map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot"}, append(at, "decide", "1,2", "--accept", "1,1")...)
			m := regexp.MustCompile(`Batch ([0-9a-f]{12}): 2 human-only steps`).FindStringSubmatch(out)
			if code != tui.ExitOK || m == nil {
				t.Fatalf("the agent's decide exited %d:\n%s%s", code, out, errOut)
			}
			hash := m[1]
			landed := arm(step.after)

			cmd := exec.Command(bin, append(at, "approve", hash)...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AAYU_GITHUB_TOKEN=sandbox-founder"}
			var buf lockedBuffer
			cmd.Stdout, cmd.Stderr = &buf, &buf
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			deadline := time.Now().Add(e2eWait)
			var dm []string
			for dm == nil {
				if dm = regexp.MustCompile(deviceCodeLine).FindStringSubmatch(buf.String()); dm == nil {
					if time.Now().After(deadline) {
						t.Fatalf("no device code:\n%s", buf.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			approveOnSandbox(t, dm[1], dm[2], "founder")
			select {
			case <-landed:
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			case <-time.After(e2eWait):
				t.Fatalf("the write %q never landed:\n%s", step.after, buf.String())
			}
			_ = cmd.Wait()
			if strings.Contains(buf.String(), "Batch "+hash+" applied.") {
				t.Fatalf("the kill came too late: the run had finished:\n%s", buf.String())
			}

			next := approveAtTerminal(t, url, hash, "founder")
			if code := next.exit(); code != tui.ExitOK {
				t.Fatalf("the next approve after a kill %s exited %d:\n%s", step.name, code, next.out.String())
			}
			founder := clientAt(t, url, "founder")
			for _, n := range []int{1, 2} {
				if st := decidedState(t, founder, n); st != "closed/completed" {
					t.Errorf("Decision #%d is %s", n, st)
				}
				accepted := 0
				for _, c := range decideComments(t, founder, n) {
					if strings.HasPrefix(c, "@founder: Accepted option 1 (") {
						accepted++
					}
				}
				if accepted != 1 {
					t.Errorf("Decision #%d has %d acceptance comments, want 1", n, accepted)
				}
			}
			if _, err := ghx.ReadFile(context.Background(), founder, "acme", "benefits", "ledger", approve.AppliedPath(hash)); err != nil {
				t.Errorf("no applied record after the next approve: %v", err)
			}
			if body := batchComment(t, founder, 1, hash).GetBody(); !strings.HasPrefix(body, "Batch "+hash+": applied on @founder's approval") {
				t.Errorf("the batch comment does not say it was applied:\n%s", body)
			}
		})
	}
}
