package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// freshBuilderModel is the model the agent's commits name in their
// Aayudha-Model trailer.
const freshBuilderModel = "claude-sonnet-4-5"

// freshShoutBody is a Story with one criterion for the inspect loop.
const freshShoutBody = `Hello should be able to shout.

## Completion Goal
1. Shout greets a name in capitals
`

const freshShout = `package greet

import "strings"

// Shout greets name in capitals.
func Shout(name string) string { return strings.ToUpper(Hello(name)) }
`

const freshShoutTest = `package greet

import "testing"

func TestShout(t *testing.T) {
	if got := Shout("ada"); got != "HELLO, ADA!" {
		t.Errorf("Shout(\"ada\") = %q", got)
	}
}
`

// freshInspectPR runs the Story loop on acme/fresh up to the merge gate:
// ready, an agent's branch with the code, its test and the evidence map,
// the pull request, the gate's run. It returns the pull request and head.
func freshInspectPR(t *testing.T, f *freshLoop, files map[string]string) (pr int, head string) {
	t.Helper()
	return freshStoryPR(t, f, freshShoutBody, files)
}

// freshStoryPR is freshInspectPR for a Story of the given body.
func freshStoryPR(t *testing.T, f *freshLoop, body string, files map[string]string) (pr int, head string) {
	t.Helper()
	n := f.newIssue("Story: Hello shouts", body, "type:story")
	if code, out := f.personWithPresence("ready", itoa(n)); code != tui.ExitOK {
		t.Fatalf("aayu ready %d exited %d:\n%s", n, code, out)
	}
	agent := f.agentClone()
	branch := fmt.Sprintf("story/%d-shout", n)
	all := map[string]string{
		"greet/shout.go":                            freshShout,
		"greet/shout_test.go":                       freshShoutTest,
		fmt.Sprintf(".aayudha/evidence/%d.toml", n): "[[criterion]]\nid = 1\ntests = [\"greet:TestShout\"]\n",
	}
	for k, v := range files {
		all[k] = v
	}
	// The builder names its model (a family other than the sandbox
	// reviewer's), so a review can reach rung A (model/inspect.Cap).
	head = agent.commit(branch, fmt.Sprintf("greet: Shout\n\nRefs #%d\n\nAayudha-Model: %s", n, freshBuilderModel), all)
	agent.push(branch)
	pr = f.openPR(branch, "main", "Hello shouts", fmt.Sprintf("Refs #%d", n))
	if run := f.waitForGate(head); run.GetConclusion() != "success" {
		t.Fatalf("the merge gate's run on %s concluded %s:\n%s", head, run.GetConclusion(), f.logs.String())
	}
	return pr, head
}

// TestFreshInspectWithNoReviewerAsksForThePersonsReview: on a repository
// aayu init set up, with no [inspect] reviewer, the merge gate's inspect
// job judges the agent's pull request and its comment job posts
// aayudha/inspect at the human rung from the gate's own run, so the
// person's inbox shows "PR that needs your review"; the gate's one comment
// lists the criterion against its mapped test; aayu inspect PR shows the
// judgement; aayu inspect PR --approve --note records the review as the
// inbox's "approve its head" does, and the card is gone.
func TestFreshInspectWithNoReviewerAsksForThePersonsReview(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	pr, head := freshInspectPR(t, f, nil)

	c := f.gateComment(pr)
	for _, want := range []string{"### aayudha/inspect: human rung: no reviewer app or paid model could review this head",
		"status pending · reviewer none · spend none", "Criterion 1 (`greet:TestShout`): the mapped tests ran, passed, exist at the head and can fail"} {
		if !strings.Contains(c, want) {
			t.Errorf("the gate's comment on #%d lacks %q:\n%s", pr, want, c)
		}
	}
	code, out := f.aayu(f.person(), "", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(out, "PR that needs your review") || !strings.Contains(out, "#"+itoa(pr)) {
		t.Fatalf("aayu inbox --list after the gate exited %d, want a needs-review card for #%d:\n%s", code, pr, out)
	}
	code, out = f.aayu(f.person(), "", "inspect", itoa(pr))
	if code != tui.ExitOK || !strings.Contains(out, "inspect: pending — human rung: no reviewer app or paid model could review this head") ||
		!strings.Contains(out, "criterion 1: Shout greets a name in capitals") || !strings.Contains(out, "tests: greet:TestShout") {
		t.Fatalf("aayu inspect %d exited %d:\n%s", pr, code, out)
	}

	code, out = f.inspectApprove(pr, "read TestShout; it asserts the capitals")
	if code != tui.ExitOK || !strings.Contains(out, "approved: head "+head) {
		t.Fatalf("aayu inspect %d --approve exited %d:\n%s", pr, code, out)
	}
	if rec := f.ledgerFile(fmt.Sprintf("reviews/%d/%s.json", pr, head)); !strings.Contains(rec, `"founder"`) || !strings.Contains(rec, head) {
		t.Errorf("the ledger's review record of %s:\n%s", head, rec)
	}
	if code, out = f.aayu(f.person(), "", "inbox", "--list"); code != tui.ExitOK || strings.Contains(out, "PR that needs your review") {
		t.Errorf("the needs-review card is still there after the approval (exit %d):\n%s", code, out)
	}
	// Approving again is refused in words: nothing waits for it.
	if code, out = f.inspectApprove(pr, "again"); code != tui.ExitRefused || !strings.Contains(out, "already approved") {
		t.Errorf("a second approval exited %d:\n%s", code, out)
	}
}

// inspectApprove runs aayu inspect PR --approve --note as the person with
// no terminal, approving the presence check's device code when it comes,
// and returns once aayu ends.
func (f *freshLoop) inspectApprove(pr int, note string) (int, string) {
	f.t.Helper()
	a := startAayu(f.t, f.person(), f.args("inspect", itoa(pr), "--approve", "--note", note)...)
	if m := a.waitFor(deviceCodeLine + `|approved: head|refused:|aayu inspect: `); m[1] != "" {
		approveOnSandbox(f.t, m[1], m[2], "founder")
	}
	code := a.exit()
	return code, a.out.String()
}

// TestFreshInspectWithTheSandboxReviewerRecordsTheRung: once a merged
// policy pull request sets [inspect] reviewer to the sandbox's
// OpenAI-compatible endpoint, the merge gate's inspect job asks it about
// each criterion, with the repository secret as its key; the gate's one
// comment records rung A with the reviewer's reasons and its spend, and
// aayudha/inspect is that rung, not the human rung: no review card.
func TestFreshInspectWithTheSandboxReviewerRecordsTheRung(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	f.setReviewer()

	pr, _ := freshInspectPR(t, f, nil)
	c := f.gateComment(pr)
	for _, want := range []string{"### aayudha/inspect: rung A: every criterion's mapped tests show its promise \\(1 criterion\\)",
		"status success · reviewer openai " + sandbox.ReviewerModel + " at ", " tokens in, ",
		"Criterion 1 (`greet:TestShout`): shown, rung A", "reviewer: The mapped tests assert the promise directly and fail when it breaks.",
		"builder " + freshBuilderModel} {
		if !strings.Contains(c, want) {
			t.Errorf("the gate's comment on #%d lacks %q:\n%s", pr, want, c)
		}
	}
	code, out := f.aayu(f.person(), "", "inspect", itoa(pr))
	if code != tui.ExitOK || !strings.Contains(out, "inspect: success — rung A:") || !strings.Contains(out, "reviewer: rung A, shown: The mapped tests assert") {
		t.Errorf("aayu inspect %d exited %d:\n%s", pr, code, out)
	}
	if code, out = f.aayu(f.person(), "", "inbox", "--list"); code != tui.ExitOK || strings.Contains(out, "PR that needs your review") {
		t.Errorf("a rung-A head made a review card (exit %d):\n%s", code, out)
	}
}

// setReviewer merges a policy pull request that sets [inspect] reviewer to
// the sandbox's OpenAI-compatible endpoint, as the founder would.
func (f *freshLoop) setReviewer() {
	f.t.Helper()
	founder := f.agentClone()
	founder.auth.Password = "sandbox-founder"
	cfg, err := os.ReadFile(filepath.Join(founder.dir, ".aayudha", "config.toml"))
	if err != nil {
		f.t.Fatal(err)
	}
	policy := string(cfg) + fmt.Sprintf("\n[inspect]\nreviewer = \"openai\"\nendpoint = %q\nmodel = %q\n", f.base+sandbox.ReviewerPath, sandbox.ReviewerModel)
	founder.commit("policy/inspect-reviewer", "policy: inspect asks the sandbox's reviewer", map[string]string{".aayudha/config.toml": policy})
	founder.push("policy/inspect-reviewer")
	f.merge(f.openPR("policy/inspect-reviewer", "main", "inspect asks a reviewer", "The sandbox's reviewer model."))
}

// TestFreshInspectStopsAfterThreeRoundsThatDoNotConverge: with the sandbox
// reviewer, an agent's test that cannot fail is judged not shown on each of
// three distinct heads; the first two are rounds that did not converge,
// the third stops the review in seed 001's words, and the person's inbox
// shows "PR whose review stopped".
func TestFreshInspectStopsAfterThreeRoundsThatDoNotConverge(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	f.setReviewer()
	n := f.newIssue("Story: Hello shouts", freshShoutBody, "type:story")
	if code, out := f.personWithPresence("ready", itoa(n)); code != tui.ExitOK {
		t.Fatalf("aayu ready %d exited %d:\n%s", n, code, out)
	}
	agent := f.agentClone()
	branch := fmt.Sprintf("story/%d-shout", n)
	pr := 0
	for round := 1; round <= 3; round++ {
		// A test that calls Shout and never fails: it shows nothing.
		test := fmt.Sprintf("package greet\n\nimport \"testing\"\n\nfunc TestShout(t *testing.T) {\n\t_ = Shout(\"round %d\")\n}\n", round)
		head := agent.commit(branch, fmt.Sprintf("greet: Shout, round %d\n\nRefs #%d", round, n), map[string]string{
			"greet/shout.go": freshShout, "greet/shout_test.go": test,
			fmt.Sprintf(".aayudha/evidence/%d.toml", n): "[[criterion]]\nid = 1\ntests = [\"greet:TestShout\"]\n",
		})
		agent.push(branch)
		if pr == 0 {
			pr = f.openPR(branch, "main", "Hello shouts", fmt.Sprintf("Refs #%d", n))
		}
		f.waitForGate(head)
		c := f.gateComment(pr)
		want := fmt.Sprintf("rung C: round %d of 3 did not converge; not shown: criterion 1", round)
		if round == 3 {
			want = "review stopped: 3 rounds on distinct heads did not converge; step back and rethink the approach"
		}
		if !strings.Contains(c, want) || !strings.Contains(c, "TestShout has no failure path") {
			t.Fatalf("round %d: the gate's comment on #%d lacks %q:\n%s", round, pr, want, c)
		}
	}
	code, out := f.aayu(f.person(), "", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(out, "PR whose review stopped") || strings.Contains(out, "PR that needs your review") {
		t.Errorf("aayu inbox --list after three rounds exited %d, want a review-stopped card for #%d:\n%s", code, pr, out)
	}
}
