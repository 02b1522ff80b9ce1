package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

// TestAgentSessionStepsGoIntoOneBatch: an agent session (AAYU_SESSION)
// runs aayu decide 1 --accept 1 and then aayu decide 2 --accept 1. The
// second step does not post a second batch to approve: it posts one batch
// holding both steps, marks the first superseded on the ledger (before its
// comment is posted) and says so on the first batch's thread. The
// founder's reply to the first batch applies nothing (superseded, with the
// batch to approve instead); the reply to the second accepts both
// Decisions. The same step run again adds nothing; another session's step
// makes its own batch.
func TestAgentSessionStepsGoIntoOneBatch(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	ctx := context.Background()
	founder := clientAt(t, url, "founder")
	approveByReply(t, founder, "device_for = []")
	home := t.TempDir()
	agent := func(session string, args ...string) (int, string, string) {
		vars := map[string]string{"HOME": home, "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot", "AAYU_SESSION": session}
		return runAayuEnv(t, vars, append([]string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}, args...)...)
	}
	batchRE := regexp.MustCompile(`Batch ([0-9a-f]{12}): (\d) human-only steps? for @founder`)

	code, out, errOut := agent("session-one", "decide", "1", "--accept", "1")
	m := batchRE.FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil || m[2] != "1" {
		t.Fatalf("the session's first step exited %d:\n%s%s", code, out, errOut)
	}
	first := m[1]

	code, out, errOut = agent("session-one", "decide", "2", "--accept", "1")
	m = batchRE.FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil || m[2] != "2" || !strings.Contains(out, "Batch "+first+" of this agent session is superseded") {
		t.Fatalf("the session's second step did not join the first batch (exit %d):\n%s%s", code, out, errOut)
	}
	second := m[1]
	ledger := approve.Ledger{Client: founder, Owner: "acme", Repo: "benefits"}
	st, found, err := ledger.Stored(ctx, second)
	if err != nil || !found || len(st.Record.Items) != 2 || st.Record.Items[0].Decision != 1 || st.Record.Items[1].Decision != 2 || st.Record.Issue != 1 {
		t.Fatalf("batch %s does not hold both steps on #1: %v %+v", second, err, st.Record.Items)
	}
	ptr, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.SessionPath(st.Record.Session))
	if err != nil || !strings.Contains(string(ptr), second) || strings.Contains(string(ptr), "session-one") {
		t.Errorf("the session's pointer does not name batch %s, or holds the session's key: %v %s", second, err, ptr)
	}
	superseded := false
	for _, c := range decideComments(t, founder, 1) {
		superseded = superseded || strings.Contains(c, "batch "+first+" is superseded by batch "+second)
	}
	if !superseded {
		t.Errorf("the first batch's thread does not say it is superseded: %q", decideComments(t, founder, 1))
	}

	// The same step again adds nothing and posts nothing.
	code, out, _ = agent("session-one", "decide", "2", "--accept", "1")
	if code != tui.ExitOK || !strings.Contains(out, "Batch "+second+" of this agent session already holds") {
		t.Fatalf("the same step again exited %d:\n%s", code, out)
	}

	// Another session's step makes a batch of its own.
	code, out, errOut = agent("session-two", "decide", "1", "--accept", "1")
	if m = batchRE.FindStringSubmatch(out); code != tui.ExitOK || m == nil || m[2] != "1" || strings.Contains(out, "superseded") {
		t.Fatalf("another session's step joined this session's batch (exit %d):\n%s%s", code, out, errOut)
	}

	// The founder's reply to the superseded batch applies nothing.
	r := reply(t, founder, 1, "Approve batch "+first)
	code, out, errOut = approveReplyRun(t, url, 1, r.GetID())
	if code == tui.ExitOK || !strings.Contains(out, "superseded by batch "+second) {
		t.Fatalf("a reply to the superseded batch exited %d:\n%s%s", code, out, errOut)
	}
	for _, n := range []int{1, 2} {
		if st := decidedState(t, founder, n); st != "open/" {
			t.Fatalf("Decision #%d is %s after a reply to the superseded batch", n, st)
		}
	}
	r = reply(t, founder, 1, "Approve batch "+second)
	code, out, errOut = approveReplyRun(t, url, 1, r.GetID())
	if code != tui.ExitOK || !strings.Contains(out, "Batch "+second+" applied.") {
		t.Fatalf("the founder's reply to the session's batch exited %d:\n%s%s", code, out, errOut)
	}
	for _, n := range []int{1, 2} {
		if st := decidedState(t, founder, n); st != "closed/completed" {
			t.Errorf("Decision #%d is %s after the founder's reply", n, st)
		}
	}

}
