package e2e

import (
	"context"
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

// newPlanStory makes a Story whose plan touches the never layer L04 on
// the sandbox at url and returns its number.
func newPlanStory(t *testing.T, url string) int {
	t.Helper()
	labels := []string{"type:story", "status:building"}
	is, _, err := clientAt(t, url, "founder").Issues.Create(context.Background(), "acme", "benefits", &github.IssueRequest{Title: github.String("Story: dental cap"),
		Body: github.String(policyPlanBody), Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	return is.GetNumber()
}

// agentPlanBatch makes a plan Story on the bot-identity sandbox at url and
// runs an agent lane's aayu plan on it (the bot's token only); it returns
// the Story, the batch's hash, the batch comment and the agent's output.
func agentPlanBatch(t *testing.T, url string) (int, string, *github.IssueComment, string) {
	t.Helper()
	story := newPlanStory(t, url)
	hash, out := agentBatch(t, url, botAgent(t), `1 human-only step for @founder, posted as @agent-bot\[bot\] on #`+itoa(story), "plan", itoa(story))
	batch, err := approve.FindBatchComment(context.Background(), clientAt(t, url, "founder"), "acme", "benefits", story, hash, sandbox.BotLogin)
	if err != nil || batch == nil {
		t.Fatalf("no batch comment by the bot: %v", err)
	}
	if !strings.Contains(batch.GetBody(), "1. `aayu plan "+itoa(story)+"`: Records your review of the plan of Story #"+itoa(story)+" (never layers L04) on the ledger") {
		t.Errorf("the batch does not say what approving records:\n%s", batch.GetBody())
	}
	return story, hash, batch, out
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
	code, out, errOut := runAayuEnv(t, botAgent(t), append(agentAt(url), "approve", hash)...)
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

// TestAgentPlanBatchApplied: an agent's aayu plan N is a batch that asks
// no device code of its own; the founder applies it, and the record lands
// on the ledger standing on a comment in the founder's own name.
//
//   - ByAayuApproveAtTheFoundersTerminal: aayu approve HASH run with the
//     founder's own token posts the founder's usual `Plan reviewed:`
//     comment, naming the batch, and lands the record on it.
//   - ByTheFoundersReply: with replies on (the App, the workflow, founder an
//     approver), the founder's reply `Approve batch HASH` is the review:
//     approve --ci records specs/N/plan-review.json with comment_url = the
//     reply, and posts no comment in the founder's name.
//   - BypassAtTheFoundersTerminalInSoloMode: in the solo demo an agent's
//     aayu plan N --solo-bypass is a batch (posted with the founder's
//     token, tagged human-fallback); aayu approve HASH at the founder's
//     terminal posts the founder's Solo-mode bypass: comment naming the
//     batch and lands the bypass record with approved_by empty.
func TestAgentPlanBatchApplied(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		solo bool // the solo demo: no bot identity, the agent holds the founder's token
		// byReply: replies are on and the founder replies; otherwise the
		// founder runs aayu approve HASH at their terminal.
		byReply bool
		// check reads what landed: the record, and the comments on the Story.
		check func(t *testing.T, rec *pass.PlanRecord, comments []*github.IssueComment, hash, replyURL string)
	}{
		{"ByAayuApproveAtTheFoundersTerminal", false, false, func(t *testing.T, rec *pass.PlanRecord, cs []*github.IssueComment, hash, _ string) {
			if rec == nil || rec.Kind != pass.PlanKindReview || rec.Reviewer != "founder" || len(rec.Layers) != 1 || rec.Layers[0] != "L04" {
				t.Fatalf("no review by founder of L04 on the ledger: %+v", rec)
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
		}},
		{"ByTheFoundersReply", false, true, func(t *testing.T, rec *pass.PlanRecord, cs []*github.IssueComment, _, replyURL string) {
			if rec == nil || rec.Kind != pass.PlanKindReview || rec.Reviewer != "founder" || rec.CommentURL != replyURL {
				t.Fatalf("the record does not stand on the founder's reply %s: %+v", replyURL, rec)
			}
			for _, c := range cs {
				if strings.HasPrefix(c.GetBody(), pass.PlanReviewedPrefix) {
					t.Errorf("a Plan reviewed: comment was posted on the reply path: %q", c.GetBody())
				}
			}
		}},
		{"BypassAtTheFoundersTerminalInSoloMode", true, false, func(t *testing.T, rec *pass.PlanRecord, cs []*github.IssueComment, hash, _ string) {
			if rec == nil || rec.Kind != pass.KindSoloBypass || rec.ApprovedBy != "" || rec.RecordedBy != "founder" {
				t.Fatalf("no solo-mode bypass recorded by founder: %+v", rec)
			}
			found := false
			for _, c := range cs {
				found = found || c.GetUser().GetLogin() == "founder" && strings.HasPrefix(c.GetBody(), "Solo-mode bypass:") && strings.Contains(c.GetBody(), "approving batch "+hash)
			}
			if !found {
				t.Errorf("no Solo-mode bypass: comment by the founder naming the batch")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var story int
			var hash, replyURL string
			var url string
			switch {
			case c.solo:
				_, url = startSandboxServer(t)
				story = newPlanStory(t, url)
				var out string
				hash, out = agentBatch(t, url, soloAgent(t), `1 human-only step for @founder, posted as @founder on #`+itoa(story), "plan", itoa(story), "--solo-bypass")
				if !strings.Contains(out, "at their own terminal") {
					t.Fatalf("the agent's plan --solo-bypass does not name the person's terminal:\n%s", out)
				}
			case c.byReply:
				_, url = startBotSandbox(t)
				approveByReply(t, clientAt(t, url, "founder"))
				var batch *github.IssueComment
				var out string
				story, hash, batch, out = agentPlanBatch(t, url)
				if !strings.Contains(out, `It waits for @founder's reply "Approve batch `+hash+`"`) || !strings.Contains(batch.GetBody(), "Your reply is your review of the plan") {
					t.Fatalf("a plan batch with replies on should ask for the reply:\n%s\n%s", out, batch.GetBody())
				}
			default:
				_, url = startBotSandbox(t)
				story, hash, _, _ = agentPlanBatch(t, url)
			}
			founder := clientAt(t, url, "founder")
			if c.byReply {
				f := reply(t, founder, story, "Approve batch "+hash)
				replyURL = f.GetHTMLURL()
				if code, out, errOut := approveReplyRun(t, url, story, f.GetID()); code != tui.ExitOK || !strings.Contains(out, "Batch "+hash+" applied.") {
					t.Fatalf("the founder's reply exited %d:\n%s%s", code, out, errOut)
				}
			} else {
				a := approveAtTerminal(t, url, hash, "founder")
				if code := a.exit(); code != tui.ExitOK {
					t.Fatalf("exit %d, want 0:\n%s", code, a.out.String())
				}
			}
			cs, _, err := founder.Issues.ListComments(context.Background(), "acme", "benefits", story, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, planRecordOf(t, founder, story), cs, hash, replyURL)
		})
	}
}
