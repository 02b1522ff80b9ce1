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
	srv, err := newSandbox(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox")})
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
// command, ship 4 --solo-bypass answered y ships and completes the Story:
// ship.json records the bypass, dev holds one squash commit, the Story is
// merged with the shipped comment, and the inbox tells the shipped merge
// from one made without ship. (What it refuses and a no: TestShipOnTheDemo.)
func TestShipMobileWaiverAndSoloBypass(t *testing.T) {
	t.Parallel()
	home := t.TempDir()

	code, out := shipWithoutTerminal(t, home, "founder", "y", "4", "--solo-bypass")
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

// TestPresenceCheckAccess: an approval by an account other than the one
// whose token writes is refused at once and in words, in the inbox and
// login as in ship, and nothing is done.
func TestPresenceCheckAccess(t *testing.T) {
	t.Parallel()
	const refusal = "@writer approved the code, but this step must be approved by @founder."
	// ship's own case is TestShipOnTheDemo/PresenceCheckAccess.
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
	srv, err := newSandbox(opts)
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

// TestShipOnTheDemo: ship on a seeded demo, one line each: what it asks
// (nothing before a refusal it can see coming; else the presence check as
// approver, then the confirmation, answered), its exit, its words, and
// what GitHub and the ledger hold afterwards.
//
//   - MobileWaiver: ship 4 takes the bypass only when asked for; a no, or
//     input that ends, writes nothing (TestShipMobileWaiverAndSoloBypass
//     ships on a yes).
//   - ShipRefusedAsksNobody: ship 6 (its coverage floor) and ship 8 (its
//     pack) are refused with their reasons, and no device code or question
//     is shown first.
//   - PresenceCheckAccess: an approval by another account than the one
//     whose token writes is refused in words, and nothing is done.
//   - ShipRefusesTheAuthorsHeadApprovalInTheSoloDemo: the demo is solo, so
//     agents wrote #4 under the founder's token and the founder is its
//     author. Their "approve its head" record never counts for the author
//     (seed 001): ship refuses without asking anything, naming the bypass
//     as the only pass; asked for the bypass, ship takes it and records
//     that no review happened.
//   - TakesTheFoundersReviewWithABotIdentity: with a bot identity
//     agent-bot[bot] authored #4, so the founder's review on GitHub is the
//     human pass; the Solo-mode bypass is refused, without asking
//     anything, as never on offer where a review can be given.
func TestShipOnTheDemo(t *testing.T) {
	t.Parallel()
	type prWant struct {
		merged   bool
		bypasses int // Solo-mode bypass: comments
	}
	bot := sandbox.Options{BotIdentity: true}
	for _, c := range []struct {
		name string
		// the demo: a bot identity or not; the founder's "approve its
		// head" record of #4 on the ledger; the founder's review of #4.
		seed           sandbox.Options
		record, review bool
		args           string // after aayu --sandbox --plain ship
		// approver approves the presence check; "" means ship must end
		// without showing a code or a question.
		approver string
		answer   string // to the confirmation; "" closes standard input
		code     int
		says     []string // regular expressions; HEAD is #4's head, 12 digits
		never    []string // regular expressions
		pr       *prWant  // #4 afterwards
		shipJSON []string // regular expressions ship.json of #4's head matches
		jsonNot  []string
	}{
		{name: "MobileWaiver/without --solo-bypass names the flag", args: "4", code: tui.ExitRefused,
			says: []string{`run aayu ship 4 --solo-bypass`}},
		{name: "MobileWaiver/answered no writes nothing", args: "4 --solo-bypass", approver: "founder", answer: "n", code: tui.ExitRefused,
			says: []string{`you did not answer yes; nothing was written`, `cancelled: you did not answer yes, so nothing was merged`,
				`Command: aayu ship 4 --solo-bypass`, `posts your Solo-mode bypass: comment on #4`, `squash-merges #4 into dev`, `ship\.json on the ledger`, `updates Story #3`},
			never: []string{`refused: nothing was merged`}, pr: &prWant{false, 0}},
		{name: "MobileWaiver/input ended writes nothing", args: "4 --solo-bypass", approver: "founder", code: tui.ExitRefused,
			says: []string{`Standard input has ended|nothing was written`}},
		{name: "ShipRefusedAsksNobody/its coverage floor", args: "6 --solo-bypass", code: tui.ExitFloor,
			says: []string{`5 of 7 changed executable lines covered`, `refused: nothing was merged and nothing landed`}},
		{name: "ShipRefusedAsksNobody/its pack", args: "8 --solo-bypass", code: tui.ExitRefused,
			says: []string{`the merge gate's pack for this head: refused`, `refused: nothing was merged and nothing landed`}},
		{name: "PresenceCheckAccess/approved by another account", args: "4 --solo-bypass", approver: "writer", code: tui.ExitRefused,
			says:  []string{regexp.QuoteMeta("@writer approved the code, but this step must be approved by @founder.")},
			never: []string{`Type y and Enter`}, pr: &prWant{false, 0}},
		{name: "ShipRefusesTheAuthorsHeadApprovalInTheSoloDemo", record: true, args: "4", code: tui.ExitRefused,
			says:  []string{`who is the author; an author's review never counts`, `only your Solo-mode bypass could pass head HEAD`},
			never: []string{`by the review record`}, pr: &prWant{false, 0}},
		{name: "ShipRefusesTheAuthorsHeadApprovalInTheSoloDemo/the bypass is the pass", record: true, args: "4 --solo-bypass", approver: "founder", answer: "y", code: tui.ExitOK,
			pr: &prWant{true, 1}, shipJSON: []string{`"kind": "solo-bypass"`}, jsonNot: []string{`review by record`}},
		{name: "TakesTheFoundersReviewWithABotIdentity/the bypass refused", seed: bot, args: "4 --solo-bypass", code: tui.ExitRefused,
			says: []string{`the solo-mode bypass is not available: this repository has a bot identity`}, pr: &prWant{false, 0}},
		{name: "TakesTheFoundersReviewWithABotIdentity", seed: bot, review: true, args: "4", approver: "founder", answer: "y", code: tui.ExitOK,
			says: []string{`approved by @founder on head HEAD`}, never: []string{`posts your Solo-mode bypass`},
			pr: &prWant{true, 0}, shipJSON: []string{`"kind": "review"`, `"login": "founder"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			head := seedDemoAt(t, home, c.seed, c.record, c.review)
			args := strings.Fields(c.args)
			var code int
			var out string
			if c.approver == "" {
				code, out = refusedWithoutAsking(t, home, args...)
			} else {
				code, out = shipWithoutTerminal(t, home, c.approver, c.answer, args...)
			}
			if code != c.code {
				t.Fatalf("ship %s exited %d, want %d:\n%s", c.args, code, c.code, out)
			}
			for _, re := range c.says {
				if re = strings.ReplaceAll(re, "HEAD", head[:12]); !regexp.MustCompile(re).MatchString(out) {
					t.Errorf("ship %s does not say %s:\n%s", c.args, re, out)
				}
			}
			for _, re := range c.never {
				if regexp.MustCompile(re).MatchString(out) {
					t.Errorf("ship %s says %s:\n%s", c.args, re, out)
				}
			}
			if c.pr != nil {
				if merged, n := prState(t, sandboxState(t, home), 4); merged != c.pr.merged || n != c.pr.bypasses {
					t.Errorf("after ship %s, #4 merged=%v with %d Solo-mode bypass: comments, want merged=%v with %d", c.args, merged, n, c.pr.merged, c.pr.bypasses)
				}
			}
			if c.shipJSON == nil && c.jsonNot == nil {
				return
			}
			git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
			shipJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:proof/3/"+head+"/authoritative/ship.json")
			if err != nil {
				t.Fatalf("no ship.json for #4's head: %v\n%s", err, shipJSON)
			}
			for _, re := range c.shipJSON {
				if !regexp.MustCompile(re).MatchString(shipJSON) {
					t.Errorf("ship.json does not hold %s:\n%s", re, shipJSON)
				}
			}
			for _, re := range c.jsonNot {
				if regexp.MustCompile(re).MatchString(shipJSON) {
					t.Errorf("ship.json holds %s:\n%s", re, shipJSON)
				}
			}
		})
	}
}
