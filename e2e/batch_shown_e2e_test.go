package e2e

import (
	"context"
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

// TestTamperedBatchCommentAppliesNothing: the agent's batch accepts
// option 2 of Decision #1 and waits for its device code; the comment is
// then changed under it. The founder approves the code the comment shows:
// nothing is applied, exit 4, #1 stays open, no applied record lands, and
// the refusal names what changed.
//
//   - EditedBatchCommentAppliesNothing: the agent edits its own comment to
//     show option 1, the recommended one, keeping the code. aayu approve
//     HASH at the founder's terminal, with a fresh code, is refused the same
//     way: the comment is what was shown.
//   - ReplacedBatchCommentAppliesNothing: the agent deletes the comment and
//     posts it again, unedited, with the marker and the rendered text but
//     its own code: the waiting aayu's code, approved elsewhere, applies
//     nothing, as the comment no longer shows the code it polls for.
func TestTamperedBatchCommentAppliesNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		// tamper changes the batch comment and returns the device page and
		// code the founder then approves.
		tamper     func(t *testing.T, founder *github.Client, batch *github.IssueComment) (page, code string)
		say        string
		atTerminal bool // aayu approve HASH at the founder's terminal is refused too
	}{
		{"EditedBatchCommentAppliesNothing", func(t *testing.T, founder *github.Client, batch *github.IssueComment) (string, string) {
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
			return dm[1], dm[2]
		}, "was edited after it was posted", true},
		{"ReplacedBatchCommentAppliesNothing", func(t *testing.T, founder *github.Client, batch *github.IssueComment) (string, string) {
			dm := deviceInComment.FindStringSubmatch(batch.GetBody())
			if dm == nil {
				t.Fatalf("no device code in the batch:\n%s", batch.GetBody())
			}
			if _, err := founder.Issues.DeleteComment(context.Background(), "acme", "benefits", batch.GetID()); err != nil {
				t.Fatal(err)
			}
			reply(t, founder, 1, strings.Replace(batch.GetBody(), dm[2], "WXYZ-1234", 1))
			return dm[1], dm[2]
		}, "is not exactly what aayu renders", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, url := startSandboxServer(t)
			founder := clientAt(t, url, "founder")
			a := startAayu(t, soloAgent(t), append(agentAt(url), "decide", "1", "--accept", "2")...)
			hash := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder`)[1]
			a.waitFor(`Waiting for @founder to approve the device code`)
			posted := batchComment(t, founder, 1, hash)
			// Solo mode: the comment shows as the founder's own, so it says
			// an agent lane posted it under the founder's token.
			if !strings.Contains(posted.GetBody(), "\nPosted by an agent lane under @founder's own token (solo mode") {
				t.Errorf("the solo batch comment does not say an agent lane posted it:\n%s", posted.GetBody())
			}
			page, code := c.tamper(t, founder, posted)
			approveOnSandbox(t, page, code, "founder")
			a.waitFor(`Not applied: |Batch ` + hash + ` applied\.`)
			if code := a.exit(); code != tui.ExitRefused || !strings.Contains(a.out.String(), c.say) {
				t.Fatalf("the tampered batch's code exited %d, want %d saying %q:\n%s", code, tui.ExitRefused, c.say, a.out.String())
			}
			if st := decidedState(t, founder, 1); st != "open/" {
				t.Fatalf("#1 is %s after a tampered batch's code was approved", st)
			}
			if _, err := ghx.ReadFile(context.Background(), founder, "acme", "benefits", "ledger", approve.AppliedPath(hash)); !ghx.IsNotFound(err) {
				t.Fatalf("an applied record landed for a tampered batch: %v", err)
			}
			if !c.atTerminal {
				return
			}
			if body := batchComment(t, founder, 1, hash).GetBody(); !strings.HasPrefix(body, "Batch "+hash+": "+approve.VoidedChanged) || deviceInComment.MatchString(body) {
				t.Errorf("the edited batch's comment is not marked void, or still shows a live code:\n%s", body)
			}
			b := approveAtTerminal(t, url, hash, "founder")
			if code := b.exit(); code != tui.ExitRefused || !strings.Contains(b.out.String(), c.say) {
				t.Fatalf("aayu approve of a tampered batch exited %d:\n%s", code, b.out.String())
			}
			if st := decidedState(t, founder, 1); st != "open/" {
				t.Fatalf("#1 is %s after aayu approve of a tampered batch", st)
			}
		})
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
	session := map[string]string{"HOME": home, "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot", "AAYU_SESSION": "s-1"}
	first, _ := agentBatch(t, url, session, `1 human-only step for @founder`, "decide", "1", "--accept", "1")
	before := len(decideComments(t, founder, 1))
	code, out, errOut := runAayuEnv(t, session, append(agentAt(url), "decide", "1", "--accept", "2")...)
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
	session := map[string]string{"HOME": home, "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot", "AAYU_SESSION": "s-1"}
	a, _ := agentBatch(t, url, session, `\d human-only steps? for @founder`, "decide", "1", "--accept", "1")
	b, _ := agentBatch(t, url, session, `\d human-only steps? for @founder`, "decide", "2", "--accept", "1")
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
	w := startAayu(t, soloAgent(t), append(agentAt(solo), "decide", "1", "--accept", "1")...)
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
