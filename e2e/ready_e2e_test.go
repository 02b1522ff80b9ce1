package e2e

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	build "github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

const readyGoalBody = "Employees need to see their leave.\n\n## Completion Goal\n1. An employee sees their leave balance on the home page\n2. A manager approves a request in one click\n\n## Plan\n- web/balance\n"

// newStoryIssue opens an issue on the sandbox's acme/benefits as founder,
// as a person does on GitHub, and saves the state for aayu's next run.
func newStoryIssue(t *testing.T, home, title, body string, labels ...string) int {
	t.Helper()
	c := sandboxAs(t, home, "founder")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	is, _, err := c.Issues.Create(ctx, "acme", "benefits", &github.IssueRequest{Title: github.String(title), Body: github.String(body), Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	return is.GetNumber()
}

// editStoryBody changes the issue's body as founder.
func editStoryBody(t *testing.T, home string, story int, body string) {
	t.Helper()
	c := sandboxAs(t, home, "founder")
	if _, _, err := c.Issues.Edit(context.Background(), "acme", "benefits", story, &github.IssueRequest{Body: github.String(body)}); err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
}

// readyWithoutTerminal runs `aayu --sandbox --plain ready ARGS…` as a person
// with no terminal: the presence check, when it comes (only once the reads
// found something to write), is approved on the sandbox's device page as
// founder, then the question (if it comes) is answered.
func readyWithoutTerminal(t *testing.T, home, answer string, args ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--plain", "ready"}, args...)...)
	if m := a.waitFor(deviceCodeLine + `|result: exit \d`); m[1] != "" {
		approveOnSandbox(t, m[1], m[2], "founder")
	}
	a.waitFor(`Type y and Enter to write all of these|result: exit \d`)
	if answer != "" && strings.Contains(a.out.String(), "Type y and Enter") {
		a.send(answer)
	}
	a.waitFor(`result: exit \d`)
	return a.exit(), a.out.String()
}

// ledgerSnapshot reads specs/N/ready.md on the ledger (nil when absent).
func ledgerSnapshot(t *testing.T, c *github.Client, ref string, story int) *proof.Ready {
	t.Helper()
	b, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", ref, "specs/"+itoa(story)+"/ready.md")
	if ghx.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	r, err := proof.ParseReady(b)
	if err != nil {
		t.Fatalf("the snapshot on the ledger does not read: %v\n%s", err, b)
	}
	return r
}

func itoa(n int) string { return strconv.Itoa(n) }

func labelsOf(t *testing.T, c *github.Client, story int) []string {
	t.Helper()
	is, _, err := c.Issues.Get(context.Background(), "acme", "benefits", story)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range is.Labels {
		out = append(out, l.GetName())
	}
	return out
}

var hashLine = regexp.MustCompile(`completion_goal_hash ([0-9a-f]{64}):`)

// TestReadyFreezesTheGoal: on y, the Story's goal lands as specs/N/ready.md
// on the ledger, self-consistent, with the hash shown; the Story is
// status:ready and no other status; aayu verify's lookup finds the
// snapshot; a second run with the same goal writes nothing, exit 0.
func TestReadyFreezesTheGoal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	story := newStoryIssue(t, home, "Story: leave \x1b[31mbalance\x1b[0m", readyGoalBody, "type:story", "status:building")
	code, out := readyWithoutTerminal(t, home, "y", itoa(story))
	if code != tui.ExitOK || !strings.Contains(out, "frozen: #") || !strings.Contains(out, "/login/device") {
		t.Fatalf("exit %d, want 0 after the presence check and the yes:\n%s", code, out)
	}
	shown := hashLine.FindStringSubmatch(out)
	if shown == nil {
		t.Fatalf("the hash was not shown:\n%s", out)
	}
	c := sandboxState(t, home)
	r := ledgerSnapshot(t, c, "ledger", story)
	if r == nil || !r.SelfConsistent() || r.RecordedHash != shown[1] || r.Story != story || len(r.Criteria) != 2 ||
		r.Criteria[1].Text != "A manager approves a request in one click" {
		t.Fatalf("the ledger's snapshot is not the goal shown: %+v", r)
	}
	if strings.ContainsRune(r.Title, 0x1b) || !strings.Contains(r.Title, "balance") {
		t.Errorf("the snapshot's title is not one neutral line: %q", r.Title)
	}
	labels := labelsOf(t, c, story)
	if !contains(labels, "status:ready") || contains(labels, "status:building") {
		t.Errorf("labels after ready: %v", labels)
	}
	target, err := build.Resolve(context.Background(), c, "acme", "benefits", story)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := proof.ParseReady(target.Ready); got == nil || got.RecordedHash != shown[1] {
		t.Errorf("aayu verify's lookup does not find the snapshot written")
	}
	tip, _, err := c.Git.GetRef(context.Background(), "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)

	code, out = readyWithoutTerminal(t, home, "y", itoa(story))
	if code != tui.ExitOK || !strings.Contains(out, "Already frozen") || strings.Contains(out, "Type y and Enter") || strings.Contains(out, "/login/device") {
		t.Fatalf("the same goal again: exit %d:\n%s", code, out)
	}
	c = sandboxState(t, home)
	again, _, err := c.Git.GetRef(context.Background(), "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	if again.GetObject().GetSHA() != tip.GetObject().GetSHA() {
		t.Errorf("the same goal again moved the ledger")
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// TestReadyRefusesNoCompletionGoal: a Story without the section, one whose
// section has no numbered items, and an issue that is not a Story are each
// refused with the reason, exit 4, and nothing lands.
func TestReadyRefusesNoCompletionGoal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cases := []struct {
		body   string
		labels []string
		want   string
	}{
		{"Just an idea.\n", []string{"type:story"}, `has no "## Completion Goal" section`},
		{"## Completion Goal\nIt should feel fast.\n", []string{"type:story"}, "has no numbered items"},
		{readyGoalBody, []string{"type:decision"}, "is not a Story"},
	}
	for _, tc := range cases {
		story := newStoryIssue(t, home, "Story: refused", tc.body, tc.labels...)
		code, out := readyWithoutTerminal(t, home, "y", itoa(story))
		if code != tui.ExitRefused || !strings.Contains(out, tc.want) || strings.Contains(out, "Type y and Enter") || strings.Contains(out, "/login/device") {
			t.Errorf("%q: exit %d, want 4 saying %q:\n%s", tc.body, code, tc.want, out)
		}
		c := sandboxState(t, home)
		if ledgerSnapshot(t, c, "ledger", story) != nil || contains(labelsOf(t, c, story), "status:ready") {
			t.Errorf("%q: a refused ready wrote something", tc.body)
		}
		closeSandboxes(t)
	}
}

// freezeOnce freezes a new Story's goal and returns its number and hash.
func freezeOnce(t *testing.T, home string) (int, string) {
	t.Helper()
	story := newStoryIssue(t, home, "Story: leave balance", readyGoalBody, "type:story")
	code, out := readyWithoutTerminal(t, home, "y", itoa(story))
	m := hashLine.FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("the first freeze: exit %d:\n%s", code, out)
	}
	return story, m[1]
}

const changedGoalBody = "## Completion Goal\n1. An employee sees their leave balance on the home page\n2. A manager approves a request in one click\n3. The balance updates within a minute\n"

// TestReadyRefusesChangedGoalWithoutAgain: a Story frozen with one hash
// whose goal then changed is refused without --again, naming it; the
// ledger keeps the old snapshot and the Story gets no comment.
func TestReadyRefusesChangedGoalWithoutAgain(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	story, old := freezeOnce(t, home)
	editStoryBody(t, home, story, changedGoalBody)
	code, out := readyWithoutTerminal(t, home, "y", itoa(story))
	if code != tui.ExitRefused || !strings.Contains(out, "ready "+itoa(story)+" --again") || !strings.Contains(out, old[:12]) || strings.Contains(out, "Type y and Enter") || strings.Contains(out, "/login/device") {
		t.Fatalf("exit %d, want 4 naming --again and the frozen hash:\n%s", code, out)
	}
	c := sandboxState(t, home)
	if r := ledgerSnapshot(t, c, "ledger", story); r == nil || r.RecordedHash != old {
		t.Errorf("the refused re-freeze changed the snapshot: %+v", r)
	}
	comments, _, err := c.Issues.ListComments(context.Background(), "acme", "benefits", story, nil)
	if err != nil || len(comments) != 0 {
		t.Errorf("the refused re-freeze commented (%d comments, %v)", len(comments), err)
	}
}

// TestReadyAgainKeepsHistoryAndComments: --again lands the new snapshot on
// top of the old one (the old stays in the ledger's history) and comments
// on the Story that packs for the old goal no longer verify.
func TestReadyAgainKeepsHistoryAndComments(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	story, old := freezeOnce(t, home)
	editStoryBody(t, home, story, changedGoalBody)
	code, out := readyWithoutTerminal(t, home, "y", itoa(story), "--again")
	m := hashLine.FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil || m[1] == old {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	c := sandboxState(t, home)
	ctx := context.Background()
	r := ledgerSnapshot(t, c, "ledger", story)
	if r == nil || r.RecordedHash != m[1] || len(r.Criteria) != 3 {
		t.Fatalf("the ledger's snapshot is not the new goal: %+v", r)
	}
	tip, _, err := c.Git.GetRef(ctx, "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	commit, _, err := c.Git.GetCommit(ctx, "acme", "benefits", tip.GetObject().GetSHA())
	if err != nil || len(commit.Parents) != 1 {
		t.Fatalf("the ledger's tip: %v, %+v", err, commit)
	}
	if prev := ledgerSnapshot(t, c, commit.Parents[0].GetSHA(), story); prev == nil || prev.RecordedHash != old {
		t.Errorf("the old snapshot is not in the ledger's history: %+v", prev)
	}
	comments, _, err := c.Issues.ListComments(ctx, "acme", "benefits", story, nil)
	if err != nil || len(comments) != 1 || !strings.Contains(comments[0].GetBody(), "no longer verify") ||
		!strings.Contains(comments[0].GetBody(), old) || !strings.Contains(comments[0].GetBody(), m[1]) {
		t.Fatalf("the Story's comment about the changed goal: %v, %+v", err, comments)
	}
}
