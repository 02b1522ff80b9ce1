package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/waiver"
	"github.com/aayudha/aayu/tui"
)

// freshShoutUntested is Shout with a second function no test runs: the
// lines it adds leave the coverage floor (90 % of the changed lines) far
// from holding.
const freshShoutUntested = freshShout + `
// Whisper greets name in lower case, or says nothing for no name.
func Whisper(name string) string {
	s := strings.ToLower(Hello(name))
	if strings.TrimSpace(name) == "" {
		return "..."
	}
	return s
}
`

// gateStatus is the newest aayudha/merge-gate status on head: its state
// and description ("" when none).
func (f *freshLoop) gateStatus(head string) (state, desc string) {
	f.t.Helper()
	sts, _, err := f.client("founder").Repositories.ListStatuses(context.Background(), "acme", "fresh", head, &github.ListOptions{PerPage: 100})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, s := range sts {
		if s.GetContext() == "aayudha/merge-gate" {
			return s.GetState(), s.GetDescription()
		}
	}
	return "", ""
}

// TestFreshFloorWaiverReRunsTheGate: on a repository aayu init set up, an
// agent's pull request whose coverage floor does not hold gets a red
// merge gate (the run fails, aayudha/merge-gate is failure, the comment
// says no waiver stands). A waiver Decision for another head, accepted by
// the person, changes nothing: no run of that head is re-run, and the
// gate's run re-run by hand stays red, its comment naming that waiver as
// another head's; ship refuses in words (no run qualifies), merging
// nothing. Then the person
// opens the waiver for this head (aayu waive) and accepts it (aayu
// decide, the device code): accepting lands the record and re-runs the
// gate's run, whose next attempt is green, its comment showing the floor
// waived by the Decision; ship then merges, ship.json naming the waiver.
func TestFreshFloorWaiverReRunsTheGate(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()

	n := f.newIssue("Story: Hello shouts", freshShoutBody, "type:story")
	if code, out := f.personWithPresence("ready", itoa(n)); code != tui.ExitOK {
		t.Fatalf("aayu ready %d exited %d:\n%s", n, code, out)
	}
	agent := f.agentClone()
	branch := fmt.Sprintf("story/%d-shout", n)
	head := agent.commit(branch, fmt.Sprintf("greet: Shout and Whisper\n\nRefs #%d", n), map[string]string{
		"greet/shout.go": freshShoutUntested, "greet/shout_test.go": freshShoutTest,
		fmt.Sprintf(".aayudha/evidence/%d.toml", n): "[[criterion]]\nid = 1\ntests = [\"greet:TestShout\"]\n",
	})
	agent.push(branch)
	pr := f.openPR(branch, "main", "Hello shouts and whispers", fmt.Sprintf("Refs #%d", n))

	run := f.waitForGate(head)
	c := f.gateComment(pr)
	if state, _ := f.gateStatus(head); run.GetConclusion() != "failure" || state != "failure" ||
		!strings.Contains(c, "a floor does not hold (exit 3)") || !strings.Contains(c, "- coverage: not waived: no accepted waiver of floor coverage") {
		t.Fatalf("the gate on %s with its coverage floor failing: run %s, status %s, comment:\n%s\n%s", head, run.GetConclusion(), state, c, f.logs.String())
	}

	// A waiver for another head (the base's tip), opened on GitHub and
	// accepted by the person: nothing of this head's is re-run.
	main, _, err := f.client("founder").Git.GetRef(context.Background(), "acme", "fresh", "heads/main")
	if err != nil {
		t.Fatal(err)
	}
	other := main.GetObject().GetSHA()
	otherN := f.newIssue("Floor waiver for another head",
		waiver.Body(waiver.Request{PR: pr, Head: other, Floor: "coverage", Why: "another head"}), waiver.LabelDecision, waiver.Label)
	code, out := f.personWithPresence("decide", itoa(otherN), "--accept", "1")
	if code != tui.ExitOK || !strings.Contains(out, fmt.Sprintf("No merge gate has run on #%d's head %s, so none was re-run", pr, other[:12])) {
		t.Fatalf("decide %d --accept 1 (another head's waiver) exited %d:\n%s", otherN, code, out)
	}
	if again := f.waitForGate(head); again.GetRunAttempt() != 1 {
		t.Fatalf("a waiver for another head re-ran the gate on %s: attempt %d", head, again.GetRunAttempt())
	}
	// Re-run by hand, the gate reads that waiver and stays red, naming it.
	if _, err := f.client("founder").Actions.RerunWorkflowByID(context.Background(), "acme", "fresh", run.GetID()); err != nil {
		t.Fatal(err)
	}
	again := f.waitForGate(head)
	c = f.gateComment(pr)
	if state, _ := f.gateStatus(head); again.GetRunAttempt() != 2 || again.GetConclusion() != "failure" || state != "failure" ||
		!strings.Contains(c, fmt.Sprintf("- coverage: not waived: the ledger's waiver of floor coverage \\(Decision \\#%d\\) is for head %s, not this head %s", otherN, other[:12], head[:12])) {
		t.Fatalf("the gate re-run with a waiver for another head: attempt %d %s, status %s, comment:\n%s", again.GetRunAttempt(), again.GetConclusion(), state, c)
	}
	// No run of this head qualifies, so ship refuses and merges nothing.
	code, out = f.personWithPresence("ship", itoa(pr), "--solo-bypass")
	if code != tui.ExitRefused || !strings.Contains(out, fmt.Sprintf("passed over run %d (pull_request_target): failed", run.GetID())) ||
		!strings.Contains(out, "nothing qualifies: no successful pull_request_target run") {
		t.Fatalf("ship %d with a waiver for another head exited %d:\n%s", pr, code, out)
	}
	if p, _, err := f.client("founder").PullRequests.Get(context.Background(), "acme", "fresh", pr); err != nil || p.GetMerged() {
		t.Fatalf("a refused ship merged #%d (%v)", pr, err)
	}

	// The person's waiver of this head: accepting it re-runs the gate.
	a := startAayu(t, f.person(), f.args("waive", itoa(pr), "--floor", "coverage", "--why", "Whisper is drilled by hand")...)
	dc := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, dc[1], dc[2], "founder")
	code = a.exit()
	out = a.out.String()
	m := regexp.MustCompile(`Opened Decision #([0-9]+): Floor waiver: coverage on #` + itoa(pr)).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("aayu waive %d exited %d:\n%s", pr, code, out)
	}
	code, out = f.personWithPresence("decide", m[1], "--accept", "1")
	if code != tui.ExitOK || !strings.Contains(out, fmt.Sprintf("The merge gate's run %d on #%d's head %s was asked to run again", run.GetID(), pr, head[:12])) {
		t.Fatalf("decide %s --accept 1 exited %d:\n%s", m[1], code, out)
	}
	rerun := f.waitForGate(head)
	c = f.gateComment(pr)
	state, desc := f.gateStatus(head)
	if rerun.GetID() != run.GetID() || rerun.GetRunAttempt() != 3 || rerun.GetConclusion() != "success" || state != "success" ||
		!strings.Contains(desc, "coverage by Decision #"+m[1]) || !strings.Contains(c, "`waived` by Decision #"+m[1]) ||
		!strings.Contains(c, "- coverage: `waived`, waived by Decision \\#"+m[1]+", accepted by \\@founder") {
		t.Fatalf("the gate's re-run on %s: run %d attempt %d %s, status %s %q, comment:\n%s\n%s", head, rerun.GetID(), rerun.GetRunAttempt(),
			rerun.GetConclusion(), state, desc, c, f.logs.String())
	}

	code, out = f.personWithPresence("ship", itoa(pr), "--solo-bypass")
	if code != tui.ExitOK || !strings.Contains(out, fmt.Sprintf("floor coverage waived for head %s by Decision #%s, accepted by @founder", head[:12], m[1])) {
		t.Fatalf("ship %d after the waiver exited %d:\n%s", pr, code, out)
	}
	if rec := f.ledgerFile(fmt.Sprintf("proof/%d/%s/authoritative/ship.json", n, head)); !strings.Contains(rec, `"decision": `+m[1]) {
		t.Errorf("ship.json does not name the waiver's Decision #%s:\n%s", m[1], rec)
	}
}
