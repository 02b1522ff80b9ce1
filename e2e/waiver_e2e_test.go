package e2e

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/waiver"
	"github.com/aayudha/aayu/tui"
)

// waiverLedger is the ledger's tip and the pull request's state, which a
// refused ship must leave as they were.
func waiverLedger(t *testing.T, home string, pr int) (tip string, merged bool, bypasses int) {
	t.Helper()
	c := sandboxAs(t, home, "founder")
	defer closeSandboxes(t)
	ref, _, err := c.Git.GetRef(context.Background(), "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	merged, bypasses = prState(t, c, pr)
	return ref.GetObject().GetSHA(), merged, bypasses
}

// waiveWithoutTerminal runs `aayu --sandbox --plain waive ARGS…` as a
// person with no terminal: the presence check is approved as founder.
func waiveWithoutTerminal(t *testing.T, home string, args ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--plain", "waive"}, args...)...)
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	code := a.exit()
	return code, a.out.String()
}

// TestShipRefusesAFailingFloorWithoutAWaiver,
// TestShipRefusesAWaiverForAnotherHead and TestShipTakesAFloorWaivedForItsHead
// are one story on the demo's pull request 6, whose merge gate's pack
// verifies but whose coverage floor does not hold (5 of 7 lines, below
// 90): without a waiver ship refuses, naming aayu waive, and writes
// nothing; a waiver accepted for another head is refused with words and
// nothing written; aayu waive opens the Decision for this head, aayu
// decide accepts it (a one-way door, on the device code), and ship then
// merges, ship.json naming the Decision.
func TestShipTakesAFloorWaivedForItsHead(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	pr := sandbox.DemoPRReview
	tip, _, _ := waiverLedger(t, home, pr)

	t.Run("TestShipRefusesAFailingFloorWithoutAWaiver", func(t *testing.T) {
		code, out := refusedWithoutAsking(t, home, strconv.Itoa(pr), "--solo-bypass")
		if code != tui.ExitFloor || !strings.Contains(out, "floor coverage: no accepted waiver of floor coverage for head") ||
			!strings.Contains(out, "aayu waive 6 --floor coverage") {
			t.Fatalf("ship 6 with no waiver: exit %d:\n%s", code, out)
		}
		if now, merged, bypasses := waiverLedger(t, home, pr); now != tip || merged || bypasses != 0 {
			t.Fatalf("a refused ship wrote: ledger %s→%s, merged %v, %d bypass comments", tip, now, merged, bypasses)
		}
	})

	// A waiver Decision for another head (the demo's pull request 4's),
	// opened on GitHub as an agent could, and accepted by the person.
	c := sandboxAs(t, home, "founder")
	pull4, _, err := c.PullRequests.Get(context.Background(), "acme", "benefits", sandbox.DemoPRReady)
	if err != nil {
		t.Fatal(err)
	}
	other := pull4.GetHead().GetSHA()
	labels := []string{waiver.LabelDecision, waiver.Label}
	is, _, err := c.Issues.Create(context.Background(), "acme", "benefits", &github.IssueRequest{
		Title: github.String("Floor waiver for an old head"), Labels: &labels,
		Body: github.String(waiver.Body(waiver.Request{PR: pr, Head: other, Floor: "coverage", Why: "an older head"}))})
	if err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	otherN := strconv.Itoa(is.GetNumber())
	if code, out := decideWithoutTerminal(t, home, "y", otherN, "--accept", "1"); code != tui.ExitOK {
		t.Fatalf("decide %s --accept 1 (the other head's waiver): exit %d:\n%s", otherN, code, out)
	}
	git := home + "/.cache/aayu/sandbox/benefits.git"
	if rec, err := runCmd("git", "--git-dir", git, "show", "ledger:"+waiver.Path(pr, other, "coverage")); err != nil || !strings.Contains(rec, `"accepted_by": "founder"`) {
		t.Fatalf("accepting the waiver landed no record: %v\n%s", err, rec)
	}
	tip, _, _ = waiverLedger(t, home, pr)

	t.Run("TestShipRefusesAWaiverForAnotherHead", func(t *testing.T) {
		code, out := refusedWithoutAsking(t, home, strconv.Itoa(pr), "--solo-bypass")
		if code != tui.ExitFloor || !strings.Contains(out, "(Decision #"+otherN+") is for head "+other[:12]+", not this head") {
			t.Fatalf("ship 6 with a waiver for another head: exit %d:\n%s", code, out)
		}
		if now, merged, bypasses := waiverLedger(t, home, pr); now != tip || merged || bypasses != 0 {
			t.Fatalf("a refused ship wrote: ledger %s→%s, merged %v, %d bypass comments", tip, now, merged, bypasses)
		}
	})
	if t.Failed() {
		return
	}

	code, out := waiveWithoutTerminal(t, home, "6", "--floor", "coverage", "--why", "the specialist case is drilled by hand")
	m := regexp.MustCompile(`Opened Decision #([0-9]+): Floor waiver: coverage on #6 at ([0-9a-f]{12})`).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil || !strings.Contains(out, "aayu decide "+m[1]+" --accept 1") {
		t.Fatalf("waive 6: exit %d:\n%s", code, out)
	}
	if list := inboxList(t, home); !strings.Contains(list, "Decision #"+m[1]) {
		t.Errorf("the inbox does not list the waiver Decision #%s:\n%s", m[1], list)
	}
	code, out = decideWithoutTerminal(t, home, "y", m[1], "--accept", "1")
	if code != tui.ExitOK || !strings.Contains(out, "one-way door") || !strings.Contains(out, "a floor waiver also lands its record on the ledger") {
		t.Fatalf("decide %s --accept 1: exit %d:\n%s", m[1], code, out)
	}

	code, out = shipWithoutTerminal(t, home, "founder", "y", "6", "--solo-bypass")
	if code != tui.ExitOK || !strings.Contains(out, "floor coverage waived for head "+m[2]+" by Decision #"+m[1]+", accepted by @founder") {
		t.Fatalf("ship 6 after the waiver: exit %d:\n%s", code, out)
	}
	dir := regexp.MustCompile(`the record is on the ledger at (proof/5/[0-9a-f]{40}/authoritative)`).FindStringSubmatch(out)
	if dir == nil {
		t.Fatalf("no ledger path in:\n%s", out)
	}
	shipJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:"+dir[1]+"/ship.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Waivers []struct {
			Floor, Head string
			Decision    int
			AcceptedBy  string `json:"accepted_by"`
		} `json:"waivers"`
	}
	if err := json.Unmarshal([]byte(shipJSON), &rec); err != nil {
		t.Fatal(err)
	}
	// The pack viewer shows the shipped pack's floor as waived, naming the
	// Decision, by ship's own rule.
	code, out, errOut := runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "--plain", "pack", "5")
	if code != tui.ExitOK || !strings.Contains(out, "floor coverage: waived, waived by Decision #"+m[1]+", accepted by @founder") {
		t.Errorf("pack 5 after the waived ship: exit %d:\n%s%s", code, out, errOut)
	}
	if len(rec.Waivers) != 1 || rec.Waivers[0].Floor != "coverage" || strconv.Itoa(rec.Waivers[0].Decision) != m[1] || rec.Waivers[0].AcceptedBy != "founder" || !strings.HasPrefix(rec.Waivers[0].Head, m[2]) {
		t.Fatalf("ship.json does not name the waiver:\n%s", shipJSON)
	}
}

// TestWaiveRefusals: aayu waive refuses, in words and before any device
// code, what cannot be waived, and opens nothing: aayu's own lane and CI,
// a --head that is not the pull request's head now, a closed pull
// request, a floor that is not a floor's name; a missing reason is a
// usage mistake.
func TestWaiveRefusals(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	issues := func() int {
		c := sandboxAs(t, home, "founder")
		defer closeSandboxes(t)
		all, _, err := c.Issues.ListByRepo(context.Background(), "acme", "benefits", &github.IssueListByRepoOptions{State: "all", ListOptions: github.ListOptions{PerPage: 100}})
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	before := issues()
	why := []string{"--why", "drilled by hand"}
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		code int
		want string
	}{
		{"TestWaiveRefusesAayusOwnLane", map[string]string{"AAYU_AGENT": "1"}, append([]string{"waive", "6", "--floor", "coverage"}, why...), tui.ExitRefused, "this is aayu's own agent lane (AAYU_AGENT=1)"},
		{"TestWaiveRefusesCI", nil, append([]string{"--ci", "waive", "6", "--floor", "coverage"}, why...), tui.ExitRefused, "CI (--ci) has no person to approve it"},
		{"TestWaiveRefusesAnotherHead", nil, append([]string{"waive", "6", "--floor", "coverage", "--head", strings.Repeat("1", 40)}, why...), tui.ExitRefused, "--head 111111111111 is not pull request #6's head"},
		{"TestWaiveRefusesAClosedPullRequest", nil, append([]string{"waive", strconv.Itoa(sandbox.DemoPRMergedNoShip), "--floor", "coverage"}, why...), tui.ExitRefused, "is closed, and a waiver lets ship take an open pull request's head"},
		{"TestWaiveRefusesAFloorThatIsNoName", nil, append([]string{"waive", "6", "--floor", "Cover/age"}, why...), tui.ExitRefused, "is not a floor's name"},
		{"TestWaiveNeedsAReason", nil, []string{"waive", "6", "--floor", "coverage", "--why", " "}, tui.ExitUsage, "a waiver names the floor and why"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{"HOME": home}
			for k, v := range tc.vars {
				vars[k] = v
			}
			code, out, errOut := runAayuEnv(t, vars, append([]string{"--sandbox", "--plain"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Contains(out+errOut, "/login/device") {
				t.Fatalf("exit %d, want %d with %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
	if after := issues(); after != before {
		t.Fatalf("a refused waive opened an issue: %d issues, then %d", before, after)
	}
}
