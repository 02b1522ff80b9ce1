package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

var agentAt = func(url string) []string {
	return []string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}
}

// agentPlanBatch makes a Story whose plan touches the never layer L04 on
// the bot-identity sandbox at url and runs an agent lane's aayu plan on
// it (the bot's token only); it returns the Story, the batch's hash, the
// batch comment and the agent's output.
func agentPlanBatch(t *testing.T, url string) (int, string, *github.IssueComment, string) {
	t.Helper()
	founder := clientAt(t, url, "founder")
	labels := []string{"type:story", "status:building"}
	is, _, err := founder.Issues.Create(context.Background(), "acme", "benefits", &github.IssueRequest{Title: github.String("Story: dental cap"),
		Body: github.String(policyPlanBody), Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	story := is.GetNumber()
	vars := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot"}
	code, out, errOut := runAayuEnv(t, vars, append(agentAt(url), "plan", itoa(story))...)
	m := regexp.MustCompile(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @agent-bot\[bot\] on #` + itoa(story)).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("the agent's plan exited %d:\n%s%s", code, out, errOut)
	}
	batch, err := approve.FindBatchComment(context.Background(), founder, "acme", "benefits", story, m[1], sandbox.BotLogin)
	if err != nil || batch == nil {
		t.Fatalf("no batch comment by the bot: %v", err)
	}
	if !strings.Contains(batch.GetBody(), "1. `aayu plan "+itoa(story)+"`: Records your review of the plan of Story #"+itoa(story)+" (never layers L04) on the ledger") {
		t.Errorf("the batch does not say what approving records:\n%s", batch.GetBody())
	}
	return story, m[1], batch, out
}

// planRecordOf reads specs/N/plan-review.json, nil when there is none.
func planRecordOf(t *testing.T, c *github.Client, story int) *pass.PlanRecord {
	t.Helper()
	b, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", "ledger", pass.PlanRecordPath(story))
	if ghx.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	rec, err := pass.ParsePlanRecord(b)
	if err != nil {
		t.Fatalf("%s does not read: %v\n%s", pass.PlanRecordPath(story), err, b)
	}
	return &rec
}

// TestAgentPlanBatchRefusedByDeviceCodeInAnAgentLane: a plan step's batch
// asks no device code of its own (the waiting agent could not write the
// review as the person), and says the person runs aayu approve HASH at
// their own terminal. aayu approve HASH run in an agent lane is refused
// with the reason and the next step, before any code is asked for (a code
// writes nothing as the person; approve.Apply refuses the same,
// TestApplyRefusesAPlanStepOnADeviceCodeWithoutTheOwnToken), and no plan
// review is written as the bot.
func TestAgentPlanBatchRefusedByDeviceCodeInAnAgentLane(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	story, hash, batch, out := agentPlanBatch(t, url)
	if deviceInComment.MatchString(batch.GetBody()) || !strings.Contains(batch.GetBody(), "run `aayu approve "+hash+"` at your own terminal") {
		t.Errorf("a plan batch should carry no code and name aayu approve at the person's terminal:\n%s", batch.GetBody())
	}
	if !strings.Contains(out, "It waits for @founder to run aayu approve "+hash+" at their own terminal") {
		t.Errorf("the agent's output does not say who applies it and how:\n%s", out)
	}
	vars := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot"}
	code, out, errOut := runAayuEnv(t, vars, append(agentAt(url), "approve", hash)...)
	if code != tui.ExitRefused {
		t.Fatalf("exit %d, want %d:\n%s%s", code, tui.ExitRefused, out, errOut)
	}
	for _, want := range []string{"A plan review counts only as a comment in @founder's own name", "Reply `Approve batch " + hash + "`",
		"run aayu approve " + hash + " at your own terminal", "No device code was asked for."} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, out)
		}
	}
	founder := clientAt(t, url, "founder")
	for _, c := range decideComments(t, founder, story) {
		if deviceInComment.MatchString(c) {
			t.Errorf("a device code was posted for a plan batch it could not apply: %q", c)
		}
	}
	if rec := planRecordOf(t, founder, story); rec != nil {
		t.Fatalf("a plan review was written on the device code in an agent lane: %+v", rec)
	}
	for _, c := range decideComments(t, founder, story) {
		if strings.Contains(c, ": "+pass.PlanReviewedPrefix) {
			t.Errorf("a Plan reviewed: comment was written as the bot: %q", c)
		}
	}
}

// TestAgentPlanBatchAppliedByAayuApproveAtTheFoundersTerminal: aayu
// approve HASH run with the founder's own token posts the founder's usual
// `Plan reviewed:` comment, naming the batch, and lands the record on it.
func TestAgentPlanBatchAppliedByAayuApproveAtTheFoundersTerminal(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	story, hash, _, _ := agentPlanBatch(t, url)
	a := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "approve", hash)...)
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`Batch ` + hash + ` applied\.|result: exit|Not applied`)
	if c := a.exit(); c != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", c, a.out.String())
	}
	founder := clientAt(t, url, "founder")
	rec := planRecordOf(t, founder, story)
	if rec == nil || rec.Kind != pass.PlanKindReview || rec.Reviewer != "founder" || len(rec.Layers) != 1 || rec.Layers[0] != "L04" {
		t.Fatalf("no review by founder of L04 on the ledger: %+v", rec)
	}
	cs, _, err := founder.Issues.ListComments(context.Background(), "acme", "benefits", story, nil)
	if err != nil {
		t.Fatal(err)
	}
	var reviewed *github.IssueComment
	for _, c := range cs {
		if c.GetHTMLURL() == rec.CommentURL {
			reviewed = c
		}
	}
	if reviewed == nil || reviewed.GetUser().GetLogin() != "founder" || !strings.HasPrefix(reviewed.GetBody(), pass.PlanReviewedPrefix) || !strings.Contains(reviewed.GetBody(), "approving batch "+hash) {
		t.Fatalf("the record does not stand on the founder's own Plan reviewed: comment naming the batch: %+v", reviewed)
	}
}

// TestAgentPlanBatchAppliedByTheFoundersReply: with replies on (the App,
// the workflow, founder an approver), the founder's reply `Approve batch
// HASH` is the review: approve --ci records specs/N/plan-review.json with
// comment_url = the reply, and posts no comment in the founder's name.
func TestAgentPlanBatchAppliedByTheFoundersReply(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	founder := clientAt(t, url, "founder")
	approveByReply(t, founder)
	story, hash, batch, out := agentPlanBatch(t, url)
	if !strings.Contains(out, `It waits for @founder's reply "Approve batch `+hash+`"`) || !strings.Contains(batch.GetBody(), "Your reply is your review of the plan") {
		t.Fatalf("a plan batch with replies on should ask for the reply:\n%s\n%s", out, batch.GetBody())
	}
	f := reply(t, founder, story, "Approve batch "+hash)
	code, out, errOut := approveReplyRun(t, url, story, f.GetID())
	if code != tui.ExitOK || !strings.Contains(out, "Batch "+hash+" applied.") {
		t.Fatalf("the founder's reply exited %d:\n%s%s", code, out, errOut)
	}
	rec := planRecordOf(t, founder, story)
	if rec == nil || rec.Kind != pass.PlanKindReview || rec.Reviewer != "founder" || rec.CommentURL != f.GetHTMLURL() {
		t.Fatalf("the record does not stand on the founder's reply %s: %+v", f.GetHTMLURL(), rec)
	}
	for _, c := range decideComments(t, founder, story) {
		if strings.Contains(c, ": "+pass.PlanReviewedPrefix) {
			t.Errorf("a Plan reviewed: comment was posted on the reply path: %q", c)
		}
	}
}

// TestAgentPlanBypassBatchAppliedAtTheFoundersTerminalInSoloMode: in the
// solo demo an agent's aayu plan N --solo-bypass is a batch (posted with
// the founder's token, tagged human-fallback) that asks no code of its
// own; aayu approve HASH at the founder's terminal posts the founder's
// Solo-mode bypass: comment naming the batch and lands the bypass record
// with approved_by empty.
func TestAgentPlanBypassBatchAppliedAtTheFoundersTerminalInSoloMode(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	founder := clientAt(t, url, "founder")
	labels := []string{"type:story", "status:building"}
	is, _, err := founder.Issues.Create(context.Background(), "acme", "benefits", &github.IssueRequest{Title: github.String("Story: dental cap"),
		Body: github.String(policyPlanBody), Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	story := is.GetNumber()
	agent := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	code, out, errOut := runAayuEnv(t, agent, append(agentAt(url), "plan", itoa(story), "--solo-bypass")...)
	m := regexp.MustCompile(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @founder on #` + itoa(story)).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil || !strings.Contains(out, "at their own terminal") {
		t.Fatalf("the agent's plan --solo-bypass exited %d:\n%s%s", code, out, errOut)
	}
	hash := m[1]
	a := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "approve", hash)...)
	d := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, d[1], d[2], "founder")
	a.waitFor(`Batch ` + hash + ` applied\.|result: exit|Not applied`)
	if c := a.exit(); c != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", c, a.out.String())
	}
	rec := planRecordOf(t, founder, story)
	if rec == nil || rec.Kind != pass.KindSoloBypass || rec.ApprovedBy != "" || rec.RecordedBy != "founder" {
		t.Fatalf("no solo-mode bypass recorded by founder: %+v", rec)
	}
	found := false
	for _, c := range decideComments(t, founder, story) {
		found = found || strings.HasPrefix(c, "@founder: Solo-mode bypass:") && strings.Contains(c, "approving batch "+hash)
	}
	if !found {
		t.Errorf("no Solo-mode bypass: comment by the founder naming the batch: %q", decideComments(t, founder, story))
	}
}
