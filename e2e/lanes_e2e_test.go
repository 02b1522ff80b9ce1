package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/tui"
)

// TestAgentLaneIsRefusedAtOnce: aayu's own unattended lane (AAYU_AGENT=1,
// the MCP server and the loops), holding the founder's token, runs each
// human-only step: every one is refused within seconds, exit 4, in words
// naming the lane and the command the person runs, with no device code,
// and nothing is written (no batch, no comment, no ledger commit).
func TestAgentLaneIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	ledgerTip := func() string {
		b, _, err := founder.Repositories.GetBranch(ctx, "acme", "benefits", "ledger", 0)
		if err != nil {
			t.Fatal(err)
		}
		return b.GetCommit().GetSHA()
	}
	comments := func() int {
		n := 0
		for _, issue := range []int{1, 4} {
			cs, _, err := founder.Issues.ListComments(ctx, "acme", "benefits", issue, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
			if err != nil {
				t.Fatal(err)
			}
			n += len(cs)
		}
		return n
	}
	tip, before := ledgerTip(), comments()
	vars := map[string]string{"HOME": t.TempDir(), "AAYU_AGENT": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	at := []string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}
	for _, tc := range []struct{ args, person string }{
		{"decide 1 --accept 1", "aayu decide 1 --accept 1"},
		{"ready 1", "aayu ready 1"},
		{"plan 1 --solo-bypass", "aayu plan 1 --solo-bypass"},
		{"ship 4 --solo-bypass", "aayu ship 4 --solo-bypass"},
		{"approve 0123456789ab", "aayu approve 0123456789ab"},
	} {
		start := time.Now()
		code, out, errOut := runAayuEnv(t, vars, append(at, strings.Fields(tc.args)...)...)
		took := time.Since(start)
		all := out + errOut
		if code != tui.ExitRefused || took > 10*time.Second {
			t.Errorf("AAYU_AGENT=1 aayu %s: exit %d after %s, want 4 within seconds:\n%s", tc.args, code, took, all)
		}
		for _, want := range []string{"aayu's own agent lane (AAYU_AGENT=1)", "The person runs, at their own terminal: " + tc.person, "Nothing was done."} {
			if !strings.Contains(all, want) {
				t.Errorf("AAYU_AGENT=1 aayu %s: the refusal lacks %q:\n%s", tc.args, want, all)
			}
		}
		if regexp.MustCompile(`/login/device|Batch [0-9a-f]{12}`).MatchString(all) {
			t.Errorf("AAYU_AGENT=1 aayu %s offered a code or a batch:\n%s", tc.args, all)
		}
	}
	if got := ledgerTip(); got != tip {
		t.Errorf("aayu's own lane wrote to the ledger: %s -> %s", tip, got)
	}
	if got := comments(); got != before {
		t.Errorf("aayu's own lane posted %d comments", got-before)
	}
}

// TestHostAgentIsToldItsBatchWasAppliedAtTheTerminal: a host agent's lane
// holding the founder's token (solo mode) posts its batch and waits for
// the device code in it; the founder instead runs aayu approve HASH at
// their terminal and approves that code. The waiting agent notices within
// seconds, says the batch was applied elsewhere by @founder, and ends with
// exit 0, without waiting out its code.
func TestHostAgentIsToldItsBatchWasAppliedAtTheTerminal(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	founder := clientAt(t, url, "founder")
	at := []string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain"}
	a := startAayu(t, soloAgent(t), append(at, "decide", "1", "--accept", "1")...)
	hash := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder`)[1]
	a.waitFor(`Waiting for @founder to approve the device code`)
	b := approveAtTerminal(t, url, hash, "founder")
	if code := b.exit(); code != tui.ExitOK {
		t.Fatalf("the founder's approve exited %d:\n%s", code, b.out.String())
	}
	applied := time.Now()
	select {
	case code := <-a.done:
		if code != tui.ExitOK {
			t.Fatalf("the waiting agent exited %d, want 0:\n%s", code, a.out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the waiting agent did not notice within 10s that its batch was applied:\n%s", a.out.String())
	}
	if !strings.Contains(a.out.String(), "Batch "+hash+" was applied elsewhere, on @founder's approval") || strings.Contains(a.out.String(), "Not applied") {
		t.Errorf("the waiting agent does not say truly what became of its batch:\n%s", a.out.String())
	}
	t.Logf("noticed %s after the apply", time.Since(applied).Round(100*time.Millisecond))
	if st := decidedState(t, founder, 1); st != "closed/completed" {
		t.Errorf("#1 is %s", st)
	}
}
