package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

// soloAgent is a host agent's lane in the solo demo: a host marker and the
// founder's token, which the agent holds (no bot identity).
func soloAgent(t *testing.T) map[string]string {
	return map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
}

// editComment changes a comment's text as its author may on GitHub, a
// second after it was posted, so GitHub records it as edited.
func editComment(t *testing.T, c *github.Client, id int64, body string) {
	t.Helper()
	time.Sleep(1100 * time.Millisecond)
	if _, _, err := c.Issues.EditComment(context.Background(), "acme", "benefits", id, &github.IssueComment{Body: github.String(body)}); err != nil {
		t.Fatal(err)
	}
}

// TestEditedBatchCommentAppliesNothing: the agent's batch accepts option 2
// of Decision #1; the agent edits its own batch comment to show option 1,
// the recommended one, keeping the code. The founder approves the code
// the comment shows: nothing is applied, #1 stays open, and the refusal
// names the edit. aayu approve HASH at the founder's terminal, with a
// fresh code, is refused the same way: the comment is what was shown.
func TestEditedBatchCommentAppliesNothing(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	founder := clientAt(t, url, "founder")
	at := []string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}
	a := startAayu(t, soloAgent(t), append(at, "decide", "1", "--accept", "2")...)
	hash := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder`)[1]
	a.waitFor(`Waiting for @founder to approve the device code`)
	batch := batchComment(t, founder, 1, hash)
	body := batch.GetBody()
	if !strings.Contains(body, "Accepts option 2 (") {
		t.Fatalf("the batch does not accept option 2:\n%s", body)
	}
	harmless := strings.Replace(strings.Replace(body, "Accepts option 2 (", "Accepts option 1 (", 1), " This is not the recommendation.", "", 1)
	editComment(t, founder, batch.GetID(), harmless)
	dm := deviceInComment.FindStringSubmatch(harmless)
	if dm == nil {
		t.Fatalf("no device code in the edited comment:\n%s", harmless)
	}
	approveOnSandbox(t, dm[1], dm[2], "founder")
	a.waitFor(`Not applied: |Batch ` + hash + ` applied\.`)
	if code := a.exit(); code != tui.ExitRefused {
		t.Fatalf("an edited batch's code exited %d, want %d:\n%s", code, tui.ExitRefused, a.out.String())
	}
	if !strings.Contains(a.out.String(), "was edited after it was posted") {
		t.Errorf("the refusal does not name the edit:\n%s", a.out.String())
	}
	if st := decidedState(t, founder, 1); st != "open/" {
		t.Fatalf("#1 is %s after an edited batch's code was approved", st)
	}
	if _, err := ghx.ReadFile(context.Background(), founder, "acme", "benefits", "ledger", approve.AppliedPath(hash)); !ghx.IsNotFound(err) {
		t.Fatalf("an applied record landed for an edited batch: %v", err)
	}

	b := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(at, "approve", hash)...)
	m := b.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	b.waitFor(`Not applied: |Batch ` + hash + ` applied\.`)
	if code := b.exit(); code != tui.ExitRefused || !strings.Contains(b.out.String(), "was edited after it was posted") {
		t.Fatalf("aayu approve of an edited batch exited %d:\n%s", code, b.out.String())
	}
	if st := decidedState(t, founder, 1); st != "open/" {
		t.Fatalf("#1 is %s after aayu approve of an edited batch", st)
	}
}

// TestReplacedBatchCommentAppliesNothing: the agent deletes its batch
// comment and posts it again, unedited, with the marker and the rendered
// text but its own code: the waiting aayu's code, approved elsewhere,
// applies nothing, as the comment no longer shows the code it polls for.
func TestReplacedBatchCommentAppliesNothing(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	at := []string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}
	a := startAayu(t, soloAgent(t), append(at, "decide", "1", "--accept", "2")...)
	hash := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder`)[1]
	a.waitFor(`Waiting for @founder to approve the device code`)
	batch := batchComment(t, founder, 1, hash)
	dm := deviceInComment.FindStringSubmatch(batch.GetBody())
	if dm == nil {
		t.Fatalf("no device code in the batch:\n%s", batch.GetBody())
	}
	if _, err := founder.Issues.DeleteComment(ctx, "acme", "benefits", batch.GetID()); err != nil {
		t.Fatal(err)
	}
	reply(t, founder, 1, strings.Replace(batch.GetBody(), dm[2], "WXYZ-1234", 1))
	approveOnSandbox(t, dm[1], dm[2], "founder")
	a.waitFor(`Not applied: |Batch ` + hash + ` applied\.`)
	if code := a.exit(); code != tui.ExitRefused || !strings.Contains(a.out.String(), "is not exactly what aayu renders") {
		t.Fatalf("a replaced batch comment exited %d:\n%s", code, a.out.String())
	}
	if st := decidedState(t, founder, 1); st != "open/" {
		t.Fatalf("#1 is %s after a replaced batch comment", st)
	}
}

// TestOneOptionPerDecisionPerBatch: an agent session's batch accepts
// option 1 of Decision #1; the session's next step, option 2 of the same
// Decision, is refused in words (exit 4): nothing is posted, the first
// batch is not superseded and still waits, holding one option.
func TestOneOptionPerDecisionPerBatch(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	ctx := context.Background()
	founder := clientAt(t, url, "founder")
	approveByReply(t, founder, "device_for = []")
	home := t.TempDir()
	agent := func(args ...string) (int, string, string) {
		vars := map[string]string{"HOME": home, "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot", "AAYU_SESSION": "s-1"}
		return runAayuEnv(t, vars, append([]string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}, args...)...)
	}
	code, out, errOut := agent("decide", "1", "--accept", "1")
	m := regexp.MustCompile(`Batch ([0-9a-f]{12}): 1 human-only step for @founder`).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("the first step exited %d:\n%s%s", code, out, errOut)
	}
	first := m[1]
	before := len(decideComments(t, founder, 1))
	code, out, errOut = agent("decide", "1", "--accept", "2")
	if code != tui.ExitRefused || !strings.Contains(out+errOut, "one batch holds one option per Decision") || !strings.Contains(out+errOut, "option 1 and option 2 of Decision #1") {
		t.Fatalf("a second option of Decision #1 exited %d, want %d with the reason:\n%s%s", code, tui.ExitRefused, out, errOut)
	}
	if after := len(decideComments(t, founder, 1)); after != before {
		t.Errorf("a refused step left %d new comments on #1", after-before)
	}
	ledger := approve.Ledger{Client: founder, Owner: "acme", Repo: "benefits"}
	if _, err := approve.Load(ctx, ledger, first); err != nil {
		t.Fatalf("batch %s no longer waits after a refused step: %v", first, err)
	}
	st, _, err := ledger.Stored(ctx, first)
	if err != nil || len(st.Record.Items) != 1 || st.Record.Items[0].Option != 1 {
		t.Fatalf("batch %s changed: %v %+v", first, err, st.Record.Items)
	}
}

// TestAppliedBatchCommentSaysSo: an agent session's batch A (decide 1) is
// superseded by batch B (decide 1 and 2): A's comment is edited by aayu to
// say so, naming B, with no way to approve left in it. B, applied at the
// founder's terminal, is edited to say it was applied, by whom and how;
// both keep their steps and their hidden marker. In solo mode the batch
// comment's device code is gone once its batch is applied elsewhere.
func TestAppliedBatchCommentSaysSo(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	founder := clientAt(t, url, "founder")
	home := t.TempDir()
	agent := func(args ...string) string {
		vars := map[string]string{"HOME": home, "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot", "AAYU_SESSION": "s-1"}
		code, out, errOut := runAayuEnv(t, vars, append([]string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}, args...)...)
		m := regexp.MustCompile(`Batch ([0-9a-f]{12}): \d human-only steps? for @founder`).FindStringSubmatch(out)
		if code != tui.ExitOK || m == nil {
			t.Fatalf("aayu %v exited %d:\n%s%s", args, code, out, errOut)
		}
		return m[1]
	}
	a := agent("decide", "1", "--accept", "1")
	b := agent("decide", "2", "--accept", "1")
	stale := func(body, hash string) {
		t.Helper()
		for _, live := range []string{"wait for your approval", "aayu approve " + hash + "`", "Device code:", "Approve batch " + hash} {
			if strings.Contains(body, live) {
				t.Errorf("batch %s's closed comment still says %q:\n%s", hash, live, body)
			}
		}
		if approve.MarkerIn(body) != hash || !strings.Contains(body, "1. Accepts option 1 (") {
			t.Errorf("batch %s's closed comment lost its marker or its steps:\n%s", hash, body)
		}
	}
	body := batchComment(t, founder, 1, a).GetBody()
	if !strings.HasPrefix(body, "Batch "+a+": superseded by batch "+b+" (on #1)") {
		t.Errorf("the superseded batch's comment does not say so on its first line:\n%s", body)
	}
	stale(body, a)
	p := approveAtTerminal(t, url, b, "founder")
	if code := p.exit(); code != tui.ExitOK {
		t.Fatalf("approve %s exited %d:\n%s", b, code, p.out.String())
	}
	body = batchComment(t, founder, 1, b).GetBody()
	if !strings.HasPrefix(body, "Batch "+b+": applied on @founder's approval (device-code) at ") {
		t.Errorf("the applied batch's comment does not say so on its first line:\n%s", body)
	}
	stale(body, b)

	// Solo mode: the code in the comment is gone once applied elsewhere.
	_, solo := startSandboxServer(t)
	w := startAayu(t, soloAgent(t), "--api-url", solo+"/", "--oauth-url", solo, "--repo", "acme/benefits", "--plain", "decide", "1", "--accept", "1")
	hash := w.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder`)[1]
	w.waitFor(`Waiting for @founder to approve the device code`)
	sf := clientAt(t, solo, "founder")
	if !deviceInComment.MatchString(batchComment(t, sf, 1, hash).GetBody()) {
		t.Fatal("no device code in the solo batch's comment")
	}
	if code := approveAtTerminal(t, solo, hash, "founder").exit(); code != tui.ExitOK {
		t.Fatalf("approve %s exited %d", hash, code)
	}
	if code := w.exit(); code != tui.ExitOK {
		t.Fatalf("the waiting agent exited %d:\n%s", code, w.out.String())
	}
	stale(batchComment(t, sf, 1, hash).GetBody(), hash)
}
