package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// answerOn waits until issue n holds a comment by the aayudha App that
// starts with prefix, and returns it; it fails with the runner's log.
func answerOn(t *testing.T, c *github.Client, n int, author, prefix string, logs *lockedBuffer) string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		for _, body := range decideComments(t, c, n) {
			if strings.HasPrefix(body, "@"+author+": "+prefix) {
				return body
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer by @%s starting %q on #%d: %q\nrunner log:\n%s", author, prefix, n, decideComments(t, c, n), logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// runsDone waits until n issue_comment runs exist and every one has
// completed (the runner writes the state folder until then), and returns
// their conclusions.
func runsDone(t *testing.T, c *github.Client, n int, logs *lockedBuffer) []string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		runs, _, err := c.Actions.ListRepositoryWorkflowRuns(context.Background(), "acme", "benefits", &github.ListWorkflowRunsOptions{Event: "issue_comment"})
		if err != nil {
			t.Fatal(err)
		}
		var done []string
		for _, r := range runs.WorkflowRuns {
			if r.GetStatus() == "completed" {
				done = append(done, r.GetConclusion())
			}
		}
		if runs.GetTotalCount() == n && len(done) == n {
			return done
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d issue_comment runs, %d completed, want %d; log:\n%s", runs.GetTotalCount(), len(done), n, logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestReplyOnTheDemoIsAppliedWithTheMintedAppToken: the demo with a bot
// identity carries the aayudha App, installed as GitHub installs it (its
// client ID in AAYUDHA_APP_CLIENT_ID, its key in AAYUDHA_APP_PRIVATE_KEY).
// The founder's reply "Approve batch HASH" runs aayudha-approve.yml, whose
// create-github-app-token step mints a real installation token through
// the sandbox's API (a JWT, the installation, its access token); aayu
// approve --ci applies the batch with it, answers on the thread as the
// App, and edits the batch comment to say it was applied, with no
// live-looking instruction left.
func TestReplyOnTheDemoIsAppliedWithTheMintedAppToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the approve workflow")
	}
	srv, url, logs := runnerSandbox(t, sandbox.Options{BotIdentity: true})
	founder := clientAt(t, url, "founder")
	approveByReply(t, founder, "device_for = []")
	hash, _ := agentBatch(t, url, botAgent(t), `2 human-only steps`, "decide", "1,2", "--accept", "1,1")
	minted := srv.InstallationTokensMinted()
	reply(t, founder, 1, "Approve batch "+hash)
	answerOn(t, founder, 1, sandbox.BotLogin, "Batch "+hash+" applied on @founder's reply", logs)
	if got := runsDone(t, founder, 1, logs); got[0] != "success" {
		t.Errorf("the approve run concluded %s; log:\n%s", got[0], logs.String())
	}
	for _, n := range []int{1, 2} {
		if st := decidedState(t, founder, n); st != "closed/completed" {
			t.Errorf("#%d is %s after the applied reply", n, st)
		}
	}
	if got := srv.InstallationTokensMinted(); got != minted+1 {
		t.Errorf("%d installation tokens minted for the reply, want 1: the workflow did not mint the App's token", got-minted)
	}
	body := batchComment(t, founder, 1, hash).GetBody()
	if !strings.HasPrefix(body, "Batch "+hash+": applied on @founder's approval (reply)") {
		t.Errorf("the batch comment does not say it was applied:\n%s", body)
	}
	for _, live := range []string{"wait for your approval", "`Approve batch " + hash + "`"} {
		if strings.Contains(body, live) {
			t.Errorf("the applied batch comment still says %q:\n%s", live, body)
		}
	}
}

// TestRefusedRepliesAreAnsweredOnTheThread: every refused reply gets an
// answer on its thread, by the App, with the reason and the next step: a
// reply by an approver without write access (the reader), and a reply to a
// batch the App did not post (the writer's copy of the batch comment, on
// another issue), and a reply under a batch comment edited after it was
// posted, which also marks the batch comment void. Nothing is applied.
func TestRefusedRepliesAreAnsweredOnTheThread(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the approve workflow")
	}
	_, url, logs := runnerSandbox(t, sandbox.Options{BotIdentity: true})
	ctx := context.Background()
	founder := clientAt(t, url, "founder")
	cfg, err := ghx.ReadFile(ctx, founder, "acme", "benefits", "main", ".aayudha/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, []byte("\n[approvals]\napprovers = [\"founder\", \"reader\"]\ndevice_for = []\n")...)
	if _, err := ghx.CommitFiles(ctx, founder, "acme", "benefits", "main", map[string][]byte{".aayudha/config.toml": cfg}, "approvals: founder and reader", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	hash, _ := agentBatch(t, url, botAgent(t), `1 human-only step`, "decide", "1", "--accept", "1")

	reply(t, clientAt(t, url, "reader"), 1, "Approve batch "+hash)
	got := answerOn(t, founder, 1, sandbox.BotLogin, "@reader batch "+hash+" was not applied: ", logs)
	for _, want := range []string{"@reader has no write access to this repository.", "Next: A person with write access replies instead."} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer to the reader lacks %q:\n%s", want, got)
		}
	}

	// The writer copies the batch comment onto #2; the founder's reply
	// there names a batch the App did not post on that thread.
	shown := batchComment(t, founder, 1, hash).GetBody()
	reply(t, clientAt(t, url, "writer"), 2, shown)
	reply(t, founder, 2, "Approve batch "+hash)
	got = answerOn(t, founder, 2, sandbox.BotLogin, "@founder batch "+hash+" was not applied: ", logs)
	for _, want := range []string{"Batch " + hash + " was posted by @writer, not by the aayudha App @" + sandbox.BotLogin + ".", "Next: Ask the agent to start the steps again as the App."} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer to a batch the App did not post lacks %q:\n%s", want, got)
		}
	}
	// The writer edits the App's batch comment on #1: the founder's reply
	// there is refused as edited, and the batch comment is marked void,
	// so nothing in it looks live any more.
	editComment(t, clientAt(t, url, "writer"), batchComment(t, founder, 1, hash).GetID(), strings.Replace(shown, "Accepts option 1 (", "Accepts option 2 (", 1))
	reply(t, founder, 1, "Approve batch "+hash)
	got = answerOn(t, founder, 1, sandbox.BotLogin, "@founder batch "+hash+" was not applied: ", logs)
	if !strings.Contains(got, "edited") {
		t.Errorf("the answer to a reply under an edited batch does not say it was edited:\n%s", got)
	}
	runsDone(t, founder, 3, logs)
	voided := batchComment(t, founder, 1, hash).GetBody()
	if !strings.HasPrefix(voided, "Batch "+hash+": "+approve.VoidedChanged) {
		t.Errorf("the edited batch's comment is not marked void:\n%s", voided)
	}
	for _, live := range []string{"wait for your approval", "`Approve batch " + hash + "`"} {
		if strings.Contains(voided, live) {
			t.Errorf("the voided batch comment still says %q:\n%s", live, voided)
		}
	}
	if st := decidedState(t, founder, 1); st != "open/" {
		t.Errorf("#1 is %s after three refused replies", st)
	}
	if _, found, err := (approve.Ledger{Client: founder, Owner: "acme", Repo: "benefits"}).Applied(ctx, hash); err != nil || found {
		t.Errorf("batch %s has an applied record after refused replies (found %v, %v)", hash, found, err)
	}
}

// TestReplyWithoutTheAppIsAnsweredWithTheJobsToken: on the solo demo no
// aayudha App is installed, so aayudha-approve.yml cannot mint its token;
// a reply "Approve batch HASH" is still answered on its thread, by the
// job's own token (github-actions[bot]), saying why nothing was applied,
// that the job's token posted the answer, and the next step.
func TestReplyWithoutTheAppIsAnsweredWithTheJobsToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the approve workflow")
	}
	srv, url, logs := runnerSandbox(t, sandbox.Options{})
	founder := clientAt(t, url, "founder")
	const hash = "0123456789ab"
	reply(t, founder, 1, "Approve batch "+hash)
	got := answerOn(t, founder, 1, "github-actions[bot]", "@founder batch "+hash+" was not applied: this run could not mint the aayudha App's token", logs)
	for _, want := range []string{"posted with the workflow job's own GITHUB_TOKEN, which applies nothing", "Next: approve the device code in the batch comment, or run `aayu approve " + hash + "` at your own terminal"} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got)
		}
	}
	if got := runsDone(t, founder, 1, logs); got[0] != "failure" {
		t.Errorf("the approve run without the App concluded %s, want failure (nothing applied)", got[0])
	}
	if n := srv.InstallationTokensMinted(); n != 0 {
		t.Errorf("%d installation tokens minted on a demo without the App", n)
	}
}
