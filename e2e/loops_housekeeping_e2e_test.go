package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/loops"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// repoFacts is what a person's step would change on the demo: every
// issue's and pull request's state, labels and comment count, whether each
// pull request is merged, and the tips of main and dev.
func repoFacts(t *testing.T, c *github.Client) string {
	t.Helper()
	ctx := context.Background()
	var lines []string
	issues, _, err := c.Issues.ListByRepo(ctx, "acme", "benefits", &github.IssueListByRepoOptions{State: "all", ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range issues {
		var labels []string
		for _, l := range is.Labels {
			labels = append(labels, l.GetName())
		}
		sort.Strings(labels)
		lines = append(lines, fmt.Sprintf("#%d %s %v comments=%d", is.GetNumber(), is.GetState(), labels, is.GetComments()))
		if is.IsPullRequest() {
			pr, _, err := c.PullRequests.Get(ctx, "acme", "benefits", is.GetNumber())
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("#%d merged=%v", pr.GetNumber(), pr.GetMerged()))
		}
	}
	for _, b := range []string{"main", "dev"} {
		ref, _, err := c.Git.GetRef(ctx, "acme", "benefits", "heads/"+b)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b+" "+ref.GetObject().GetSHA())
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestLoopsRecordTheDemosHousekeepingAndTakeNoStep: on the demo, aayu
// loops --ci, as the bot App, names the Story merged without ship (#9,
// merged in #10) and the Bug whose fix merged (#11, fixed in #12), the
// very cards the inbox derives, one line each, and records them in
// autonomy/housekeeping.json on the ledger. Ship makes no write for
// either, so the loops make none on GitHub: no label, comment, close,
// merge or branch moves. A second run writes nothing; once the person
// closes the Bug, the next run records the one item left.
func TestLoopsRecordTheDemosHousekeepingAndTakeNoStep(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c := sandboxState(t, home)
	before := repoFacts(t, c)
	closeSandboxes(t)
	vars := map[string]string{"HOME": home, "AAYU_AGENT": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot"}
	code, out, errOut := runAayuEnv(t, vars, "--sandbox", "--ci", "loops")
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		fmt.Sprintf("housekeeping: Story #%d: merged in #%d without aayu ship", sandbox.DemoStoryMergedNoShip, sandbox.DemoPRMergedNoShip),
		fmt.Sprintf("housekeeping: Bug #%d: its fix merged in #%d; it is still open", sandbox.DemoBug, sandbox.DemoPRBugFix),
		"wrote autonomy/streaks.json and " + loops.HousekeepingPath, "as agent-bot[bot]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the loops' output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "housekeeping: "); n != 2 {
		t.Errorf("the loops named %d housekeeping items, want 2:\n%s", n, out)
	}
	ctx := context.Background()
	c = sandboxState(t, home)
	if after := repoFacts(t, c); after != before {
		t.Errorf("the loops changed GitHub beyond the ledger:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	b, err := ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", loops.HousekeepingPath)
	if err != nil {
		t.Fatal(err)
	}
	var hk loops.Housekeeping
	if err := json.Unmarshal(b, &hk); err != nil {
		t.Fatal(err)
	}
	want := []loops.HousekeepingItem{
		{Kind: inbox.KindMergedWithoutShip, Number: sandbox.DemoStoryMergedNoShip, Merged: []int{sandbox.DemoPRMergedNoShip}},
		{Kind: inbox.KindBugFixMerged, Number: sandbox.DemoBug, Merged: []int{sandbox.DemoPRBugFix}},
	}
	if !slices.EqualFunc(hk.Items, want, func(a, b loops.HousekeepingItem) bool {
		return a.Kind == b.Kind && a.Number == b.Number && slices.Equal(a.Merged, b.Merged)
	}) || hk.By != "agent-bot[bot]" {
		t.Errorf("%s holds %+v, want %+v by agent-bot[bot]", loops.HousekeepingPath, hk, want)
	}
	// The loops' one commit touched the two files and nothing else.
	tip, _, err := c.Git.GetRef(ctx, "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	cm, _, err := c.Repositories.GetCommit(ctx, "acme", "benefits", tip.GetObject().GetSHA(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range cm.Files {
		files = append(files, f.GetFilename())
	}
	sort.Strings(files)
	if cm.GetAuthor().GetLogin() != "agent-bot[bot]" || !slices.Equal(files, []string{loops.HousekeepingPath, loops.StreaksPath}) {
		t.Errorf("the loops' ledger commit is %s's and touched %v", cm.GetAuthor().GetLogin(), files)
	}
	closeSandboxes(t)

	code, out, _ = runAayuEnv(t, vars, "--sandbox", "--ci", "loops")
	if code != tui.ExitOK || !strings.Contains(out, "nothing written") {
		t.Errorf("a second run: exit %d:\n%s", code, out)
	}
	c = sandboxAs(t, home, "founder")
	again, _, err := c.Git.GetRef(ctx, "acme", "benefits", "heads/ledger")
	if err != nil || again.GetObject().GetSHA() != tip.GetObject().GetSHA() {
		t.Errorf("a second run moved the ledger (%v)", err)
	}
	// The person does the Bug's housekeeping; the next run records what is left.
	if _, _, err := c.Issues.Edit(ctx, "acme", "benefits", sandbox.DemoBug, &github.IssueRequest{State: github.String("closed"), StateReason: github.String("completed")}); err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	code, out, _ = runAayuEnv(t, vars, "--sandbox", "--ci", "loops")
	if code != tui.ExitOK || !strings.Contains(out, "wrote "+loops.HousekeepingPath) || strings.Contains(out, fmt.Sprintf("Bug #%d", sandbox.DemoBug)) {
		t.Errorf("after the Bug closed: exit %d:\n%s", code, out)
	}
	c = sandboxState(t, home)
	b, err = ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", loops.HousekeepingPath)
	if err != nil || json.Unmarshal(b, &hk) != nil || len(hk.Items) != 1 || hk.Items[0].Number != sandbox.DemoStoryMergedNoShip {
		t.Errorf("after the Bug closed %s holds %s (%v)", loops.HousekeepingPath, b, err)
	}
}
