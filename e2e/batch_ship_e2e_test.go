package e2e

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// agentShipBatch runs a host agent's aayu ship 4 (the bot's token only)
// on the bot-identity sandbox at url, which posts its batch and returns at
// once, and returns that process, the hash and the batch comment's body.
func agentShipBatch(t *testing.T, url string) (*liveAayu, string, string) {
	t.Helper()
	a := startAayu(t, botAgent(t), append(agentAt(url), "ship", "4")...)
	m := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @agent-bot\[bot\] on #4|result: exit`)
	if len(m) < 2 || m[1] == "" {
		t.Fatalf("no batch:\n%s", a.out.String())
	}
	a.waitFor(`It waits for @founder to run aayu approve ` + m[1] + ` at their own terminal`)
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("the agent's ship exited %d:\n%s", code, a.out.String())
	}
	founder := clientAt(t, url, "founder")
	return a, m[1], batchComment(t, founder, 4, m[1]).GetBody()
}

// approveHead is the founder's review approving #4's head: the human pass
// with a bot identity, so ship would merge it.
func approveHead(t *testing.T, srv *sandbox.Server, url string) string {
	t.Helper()
	head := srv.HeadSHA(4)
	if _, _, err := clientAt(t, url, "founder").PullRequests.CreateReview(context.Background(), "acme", "benefits", 4,
		&github.PullRequestReviewRequest{CommitID: github.String(head), Event: github.String("APPROVE")}); err != nil {
		t.Fatal(err)
	}
	return head
}

// TestAgentShipIsABatchMergedOnApproval: an agent lane's aayu ship 4 is
// not refused: ship's own read-only gates pass, and one batch comment on
// #4, posted as the bot, says what approving does (the merge, pinned to
// the head) and that it is a one-way door, with a device code. Nothing is
// merged before the founder approves the code; then ship runs with the
// approval in place of the presence check, merges the pinned head, and
// ship.json records that the presence came from the batch, approved by
// @founder by device code and shipped by the founder. The token and the
// code never reach the output or the ledger. A second aayu approve finds
// the batch applied and writes nothing more.
func TestAgentShipIsABatchMergedOnApproval(t *testing.T) {
	t.Parallel()
	srv, url := startBotSandbox(t)
	head := approveHead(t, srv, url)
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	pr, _, err := founder.PullRequests.Get(ctx, "acme", "benefits", 4)
	if err != nil {
		t.Fatal(err)
	}
	a, hash, body := agentShipBatch(t, url)
	for _, want := range []string{"@founder 1 human-only step waits for your approval (batch " + hash + ").",
		"1. `aayu ship 4`: Merges PR #4 (" + pr.GetTitle() + ") at head " + head[:7] + " into dev",
		"One-way door: it cannot be undone later.", "Options: 1. Approve: merge it (recommended) / 2. Leave it: nothing is merged"} {
		if !strings.Contains(body, want) {
			t.Errorf("the batch lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "Reply `Approve batch") {
		t.Errorf("a merge, a one-way door, was offered to a reply:\n%s", body)
	}
	if deviceInComment.MatchString(body) {
		t.Errorf("the bot's batch carries a device code:\n%s", body)
	}
	if merged, _ := prState(t, founder, 4); merged {
		t.Fatal("#4 merged before anyone approved the batch")
	}
	agentOut := a.out.String()
	a = approveAtTerminal(t, url, hash, "founder")
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, a.out.String())
	}
	dm := regexp.MustCompile(deviceCodeLine).FindStringSubmatch(a.out.String())
	if !strings.Contains(a.out.String(), "done: #4 squash-merged at head "+head[:12]) {
		t.Errorf("the output does not say #4 merged at the pinned head:\n%s", a.out.String())
	}
	if merged, n := prState(t, founder, 4); !merged || n != 0 {
		t.Fatalf("after the approved batch #4 merged=%v with %d bypass comments, want merged with none", merged, n)
	}
	raw, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", "proof/3/"+head+"/authoritative/ship.json")
	if err != nil {
		t.Fatalf("no ship.json for the pinned head: %v", err)
	}
	var rec struct {
		PRHead    string                       `json:"pr_head_sha"`
		ShippedBy string                       `json:"shipped_by"`
		HumanPass struct{ Kind, Login string } `json:"human_pass"`
		Presence  *struct{ Kind, Batch, Login, Method string }
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.PRHead != head || rec.HumanPass.Kind != "review" || rec.HumanPass.Login != "founder" || rec.ShippedBy != "founder" {
		t.Errorf("ship.json does not record the founder's review of the pinned head, shipped by the founder:\n%s", raw)
	}
	if p := rec.Presence; p == nil || p.Kind != "batch" || p.Batch != hash || p.Login != "founder" || p.Method != approve.WayDevice {
		t.Errorf("ship.json does not say the presence came from batch %s approved by @founder by device code:\n%s", hash, raw)
	}
	applied, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.AppliedPath(hash))
	if err != nil || !strings.Contains(string(applied), `"by": "founder"`) {
		t.Fatalf("no applied record naming founder: %v %s", err, applied)
	}
	// ship's ledger commit names the person as the human behind it and the
	// batch they approved, not the bot that wrote it.
	msg := ""
	br, _, err := founder.Repositories.GetBranch(ctx, "acme", "benefits", "ledger", 0)
	if err != nil {
		t.Fatal(err)
	}
	for sha, i := br.GetCommit().GetSHA(), 0; sha != "" && i < 6 && !strings.Contains(msg, "aayu ship"); i++ {
		c, _, err := founder.Git.GetCommit(ctx, "acme", "benefits", sha)
		if err != nil {
			t.Fatal(err)
		}
		msg, sha = c.GetMessage(), ""
		if len(c.Parents) > 0 {
			sha = c.Parents[0].GetSHA()
		}
	}
	if !strings.Contains(msg, "Aayudha-Identity: human (founder, aayu ship, batch "+hash+")") || !strings.Contains(msg, "Approved-by: @founder (batch "+hash) {
		t.Errorf("ship's ledger commit does not name @founder's approval of batch %s:\n%s", hash, msg)
	}
	for _, secret := range []string{dm[2], "sandbox-agent-bot", "sandbox-founder"} {
		for name, text := range map[string]string{"agent's output": agentOut, "batch comment": body, "ship.json": string(raw), "applied record": string(applied)} {
			if strings.Contains(text, secret) {
				t.Errorf("%q reached the %s", secret, name)
			}
		}
	}
	approvedAlready(t, url, hash)
	if merged, n := prState(t, founder, 4); !merged || n != 0 {
		t.Fatalf("after a second approve #4 merged=%v with %d bypass comments", merged, n)
	}
}

// TestAgentShipBatchVoidedWhenTheHeadMoved: the batch pins the head ship
// read; a push to the pull request after the batch voids the approval, in
// words naming both heads, and nothing is merged or marked applied.
func TestAgentShipBatchVoidedWhenTheHeadMoved(t *testing.T) {
	t.Parallel()
	srv, url := startBotSandbox(t)
	head := approveHead(t, srv, url)
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	pr, _, err := founder.PullRequests.Get(ctx, "acme", "benefits", 4)
	if err != nil {
		t.Fatal(err)
	}
	_, hash, _ := agentShipBatch(t, url)
	if _, err := ghx.CommitFiles(ctx, clientAt(t, url, "agent-bot"), "acme", "benefits", pr.GetHead().GetRef(),
		map[string][]byte{"NOTES.md": []byte("one more line\n")}, "A change after the batch", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	moved := srv.HeadSHA(4)
	if moved == head {
		t.Fatal("the push did not move #4's head")
	}
	a := approveAtTerminal(t, url, hash, "founder")
	if code := a.exit(); code != tui.ExitRefused {
		t.Fatalf("exit %d, want %d:\n%s", code, tui.ExitRefused, a.out.String())
	}
	if want := "the head of #4 moved from " + head[:12] + " to " + moved[:12] + " since batch " + hash; !strings.Contains(a.out.String(), want) {
		t.Errorf("the refusal does not say %q:\n%s", want, a.out.String())
	}
	if merged, _ := prState(t, founder, 4); merged {
		t.Fatal("a moved head was merged on the old head's approval")
	}
	b, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.AppliedPath(hash))
	if err != nil {
		t.Fatalf("the voided batch has no closing record on the ledger: %v", err)
	}
	var closed approve.Applied
	if err := json.Unmarshal(b, &closed); err != nil || !closed.IsVoided() || closed.Complete {
		t.Fatalf("the batch's closing record = %s (%v), want outcome voided, nothing applied", b, err)
	}
	// Its comment no longer looks live: it says voided and why, with no
	// code to enter.
	c, err := approve.FindBatchComment(ctx, founder, "acme", "benefits", 4, hash, "")
	if err != nil || c == nil {
		t.Fatalf("the batch comment is gone (%v)", err)
	}
	if body := c.GetBody(); !strings.Contains(body, "voided: ") || !strings.Contains(body, "moved from "+head[:12]) || strings.Contains(body, "/login/device") {
		t.Errorf("the voided batch's comment still looks live:\n%s", body)
	}
	// A second approve refuses at once, saying why.
	again := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "approve", hash)...)
	if code := again.exit(); code != tui.ExitRefused || !strings.Contains(again.out.String(), "was voided (") {
		t.Errorf("approving the voided batch again: exit %d, want %d saying it was voided:\n%s", code, tui.ExitRefused, again.out.String())
	}
}

// TestAgentShipRefusedNowPostsNoBatch: a pull request ship would refuse
// now (no person's review with a bot identity) posts nothing — no batch,
// no device code, no Ready to ship comment — and says why.
func TestAgentShipRefusedNowPostsNoBatch(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	founder := clientAt(t, url, "founder")
	before, _, err := founder.Issues.ListComments(context.Background(), "acme", "benefits", 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := startAayu(t, botAgent(t), append(agentAt(url), "ship", "4")...)
	code := a.exit()
	if code != tui.ExitRefused || !strings.Contains(a.out.String(), "aayu ship 4 would be refused now, so no batch was posted") {
		t.Fatalf("exit %d, want %d with the refusal:\n%s", code, tui.ExitRefused, a.out.String())
	}
	after, _, err := founder.Issues.ListComments(context.Background(), "acme", "benefits", 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("a refused ship left %d new comments on #4", len(after)-len(before))
	}
}

// TestAgentShipSoloBypassBatchInSoloMode: in the solo demo (no bot
// identity: the agent writes with the founder's token, tagged
// human-fallback) an agent's aayu ship 4 --solo-bypass is a batch whose
// step says the bypass; once the founder approves its code as an admin,
// ship posts the founder's Solo-mode bypass: comment for the pinned head
// and merges, and ship.json records the bypass and the batch.
func TestAgentShipSoloBypassBatchInSoloMode(t *testing.T) {
	t.Parallel()
	srv, url := startSandboxServer(t)
	head := srv.HeadSHA(4)
	a := startAayu(t, soloAgent(t), append(agentAt(url), "ship", "4", "--solo-bypass")...)
	m := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @founder on #4|result: exit`)
	if len(m) < 2 || m[1] == "" {
		t.Fatalf("no batch:\n%s", a.out.String())
	}
	hash := m[1]
	founder := clientAt(t, url, "founder")
	body := batchComment(t, founder, 4, hash).GetBody()
	if !strings.Contains(body, "1. `aayu ship 4 --solo-bypass`: Merges PR #4 (") || !strings.Contains(body, "with your Solo-mode bypass: no review happened") {
		t.Errorf("the batch does not say the bypass:\n%s", body)
	}
	if _, n := prState(t, founder, 4); n != 0 {
		t.Fatalf("a bypass comment was posted before the approval (%d)", n)
	}
	dm := deviceInComment.FindStringSubmatch(body)
	if dm == nil {
		t.Fatalf("no device code in the batch comment:\n%s", body)
	}
	approveOnSandbox(t, dm[1], dm[2], "founder")
	a.waitFor(`Batch ` + hash + ` applied\.|result: exit|Not applied`)
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, a.out.String())
	}
	if merged, n := prState(t, founder, 4); !merged || n != 1 {
		t.Fatalf("#4 merged=%v with %d Solo-mode bypass: comments, want merged with one", merged, n)
	}
	raw, err := ghx.ReadFile(context.Background(), founder, "acme", "benefits", "ledger", "proof/3/"+head+"/authoritative/ship.json")
	if err != nil || !strings.Contains(string(raw), `"kind": "solo-bypass"`) || !strings.Contains(string(raw), `"batch": "`+hash+`"`) {
		t.Fatalf("ship.json does not record the bypass and the batch: %v\n%s", err, raw)
	}
}

// TestBatchVoidedWhenItsDecisionWasEdited: a Decision edited after the
// agent's batch voids the approval: the founder's code applies nothing,
// the ledger closes the batch as voided, its comment says so instead of
// waiting for a code, and approving again refuses at once.
func TestBatchVoidedWhenItsDecisionWasEdited(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	hash, _ := agentBatch(t, url, botAgent(t), `1 human-only step for @founder`, "decide", "1", "--accept", "1")
	is, _, err := founder.Issues.Get(ctx, "acme", "benefits", 1)
	if err != nil {
		t.Fatal(err)
	}
	edited := is.GetBody() + "\n\nOne more option, added after the batch."
	if _, _, err := clientAt(t, url, "writer").Issues.Edit(ctx, "acme", "benefits", 1, &github.IssueRequest{Body: &edited}); err != nil {
		t.Fatal(err)
	}
	a := approveAtTerminal(t, url, hash, "founder")
	if code := a.exit(); code != tui.ExitRefused || !strings.Contains(a.out.String(), "Decision #1 changed since the batch") {
		t.Fatalf("exit %d, want %d naming the edit:\n%s", code, tui.ExitRefused, a.out.String())
	}
	if st := decidedState(t, founder, 1); st != "open/" {
		t.Fatalf("an edited Decision was decided on the old text's approval: #1 is %s", st)
	}
	b, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.AppliedPath(hash))
	var closed approve.Applied
	if err != nil || json.Unmarshal(b, &closed) != nil || !closed.IsVoided() {
		t.Fatalf("the batch's closing record = %s (%v), want outcome voided", b, err)
	}
	c, err := approve.FindBatchComment(ctx, founder, "acme", "benefits", 1, hash, "")
	if err != nil || c == nil {
		t.Fatalf("the batch comment is gone (%v)", err)
	}
	if body := c.GetBody(); !strings.Contains(body, "voided: Decision #1 changed since the batch") || strings.Contains(body, "aayu approve "+hash+"` at your own terminal") {
		t.Errorf("the voided batch's comment still looks live:\n%s", body)
	}
	again := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "approve", hash)...)
	if code := again.exit(); code != tui.ExitRefused || !strings.Contains(again.out.String(), "was voided (") {
		t.Errorf("approving the voided batch again: exit %d, want %d saying it was voided:\n%s", code, tui.ExitRefused, again.out.String())
	}
}
