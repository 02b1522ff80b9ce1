package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// auditSandbox is a sandbox GitHub on a clock the test moves, with a
// client acting as the founder, for staging what audit reads.
type auditSandbox struct {
	t     *testing.T
	srv   *sandbox.Server
	url   string
	gh    *github.Client
	mu    sync.Mutex
	now   time.Time
	home  string
	ctx   context.Context
	head4 string
}

func newAuditSandbox(t *testing.T) *auditSandbox {
	t.Helper()
	a := &auditSandbox{t: t, now: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), home: t.TempDir(), ctx: context.Background()}
	a.srv, a.url = sandboxWith(t, sandbox.Options{StateDir: t.TempDir(), Now: a.clock})
	a.head4 = a.srv.HeadSHA(sandbox.DemoPRReady)
	var err error
	a.gh, err = ghx.NewClient(ghx.ClientOptions{APIURL: a.url + "/", Token: ghx.NewToken("sandbox-founder", "the test"), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (a *auditSandbox) clock() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.now
}

func (a *auditSandbox) advance(d time.Duration) {
	a.mu.Lock()
	a.now = a.now.Add(d)
	a.mu.Unlock()
}

// bypassComment posts the founder's Solo-mode bypass: comment on pr.
func (a *auditSandbox) bypassComment(pr int) *github.IssueComment {
	a.t.Helper()
	c, _, err := a.gh.Issues.CreateComment(a.ctx, sandbox.RepoOwner, sandbox.RepoName, pr, &github.IssueComment{
		Body: github.String("Solo-mode bypass: one human and no bot App, so no second person can review this.")})
	if err != nil {
		a.t.Fatal(err)
	}
	return c
}

// merge squash-merges pr as an admin would with gh pr merge --admin.
func (a *auditSandbox) merge(pr int) {
	a.t.Helper()
	if _, _, err := a.gh.PullRequests.Merge(a.ctx, sandbox.RepoOwner, sandbox.RepoName, pr, "", &github.PullRequestOptions{MergeMethod: "squash"}); err != nil {
		a.t.Fatalf("merging #%d: %v", pr, err)
	}
}

func (a *auditSandbox) commitLedger(files map[string][]byte, msg string, trailers ...string) string {
	a.t.Helper()
	sha, err := ghx.CommitFiles(a.ctx, a.gh, sandbox.RepoOwner, sandbox.RepoName, "ledger", files, msg, ghx.CommitOptions{Trailers: trailers})
	if err != nil {
		a.t.Fatal(err)
	}
	return sha
}

// audit runs `aayu audit` against the sandbox and returns its exit code
// and output.
func (a *auditSandbox) audit(extra ...string) (int, string) {
	a.t.Helper()
	vars := map[string]string{"HOME": a.home, "AAYU_GITHUB_TOKEN": "sandbox-founder", "AAYU_AGENT": "1"}
	args := append([]string{"--api-url", a.url + "/", "--repo", "acme/benefits"}, extra...)
	l := startAayu(a.t, vars, append(args, "audit")...)
	code := l.exit()
	return code, l.out.String()
}

// TestAuditSoloBypassAndHumanFallback: a ship through the Solo-mode bypass
// (its comment, the squash merge, ship.json on the ledger) and a ledger
// write under the human-fallback identity each show in their own section;
// a write under the person's own identity is not a fallback. The solo demo
// already holds two: its agents' advisory packs, written under the
// founder's token. An agent may run it (read-only); exit 0, in plain and
// in CI.
func TestAuditSoloBypassAndHumanFallback(t *testing.T) {
	t.Parallel()
	a := newAuditSandbox(t)
	c := a.bypassComment(sandbox.DemoPRReady)
	a.advance(time.Minute)
	a.merge(sandbox.DemoPRReady)
	a.advance(time.Minute)
	rec, _ := json.MarshalIndent(map[string]any{
		"repo": "acme/benefits", "story": sandbox.DemoStoryReady, "pr": sandbox.DemoPRReady, "pr_head_sha": a.head4,
		"human_pass": map[string]any{"kind": "solo-bypass", "login": "founder", "comment_url": c.GetHTMLURL(), "commit": a.head4,
			"note": "solo mode: GitHub refuses self-approval and no bot App exists, so no second person could review"},
		"shipped_at": a.clock().Format(time.RFC3339), "shipped_by": "founder",
	}, "", "  ")
	dir := fmt.Sprintf("proof/%d/%s/authoritative", sandbox.DemoStoryReady, a.head4)
	a.commitLedger(map[string][]byte{dir + "/ship.json": rec}, "ledger: ship story 3 (PR #4)", "Aayudha-Identity: human (founder, aayu ship)")
	a.advance(time.Minute)
	fallback := a.commitLedger(map[string][]byte{"notes/agent.md": []byte("an agent lane's note\n")}, "ledger: note from an agent lane", ghx.HumanFallbackTrailer)

	for _, mode := range [][]string{{"--plain"}, {"--ci"}} {
		code, out := a.audit(mode...)
		if code != tui.ExitOK {
			t.Fatalf("%v: exit %d:\n%s", mode, code, out)
		}
		for _, want := range []string{
			"Solo-mode bypasses: 1",
			fmt.Sprintf("bypass: PR #4 (Story #3) by @founder through aayu ship --solo-bypass at head %s, merged 2026-11-20 09:01:00 UTC; comment %s at 2026-11-20 09:00:00 UTC", a.head4[:12], c.GetHTMLURL()),
			"Human-fallback writes: 3",
			`by Demo Founder: "ledger: advisory pack for story 3"`,
			`by Demo Founder: "ledger: advisory pack for story 7"`,
			fmt.Sprintf(`fallback: ledger commit %s 2026-11-20 09:03:00 UTC by `, fallback[:12]),
			`"ledger: note from an agent lane"`,
			"Recorded late: none",
			"result: 1 Solo-mode bypass, 3 human-fallback writes, 0 recorded late",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: audit does not say %q:\n%s", mode, want, out)
			}
		}
		if strings.Contains(out, "ship story 3") {
			t.Errorf("%v: a write under the person's own identity was listed as a fallback:\n%s", mode, out)
		}
	}
}

// TestAuditBypassRecordedLate: an admin merge whose Solo-mode bypass:
// comment was posted only after the merge is reported "recorded late"; one
// whose comment came first is a bypass, and not late.
func TestAuditBypassRecordedLate(t *testing.T) {
	t.Parallel()
	a := newAuditSandbox(t)
	// #6: the comment first, then the merge, as the seed asks.
	a.bypassComment(sandbox.DemoPRReview)
	a.advance(time.Minute)
	a.merge(sandbox.DemoPRReview)
	// #4: merged first, the comment three minutes later.
	a.advance(time.Minute)
	a.merge(sandbox.DemoPRReady)
	a.advance(3 * time.Minute)
	late := a.bypassComment(sandbox.DemoPRReady)

	code, out := a.audit("--plain")
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"Solo-mode bypasses: 2",
		"bypass: PR #4 by @founder through an admin merge without aayu ship, merged 2026-11-20 09:02:00 UTC; comment " + late.GetHTMLURL() + " at 2026-11-20 09:05:00 UTC — recorded late",
		"bypass: PR #6 by @founder through an admin merge without aayu ship, merged 2026-11-20 09:01:00 UTC",
		"Recorded late: 1",
		"recorded late: PR #4: the Solo-mode bypass: comment by @founder came 3m0s after the merge",
		"result: 2 Solo-mode bypasses, 2 human-fallback writes, 1 recorded late", // the demo agents' advisory packs
	} {
		if !strings.Contains(out, want) {
			t.Errorf("audit does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "recorded late: PR #6") {
		t.Errorf("a bypass recorded before its merge was called late:\n%s", out)
	}
}
