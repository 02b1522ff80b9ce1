package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// startBotSandbox is the demo with the bot identity (agent-bot[bot] as the
// App) on a sandbox a test can look inside.
func startBotSandbox(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return sandboxWith(t, sandbox.Options{StateDir: t.TempDir(), BotIdentity: true, Device: &sandbox.DeviceOptions{Interval: 0, Expiry: 5 * 60e9}})
}

func clientAt(t *testing.T, url, login string) *github.Client {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// approveByReply lands [approvals] approvers = ["founder"] (and any more
// settings of that table) on the demo's default branch, as the founder's
// reviewed change would: replies from @founder may then approve batches.
func approveByReply(t *testing.T, founder *github.Client, more ...string) {
	t.Helper()
	ctx := context.Background()
	cfg, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "main", ".aayudha/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, []byte("\n[approvals]\napprovers = [\"founder\"]\n"+strings.Join(append(more, ""), "\n"))...)
	if _, err := ghx.CommitFiles(ctx, founder, "acme", "benefits", "main", map[string][]byte{".aayudha/config.toml": cfg}, "approvals: founder approves by reply", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
}

var deviceInComment = regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/login/device) and enter \*\*([A-Z0-9]{4}-[A-Z0-9]{4})\*\*`)

// TestAgentDecideBatchApprovedByDeviceCode: a host agent's lane with only
// the bot's token runs aayu decide 1,2 --accept 1,1; it is not refused but
// posts one batch comment on #1 as the bot, in the seed's words, and its
// record on the ledger, and returns at once: the bot's token cannot ask
// for a code that proves the person, so the comment names aayu approve
// HASH and carries no code. The founder runs it at their terminal and
// approves its code: both Decisions are accepted in the founder's name,
// once, written with the founder's own token; aayu approve HASH afterwards
// says it was already applied. Neither
// the bot's token nor the code reaches the output or the ledger's record.
func TestAgentDecideBatchApprovedByDeviceCode(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	a := startAayu(t, botAgent(t), append(agentAt(url), "decide", "1,2", "--accept", "1,1")...)
	m := a.waitFor(`Batch ([0-9a-f]{12}): 2 human-only steps for @founder, posted as @agent-bot\[bot\] on #1`)
	hash := m[1]
	a.waitFor(`It waits for @founder to run aayu approve ` + hash + ` at their own terminal`)
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("the agent's decide exited %d:\n%s", code, a.out.String())
	}

	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	batch := batchComment(t, founder, 1, hash)
	if batch.GetUser().GetLogin() != sandbox.BotLogin {
		t.Fatalf("no batch comment by the bot on #1: %+v", batch)
	}
	body := batch.GetBody()
	if !strings.HasPrefix(body, "@founder 2 human-only steps wait for your approval (batch "+hash+").\n") {
		t.Errorf("the batch's first line is not the seed's:\n%s", body)
	}
	for _, want := range []string{"1. Accepts option 1 (", "of Decision #1:", "2. Accepts option 1 (", "of Decision #2:", "One-way door", "Options: 1. ", "Recommendation: "} {
		if !strings.Contains(body, want) {
			t.Errorf("the batch lacks %q:\n%s", want, body)
		}
	}
	if deviceInComment.MatchString(body) || !strings.Contains(body, "run `aayu approve "+hash+"` at your own terminal") {
		t.Fatalf("the bot's batch carries a code, or does not name aayu approve:\n%s", body)
	}
	p := approveAtTerminal(t, url, hash, "founder")
	if code := p.exit(); code != tui.ExitOK || !strings.Contains(p.out.String(), "Batch "+hash+" applied.") {
		t.Fatalf("the founder's approve exited %d:\n%s", code, p.out.String())
	}
	dm := regexp.MustCompile(deviceCodeLine).FindStringSubmatch(p.out.String())
	for _, n := range []int{1, 2} {
		is, _, err := founder.Issues.Get(ctx, "acme", "benefits", n)
		if err != nil {
			t.Fatal(err)
		}
		if is.GetState() != "closed" {
			t.Errorf("Decision #%d is %s, want closed", n, is.GetState())
		}
		accepted := 0
		for _, c := range decideComments(t, founder, n) {
			if strings.HasPrefix(c, "@founder: Accepted option 1 (") && strings.HasSuffix(c, "by @founder") {
				accepted++
			}
		}
		if accepted != 1 {
			t.Errorf("Decision #%d has %d acceptance comments by the founder, want 1: %q", n, accepted, decideComments(t, founder, n))
		}
	}
	rec, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.Path(hash))
	if err != nil {
		t.Fatalf("no batch record on the ledger: %v", err)
	}
	applied, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "ledger", approve.AppliedPath(hash))
	if err != nil || !strings.Contains(string(applied), `"by": "founder"`) {
		t.Fatalf("no applied record naming founder: %v %s", err, applied)
	}
	for _, secret := range []string{dm[2], "sandbox-agent-bot", "sandbox-founder"} {
		for name, text := range map[string]string{"output": a.out.String(), "comment": body, "batch record": string(rec), "applied record": string(applied)} {
			if strings.Contains(text, secret) {
				t.Errorf("%q reached the %s", secret, name)
			}
		}
	}

	approvedAlready(t, url, hash) // applied once: a second approve writes nothing and says so
}

// approveReplyRun runs aayu approve --ci as aayudha-approve.yml's step does
// for a new comment: an issue_comment run holding the App's token.
func approveReplyRun(t *testing.T, url string, issue int, commentID int64) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, []byte(fmt.Sprintf(`{"comment":{"id":%d},"issue":{"number":%d}}`, commentID, issue)), 0o600); err != nil {
		t.Fatal(err)
	}
	return runAayuEnv(t, map[string]string{"HOME": dir, "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "issue_comment",
		"GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "acme/benefits", "AAYU_BOT_TOKEN": "sandbox-agent-bot"},
		"--api-url", url+"/", "--oauth-url", url, "--ci", "approve")
}

func reply(t *testing.T, c *github.Client, issue int, body string) *github.IssueComment {
	t.Helper()
	cm, _, err := c.Issues.CreateComment(context.Background(), "acme", "benefits", issue, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// TestAgentDecideBatchApprovedByReply: with the approve workflow on the
// default branch, the App configured, founder in [approvals] approvers and
// device_for = [], the agent's batch asks for a reply. A writer's reply is
// refused on the thread with the reason and the next step, and applies
// nothing; the founder's reply "Approve batch HASH" is applied (both
// Decisions accepted, once); the same reply run again is refused as no
// longer open.
func TestAgentDecideBatchApprovedByReply(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	ctx := context.Background()
	founder := clientAt(t, url, "founder")
	approveByReply(t, founder, "device_for = []")
	hash, out := agentBatch(t, url, botAgent(t), `2 human-only steps for @founder, posted as @agent-bot\[bot\] on #1`, "decide", "1,2", "--accept", "1,1")
	if !strings.Contains(out, `It waits for @founder's reply "Approve batch `+hash+`"`) {
		t.Fatalf("the agent's decide does not say it waits for the reply:\n%s", out)
	}
	batch, err := approve.FindBatchComment(ctx, founder, "acme", "benefits", 1, hash, sandbox.BotLogin)
	if err != nil || batch == nil {
		t.Fatalf("no batch comment: %v", err)
	}
	if deviceInComment.MatchString(batch.GetBody()) || !strings.Contains(batch.GetBody(), "`Approve batch "+hash+"`") {
		t.Fatalf("a reply batch should say how to reply and carry no code:\n%s", batch.GetBody())
	}

	// A writer is no approver: refused on the thread, nothing applied.
	w := reply(t, clientAt(t, url, "writer"), 1, "Approve batch "+hash)
	code, out, errOut := approveReplyRun(t, url, 1, w.GetID())
	if code != tui.ExitRefused || !strings.Contains(out, "not in [approvals] approvers") {
		t.Fatalf("a writer's reply exited %d:\n%s%s", code, out, errOut)
	}
	answered := false
	for _, c := range decideComments(t, founder, 1) {
		answered = answered || strings.HasPrefix(c, "@"+sandbox.BotLogin+": @writer batch "+hash+" was not applied: ") && strings.Contains(c, "Next: ")
	}
	if !answered {
		t.Errorf("the refusal was not answered on the thread: %q", decideComments(t, founder, 1))
	}
	if st := decidedState(t, founder, 1); st != "open/" {
		t.Fatalf("#1 is %s after a refused reply", st)
	}

	// The founder's reply applies it.
	f := reply(t, founder, 1, "Approve batch "+hash)
	code, out, errOut = approveReplyRun(t, url, 1, f.GetID())
	if code != tui.ExitOK || !strings.Contains(out, "Batch "+hash+" applied.") {
		t.Fatalf("the founder's reply exited %d:\n%s%s", code, out, errOut)
	}
	for _, n := range []int{1, 2} {
		if st := decidedState(t, founder, n); st != "closed/completed" {
			t.Errorf("Decision #%d is %s after the founder's reply", n, st)
		}
	}
	code, out, _ = approveReplyRun(t, url, 1, f.GetID())
	if code != tui.ExitRefused || !strings.Contains(out, "no longer open") {
		t.Fatalf("the same reply again exited %d:\n%s", code, out)
	}
	for _, c := range append(decideComments(t, founder, 1), out, errOut) {
		if strings.Contains(c, "sandbox-agent-bot") || strings.Contains(c, "sandbox-founder") {
			t.Errorf("a token reached a comment or the output: %q", c)
		}
	}
}

// TestApproveWorkflowRunsOnTheFoundersReply: with aayudha-approve.yml on the
// default branch (the demo carries it), the App configured and founder an
// approver, the founder's reply "Approve batch HASH" under the agent's
// batch makes the sandbox's runner run the workflow as an issue_comment
// run: aayu approve --ci applies the batch (both Decisions accepted as
// @founder, written by the App) and says so on the thread.
func TestApproveWorkflowRunsOnTheFoundersReply(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the approve workflow")
	}
	_, url, logs := runnerSandbox(t, sandbox.Options{BotIdentity: true})
	ctx := context.Background()
	founder := clientAt(t, url, "founder")
	approveByReply(t, founder, "device_for = []")
	hash, _ := agentBatch(t, url, botAgent(t), `2 human-only steps`, "decide", "1,2", "--accept", "1,1")
	reply(t, founder, 1, "Approve batch "+hash)
	deadline := time.Now().Add(e2eWait)
	for decidedState(t, founder, 2) != "closed/completed" {
		if time.Now().After(deadline) {
			t.Fatalf("the runner never applied the batch; its log:\n%s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if st := decidedState(t, founder, 1); st != "closed/completed" {
		t.Errorf("#1 is %s", st)
	}
	// The run ends once its answer is posted; the answer starts no run.
	var runs *github.WorkflowRuns
	var err error
	for {
		runs, _, err = founder.Actions.ListRepositoryWorkflowRuns(ctx, "acme", "benefits", &github.ListWorkflowRunsOptions{Event: "issue_comment"})
		if err != nil {
			t.Fatal(err)
		}
		if runs.GetTotalCount() == 1 && runs.WorkflowRuns[0].GetStatus() == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d issue_comment runs, want 1 completed; log:\n%s", runs.GetTotalCount(), logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if c := runs.WorkflowRuns[0].GetConclusion(); c != "success" {
		t.Errorf("the approve run concluded %s; log:\n%s", c, logs.String())
	}
	time.Sleep(time.Second) // a comment the answer might have started would show by now
	if runs, _, _ = founder.Actions.ListRepositoryWorkflowRuns(ctx, "acme", "benefits", &github.ListWorkflowRunsOptions{Event: "issue_comment"}); runs.GetTotalCount() != 1 {
		t.Errorf("%d issue_comment runs after the answer, want 1", runs.GetTotalCount())
	}
	said := false
	for _, c := range decideComments(t, founder, 1) {
		said = said || strings.HasPrefix(c, "@"+sandbox.BotLogin+": Batch "+hash+" applied on @founder's reply")
	}
	if !said {
		t.Errorf("the thread does not say the batch was applied: %q", decideComments(t, founder, 1))
	}
}

// TestBatchDeviceCodeApprovedByTheWrongAccountAppliesNothing: the agent's
// batch waits for @founder; aayu approve HASH's code approved by the
// writer (no approver) or by the bot applies nothing and leaves the batch
// open; aayu approve HASH, run again by the founder with a fresh code,
// applies it.
func TestBatchDeviceCodeApprovedByTheWrongAccountAppliesNothing(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	founder := clientAt(t, url, "founder")
	hash, _ := agentBatch(t, url, botAgent(t), `1 human-only step for @founder`, "decide", "1", "--accept", "1")
	for _, wrong := range []string{"writer", "agent-bot"} {
		a := approveAtTerminal(t, url, hash, wrong)
		if code := a.exit(); code != tui.ExitRefused || !strings.Contains(a.out.String(), "Not applied") {
			t.Fatalf("approved by @%s: exit %d:\n%s", wrong, code, a.out.String())
		}
		if st := decidedState(t, founder, 1); st != "open/" {
			t.Fatalf("approved by @%s, #1 is %s", wrong, st)
		}
	}
	// The founder, later, at a terminal: a fresh code for the same batch.
	b := approveAtTerminal(t, url, hash, "founder")
	if code := b.exit(); code != tui.ExitOK {
		t.Fatalf("the founder's approve exited %d:\n%s", code, b.out.String())
	}
	if st := decidedState(t, founder, 1); st != "closed/completed" {
		t.Errorf("#1 is %s after the founder's approval", st)
	}
}

// approveAtTerminal runs aayu approve HASH with the founder's own token, as
// at their terminal, and approves the code it shows as login (none when
// it says the batch was applied already); the caller reads its end.
func approveAtTerminal(t *testing.T, url, hash, login string) *liveAayu {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "approve", hash)...)
	m := a.waitFor(deviceCodeLine + `|was already`)
	if m[1] != "" {
		approveOnSandbox(t, m[1], m[2], login)
	}
	a.waitFor(`Batch ` + hash + ` applied\.|Not applied|was already|result: exit`)
	return a
}

// botAgent is a host agent's lane holding only the bot's token.
func botAgent(t *testing.T) map[string]string {
	return map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot"}
}

// agentBatch runs an agent lane's human-only step against the sandbox at
// url, which posts its batch and ends at once, exit 0, printing
// "Batch HASH: " then line (a regular expression); it returns the hash
// and what the agent printed.
func agentBatch(t *testing.T, url string, vars map[string]string, line string, args ...string) (string, string) {
	t.Helper()
	code, out, errOut := runAayuEnv(t, vars, append(agentAt(url), args...)...)
	m := regexp.MustCompile(`Batch ([0-9a-f]{12}): ` + line).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("the agent's aayu %v exited %d, want 0 and a batch %q:\n%s%s", args, code, line, out, errOut)
	}
	return m[1], out
}

// approvedAlready runs aayu approve HASH again with the founder's own
// token: the batch was applied, so it says by whom, exit 0, and writes
// nothing.
func approvedAlready(t *testing.T, url, hash string) {
	t.Helper()
	b := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "approve", hash)...)
	b.waitFor(`Batch ` + hash + ` was already applied by @founder`)
	if code := b.exit(); code != tui.ExitOK {
		t.Fatalf("a second approve exited %d:\n%s", code, b.out.String())
	}
}
