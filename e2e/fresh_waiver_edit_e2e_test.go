package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/tui"
)

// TestFreshWaiverEditedAfterAcceptanceIsRefused: on a repository aayu
// init set up, the person opens a floor waiver for an agent's pull request
// whose coverage floor fails and accepts it (aayu waive, aayu decide), and
// the gate's re-run goes green. Then the agent's token edits the accepted
// Decision's body through the REST API, as any account with write access
// can, without running aayu. The person's acceptance carries the hash of
// the text they accepted, so the edited Decision waives nothing: ship
// refuses in words and merges nothing, and the gate's next run is red,
// its comment saying the Decision was edited after it was accepted. The
// person reopening it and accepting it again as it now reads waives it.
func TestFreshWaiverEditedAfterAcceptanceIsRefused(t *testing.T) {
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
	if run.GetConclusion() != "failure" {
		t.Fatalf("the gate on %s with its coverage floor failing: %s\n%s", head, run.GetConclusion(), f.logs.String())
	}

	a := startAayu(t, f.person(), f.args("waive", itoa(pr), "--floor", "coverage", "--why", "Whisper is drilled by hand")...)
	dc := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, dc[1], dc[2], "founder")
	code := a.exit()
	out := a.out.String()
	m := regexp.MustCompile(`Opened Decision #([0-9]+): Floor waiver: coverage on #` + itoa(pr)).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("aayu waive %d exited %d:\n%s", pr, code, out)
	}
	if code, out = f.personWithPresence("decide", m[1], "--accept", "1"); code != tui.ExitOK {
		t.Fatalf("decide %s --accept 1 exited %d:\n%s", m[1], code, out)
	}
	if green := f.waitForGate(head); green.GetRunAttempt() != 2 || green.GetConclusion() != "success" {
		t.Fatalf("the gate's re-run after the waiver: attempt %d %s\n%s", green.GetRunAttempt(), green.GetConclusion(), f.logs.String())
	}

	// The agent's token rewords the accepted Decision: its reason, and a
	// line after it, as an agent would to stretch what was waived.
	ctx := context.Background()
	bot := f.client("agent-bot")
	decision, _ := strconv.Atoi(m[1])
	is, _, err := bot.Issues.Get(ctx, "acme", "fresh", decision)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(is.GetBody(), "Whisper is drilled by hand", "every later head is fine too", 1)
	if edited == is.GetBody() {
		t.Fatalf("the waiver's body does not quote its reason:\n%s", is.GetBody())
	}
	if _, _, err := bot.Issues.Edit(ctx, "acme", "fresh", is.GetNumber(), &github.IssueRequest{Body: &edited}); err != nil {
		t.Fatalf("the agent's token editing Decision #%s: %v", m[1], err)
	}
	refusal := fmt.Sprintf("Decision #%s was edited after it was accepted", m[1])

	code, out = f.personWithPresence("ship", itoa(pr), "--solo-bypass")
	if code != tui.ExitFloor || !strings.Contains(out, "floor coverage: "+refusal) || !strings.Contains(out, "aayu decide "+m[1]+" --accept 1") {
		t.Fatalf("ship %d after the agent edited the waiver exited %d:\n%s", pr, code, out)
	}
	if p, _, err := f.client("founder").PullRequests.Get(ctx, "acme", "fresh", pr); err != nil || p.GetMerged() {
		t.Fatalf("a refused ship merged #%d (%v)", pr, err)
	}

	// The gate, run again on the same head, reads the edited Decision and
	// turns red, naming the edit.
	if _, err := f.client("founder").Actions.RerunWorkflowByID(ctx, "acme", "fresh", run.GetID()); err != nil {
		t.Fatal(err)
	}
	again := f.waitForGate(head)
	c := f.gateComment(pr)
	if state, _ := f.gateStatus(head); again.GetRunAttempt() != 3 || again.GetConclusion() != "failure" || state != "failure" ||
		!strings.Contains(c, fmt.Sprintf("- coverage: not waived: Decision \\#%s was edited after it was accepted", m[1])) {
		t.Fatalf("the gate re-run after the edit: attempt %d %s, status %s, comment:\n%s\n%s", again.GetRunAttempt(), again.GetConclusion(), state, c, f.logs.String())
	}

	// The refusal's next step: the person reopens the Decision, reads it
	// as it now reads, and accepts it again; that acceptance carries the
	// new text's hash, the gate's next run is green, and ship merges.
	if _, _, err := f.client("founder").Issues.Edit(ctx, "acme", "fresh", decision, &github.IssueRequest{State: github.String("open")}); err != nil {
		t.Fatal(err)
	}
	if code, out = f.personWithPresence("decide", m[1], "--accept", "1"); code != tui.ExitOK {
		t.Fatalf("decide %s --accept 1 after reopening exited %d:\n%s", m[1], code, out)
	}
	if green := f.waitForGate(head); green.GetRunAttempt() != 4 || green.GetConclusion() != "success" {
		t.Fatalf("the gate after the person accepted the edited text: attempt %d %s\n%s", green.GetRunAttempt(), green.GetConclusion(), f.gateComment(pr))
	}
	if code, out = f.personWithPresence("ship", itoa(pr), "--solo-bypass"); code != tui.ExitOK {
		t.Fatalf("ship %d after the person accepted the edited text exited %d:\n%s", pr, code, out)
	}
}
