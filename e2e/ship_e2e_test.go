package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

const deviceCodeLine = `open (http://127\.0\.0\.1:\d+/login/device) and enter ([A-Z0-9]{4}-[A-Z0-9]{4})`

// shipWithoutTerminal runs `aayu --sandbox --plain ship ARGS…` as a person
// with no terminal: the presence check comes once every read-only gate has
// passed, is approved on the sandbox's device page as approver, and the
// confirmation is answered with answer ("" closes standard input).
func shipWithoutTerminal(t *testing.T, home, approver, answer string, args ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--plain", "ship"}, args...)...)
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], approver)
	if approver != "founder" {
		a.waitFor(`result: exit \d`)
		return a.exit(), a.out.String()
	}
	a.waitFor(`Type y and Enter to write all of these`)
	if answer != "" {
		a.send(answer)
	}
	return a.exit(), a.out.String()
}

// refusedWithoutAsking runs ship where it will be refused, with no
// terminal: it must end without showing a device code or a question.
func refusedWithoutAsking(t *testing.T, home string, args ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--plain", "ship"}, args...)...)
	a.waitFor(`result: exit \d`)
	code, out := a.exit(), a.out.String()
	if strings.Contains(out, "/login/device") || strings.Contains(out, "Type y and Enter") {
		t.Errorf("ship %v asked for something before refusing:\n%s", args, out)
	}
	return code, out
}

// sandboxState opens the sandbox's persisted state (after aayu has ended)
// and returns a client reading it as the read-only account.
func sandboxState(t *testing.T, home string) *github.Client {
	t.Helper()
	return sandboxAs(t, home, "reader")
}

// openSandboxes holds, per test, the servers sandboxAs opened; the lock
// keeps tests running in parallel from writing the map at once.
var openSandboxes = struct {
	sync.Mutex
	m map[*testing.T][]*sandbox.Server
}{m: map[*testing.T][]*sandbox.Server{}}

// sandboxAs opens the persisted state as login; closeSandboxes saves what
// it changed, before aayu runs again on the same state.
func sandboxAs(t *testing.T, home, login string) *github.Client {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox")})
	if err != nil {
		t.Fatal(err)
	}
	u, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	openSandboxes.Lock()
	openSandboxes.m[t] = append(openSandboxes.m[t], srv)
	openSandboxes.Unlock()
	t.Cleanup(func() { closeSandboxes(t) })
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: u + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// closeSandboxes closes (and so saves) the servers opened on the state,
// the last opened last, so its state is what stays.
func closeSandboxes(t *testing.T) {
	openSandboxes.Lock()
	servers := openSandboxes.m[t]
	delete(openSandboxes.m, t)
	openSandboxes.Unlock()
	for _, srv := range servers {
		_ = srv.Close()
	}
}

// prState is what a refused or declined ship must leave as it was.
func prState(t *testing.T, c *github.Client, pr int) (merged bool, bypassComments int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, _, err := c.PullRequests.Get(ctx, "acme", "benefits", pr)
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := c.Issues.ListComments(ctx, "acme", "benefits", pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range list {
		if strings.HasPrefix(cm.GetBody(), "Solo-mode bypass:") {
			bypassComments++
		}
	}
	return p.GetMerged(), bypassComments
}

// TestShipMobileWaiverAndSoloBypass: on the sandbox, through the real
// command, ship takes the bypass only when asked for; asks nothing for a
// ship it will refuse; asks for the presence check, then a yes; writes
// nothing on a no; and, on a yes, ships and completes the Story.
func TestShipMobileWaiverAndSoloBypass(t *testing.T) {
	t.Parallel()
	home := t.TempDir()

	code, out := refusedWithoutAsking(t, home, "4")
	if code != tui.ExitRefused || !strings.Contains(out, "run aayu ship 4 --solo-bypass") {
		t.Fatalf("ship 4 without --solo-bypass exited %d and should name the flag:\n%s", code, out)
	}

	code, out = shipWithoutTerminal(t, home, "founder", "n", "4", "--solo-bypass")
	if code != tui.ExitRefused || !strings.Contains(out, "you did not answer yes; nothing was written") ||
		!strings.Contains(out, "cancelled: you did not answer yes, so nothing was merged") || strings.Contains(out, "refused: nothing was merged") {
		t.Fatalf("ship 4 answered n exited %d, or called the no a refusal:\n%s", code, out)
	}
	for _, want := range []string{"Command: aayu ship 4 --solo-bypass", "posts your Solo-mode bypass: comment on #4", "squash-merges #4 into dev", "ship.json on the ledger", "updates Story #3"} {
		if !strings.Contains(out, want) {
			t.Errorf("the presence check or the confirmation does not say %q:\n%s", want, out)
		}
	}
	if merged, n := prState(t, sandboxState(t, home), 4); merged || n != 0 {
		t.Fatalf("a ship answered n left #4 merged=%v with %d bypass comments", merged, n)
	}

	code, out = shipWithoutTerminal(t, home, "founder", "", "4", "--solo-bypass")
	if code != tui.ExitRefused || !strings.Contains(out, "Standard input has ended") && !strings.Contains(out, "nothing was written") {
		t.Fatalf("ship 4 with its input ended exited %d:\n%s", code, out)
	}

	code, out = shipWithoutTerminal(t, home, "founder", "y", "4", "--solo-bypass")
	if code != tui.ExitOK {
		t.Fatalf("ship 4 --solo-bypass answered y exited %d:\n%s", code, out)
	}
	ledgerDir := regexp.MustCompile(`the record is on the ledger at (proof/3/([0-9a-f]{40})/authoritative)`).FindStringSubmatch(out)
	if ledgerDir == nil {
		t.Fatalf("no ledger path in:\n%s", out)
	}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
	shipJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:"+ledgerDir[1]+"/ship.json")
	if err != nil {
		t.Fatalf("no ship.json on the ledger: %v %s", err, shipJSON)
	}
	var rec struct {
		PR         int    `json:"pr"`
		PRHead     string `json:"pr_head_sha"`
		PackSHA256 string `json:"pack_sha256"`
		HumanPass  struct {
			Kind       string `json:"kind"`
			Login      string `json:"login"`
			CommentURL string `json:"comment_url"`
			Commit     string `json:"commit"`
		} `json:"human_pass"`
	}
	if err := json.Unmarshal([]byte(shipJSON), &rec); err != nil {
		t.Fatal(err)
	}
	hp := rec.HumanPass
	if rec.PR != 4 || rec.PRHead != ledgerDir[2] || hp.Kind != "solo-bypass" || hp.Login != "founder" || hp.Commit != ledgerDir[2] || !strings.Contains(hp.CommentURL, "#issuecomment-") {
		t.Fatalf("ship.json does not record a solo-bypass pass naming the comment and the head:\n%s", shipJSON)
	}
	if log, _ := runCmd("git", "--git-dir", git, "log", "--format=%s", "dev"); strings.Count(log, "(#4)") != 1 {
		t.Fatalf("dev does not hold exactly one squash commit of #4:\n%s", log)
	}

	// The Story it shipped is complete, and the inbox files nothing as
	// merged without ship.
	c := sandboxState(t, home)
	story, _, err := c.Issues.Get(context.Background(), "acme", "benefits", 3)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, l := range story.Labels {
		labels = append(labels, l.GetName())
	}
	if got := strings.Join(labels, ","); !strings.Contains(got, "status:merged") || strings.Contains(got, "aayu:lease") {
		t.Errorf("Story #3 is labelled %q after the ship", got)
	}
	comments, _, _ := c.Issues.ListComments(context.Background(), "acme", "benefits", 3, nil)
	shipped := ""
	for _, cm := range comments {
		if strings.Contains(cm.GetBody(), "<!-- aayu:shipped pr=4") {
			shipped = cm.GetBody()
		}
	}
	for _, want := range []string{"pack.json sha256 " + rec.PackSHA256, "ledger:" + ledgerDir[1] + "/ship.json", "solo-mode bypass by @founder"} {
		if !strings.Contains(shipped, want) {
			t.Errorf("the Story's shipped comment lacks %q:\n%s", want, shipped)
		}
	}
	if list := inboxList(t, home); strings.Contains(list, "merged without ship #3") {
		t.Errorf("the shipped Story is filed as merged without ship:\n%s", list)
	}

	// Even with its label taken off again (a Story update that never
	// landed), the ship record on the ledger covers the merge.
	c = sandboxAs(t, home, "founder")
	if _, err := c.Issues.RemoveLabelForIssue(context.Background(), "acme", "benefits", 3, "status:merged"); err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	if list := inboxList(t, home); strings.Contains(list, "merged without ship #3") || !strings.Contains(list, "merged without ship #9") {
		t.Errorf("the inbox does not tell a shipped merge from one made without ship:\n%s", list)
	}
}

// inboxList runs `aayu --sandbox inbox --list` and returns what it printed.
func inboxList(t *testing.T, home string) string {
	t.Helper()
	var list lockedBuffer
	vars := map[string]string{"HOME": home, "AAYU_AGENT": "1"}
	if code := runCLI(context.Background(), vars, []string{"--sandbox", "--plain", "inbox", "--list"}, cli.Env{Stdout: &list, Stderr: &list}); code != tui.ExitOK {
		t.Fatalf("inbox --list exited %d:\n%s", code, list.String())
	}
	return list.String()
}

// TestShipRefusedAsksNobody: ship 6 (its coverage floor) and ship 8 (its
// pack) are refused with their reasons, and no device code or question is
// shown first.
func TestShipRefusedAsksNobody(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for pr, why := range map[string]string{
		"6": "5 of 7 changed executable lines covered",
		"8": "the merge gate's pack for this head: refused",
	} {
		code, out := refusedWithoutAsking(t, home, pr, "--solo-bypass")
		if code != tui.ExitRefused && code != tui.ExitFloor {
			t.Errorf("ship %s exited %d, want 3 or 4:\n%s", pr, code, out)
		}
		if !strings.Contains(out, why) || !strings.Contains(out, "refused: nothing was merged and nothing landed") {
			t.Errorf("ship %s does not say %q:\n%s", pr, why, out)
		}
	}
}

// TestPresenceCheckAccess: an approval by an account other than the one
// whose token writes is refused at once and in words, in ship, the inbox
// and login alike, and nothing is done.
func TestPresenceCheckAccess(t *testing.T) {
	t.Parallel()
	const refusal = "@writer approved the code, but this step must be approved by @founder."
	t.Run("ship", func(t *testing.T) {
		home := t.TempDir()
		code, out := shipWithoutTerminal(t, home, "writer", "", "4", "--solo-bypass")
		if code != tui.ExitRefused || !strings.Contains(out, refusal) || strings.Contains(out, "Type y and Enter") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		if merged, n := prState(t, sandboxState(t, home), 4); merged || n != 0 {
			t.Errorf("a refused approval left #4 merged=%v with %d bypass comments", merged, n)
		}
	})
	for _, args := range [][]string{{"inbox"}, {"login"}} {
		t.Run(args[0], func(t *testing.T) {
			a := startAayu(t, map[string]string{"HOME": t.TempDir(), "AMP_THREAD_ID": "T-1"}, append([]string{"--sandbox", "--plain"}, args...)...)
			m := a.waitFor(deviceCodeLine)
			approveOnSandbox(t, m[1], m[2], "writer")
			a.waitFor(regexp.QuoteMeta(refusal))
			code := a.exit()
			out := a.out.String()
			if code != tui.ExitRefused || strings.Contains(out, "Approved by @writer") || strings.Contains(out, "card 1 of") {
				t.Errorf("exit %d:\n%s", code, out)
			}
		})
	}
}

// seedDemoAt seeds a sandbox (with or without a bot identity) under home
// and, when record is set, writes the founder's "approve its head" record
// of #4's head on the ledger (reviews/PR/HEAD.json), as the inbox writes
// it; with review set, the founder approves #4's head on GitHub.
func seedDemoAt(t *testing.T, home string, opts sandbox.Options, record, review bool) string {
	t.Helper()
	opts.StateDir = filepath.Join(home, ".cache", "aayu", "sandbox")
	srv, err := sandbox.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	u, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	head := srv.HeadSHA(4)
	founder, err := ghx.NewClient(ghx.ClientOptions{APIURL: u + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if record {
		rec := `{"pr": 4, "login": "founder", "head": "` + head + `", "time": "2026-12-01T10:00:00Z", "checked": "ran the deductible tests", "via": "aayu inbox"}`
		if _, err := ghx.CommitFiles(ctx, founder, "acme", "benefits", "ledger",
			map[string][]byte{"reviews/4/" + head + ".json": []byte(rec)}, "ledger: review of #4", ghx.CommitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if review {
		if _, _, err := founder.PullRequests.CreateReview(ctx, "acme", "benefits", 4, &github.PullRequestReviewRequest{
			CommitID: github.String(head), Event: github.String("APPROVE")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	return head
}

// TestShipRefusesTheAuthorsHeadApprovalInTheSoloDemo: the demo is solo, so
// agents wrote #4 under the founder's token and the founder is its author.
// Their "approve its head" record never counts for the author (seed 001):
// ship refuses without asking anything, naming the bypass as the only
// pass; asked for the bypass, ship takes it and records that no review
// happened.
func TestShipRefusesTheAuthorsHeadApprovalInTheSoloDemo(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	head := seedDemoAt(t, home, sandbox.Options{}, true, false)
	code, out := refusedWithoutAsking(t, home, "4")
	if code != tui.ExitRefused {
		t.Fatalf("ship 4 on the author's own head approval exited %d, want %d (refused):\n%s", code, tui.ExitRefused, out)
	}
	if !strings.Contains(out, "who is the author; an author's review never counts") || !strings.Contains(out, "only your Solo-mode bypass could pass head "+head[:12]) ||
		strings.Contains(out, "by the review record") {
		t.Errorf("ship did not refuse the author's record and name the bypass as the only pass:\n%s", out)
	}
	if merged, n := prState(t, sandboxState(t, home), 4); merged || n != 0 {
		t.Fatalf("a refused ship merged (%v) or left %d Solo-mode bypass: comments", merged, n)
	}

	code, out = shipWithoutTerminal(t, home, "founder", "y", "4", "--solo-bypass")
	if code != tui.ExitOK {
		t.Fatalf("ship 4 --solo-bypass exited %d:\n%s", code, out)
	}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
	shipJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:proof/3/"+head+"/authoritative/ship.json")
	if err != nil || !strings.Contains(shipJSON, `"kind": "solo-bypass"`) || strings.Contains(shipJSON, "review by record") {
		t.Fatalf("ship.json does not record the bypass as the pass: %v\n%s", err, shipJSON)
	}
	if merged, n := prState(t, sandboxState(t, home), 4); !merged || n != 1 {
		t.Errorf("after the bypass #4 merged %v with %d Solo-mode bypass: comments, want merged with 1", merged, n)
	}
}

// TestShipTakesTheFoundersReviewWithABotIdentity: with a bot identity
// agent-bot[bot] authored #4, so the founder's review on GitHub is the
// human pass; the Solo-mode bypass is refused, without asking anything,
// as never on offer where a review can be given.
func TestShipTakesTheFoundersReviewWithABotIdentity(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	seedDemoAt(t, home, sandbox.Options{BotIdentity: true}, false, false)
	code, out := refusedWithoutAsking(t, home, "4", "--solo-bypass")
	if code != tui.ExitRefused || !strings.Contains(out, "the solo-mode bypass is not available: this repository has a bot identity") {
		t.Fatalf("ship 4 --solo-bypass with a bot identity exited %d, want the bypass refused:\n%s", code, out)
	}
	if merged, n := prState(t, sandboxState(t, home), 4); merged || n != 0 {
		t.Fatalf("a refused bypass merged (%v) or left %d Solo-mode bypass: comments", merged, n)
	}

	home2 := t.TempDir()
	head := seedDemoAt(t, home2, sandbox.Options{BotIdentity: true}, false, true)
	code, out = shipWithoutTerminal(t, home2, "founder", "y", "4")
	if code != tui.ExitOK {
		t.Fatalf("ship 4 with the founder's review exited %d:\n%s", code, out)
	}
	if !strings.Contains(out, "approved by @founder on head "+head[:12]) || strings.Contains(out, "posts your Solo-mode bypass") {
		t.Errorf("ship did not take the founder's review as the pass, or offered a bypass:\n%s", out)
	}
	git := filepath.Join(home2, ".cache", "aayu", "sandbox", "benefits.git")
	shipJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:proof/3/"+head+"/authoritative/ship.json")
	if err != nil || !strings.Contains(shipJSON, `"kind": "review"`) || !strings.Contains(shipJSON, `"login": "founder"`) {
		t.Fatalf("ship.json does not record the founder's review: %v\n%s", err, shipJSON)
	}
	if merged, n := prState(t, sandboxState(t, home2), 4); !merged || n != 0 {
		t.Errorf("#4 merged %v with %d Solo-mode bypass: comments; a review needs none", merged, n)
	}
}
