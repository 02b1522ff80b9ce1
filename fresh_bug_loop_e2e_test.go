package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

// freshAayu runs `aayu --sandbox --repo acme/fresh --plain ARGS…` as a
// person with no terminal: the presence check, when it comes, is approved
// on the sandbox's device page as founder, then the question (if it comes)
// is answered.
func freshAayu(t *testing.T, home, answer string, args ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--repo", "acme/fresh", "--plain"}, args...)...)
	if m := a.waitFor(deviceCodeLine + `|result: exit \d|Nothing was done`); m[1] != "" {
		approveOnSandbox(t, m[1], m[2], "founder")
	}
	a.waitFor(`Type y and Enter|result: exit \d|Nothing was done`)
	if answer != "" && strings.Contains(a.out.String(), "Type y and Enter") {
		a.send(answer)
		a.waitFor(`result: exit \d`)
	}
	return a.exit(), a.out.String()
}

// freshServer opens the saved sandbox as a server (saved again on
// closeSandboxes) and returns its URL, for an agent's git and REST calls.
func freshServer(t *testing.T, home string) string {
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
	return u
}

func freshClient(t *testing.T, base, login string) *github.Client {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const bugBody = "Every change to the layer table should be reviewed before it is built.\n\n" +
	"## Completion Goal\n1. LAYERS.md names the policy layer\n2. The policy package says what it guards\n\n" +
	"## Plan\n- `LAYERS.md`: add the policy layer (L04)\n- policy/\n"

// TestFreshBugLoopNeedsThePlanReview: on acme/fresh, right after `aayu init
// --yes` and its pull request merged, a Bug whose Plan touches a never layer
// (LAYERS.md, L09): `aayu ready` freezes its goal; an agent lane clones over
// the sandbox's smart HTTP, pushes fix/N-… with the change and opens the
// pull request through the REST API; `aayu ship PR --solo-bypass` refuses
// and names `aayu plan N --solo-bypass` as the next step; `aayu plan N
// --solo-bypass` shows L09 and, after the presence check and the yes,
// posts the Solo-mode bypass: comment on the Bug and lands
// specs/N/plan-review.json; ship then no longer asks for a plan review.
// (Ship's own pack gate still refuses here until the sandbox's runner runs
// acme/fresh's merge gate on fix/ branches, h-loop's part of issue 18.)
func TestFreshBugLoopNeedsThePlanReview(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the whole loop on the sandbox")
	}
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	if code, out := runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "init", "--yes"); code != tui.ExitOK {
		t.Fatalf("init --yes exited %d:\n%s", code, out)
	}
	mergeOnSandbox(t, home, "fresh", 1)

	base := freshServer(t, home)
	ctx := context.Background()
	founder := freshClient(t, base, "founder")
	labels := []string{"type:bug"}
	bug, _, err := founder.Issues.Create(ctx, "acme", "fresh", &github.IssueRequest{Title: github.String("Bug: the layer table misses the policy layer"),
		Body: github.String(bugBody), Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	n := bug.GetNumber()
	closeSandboxes(t)

	if code, out := freshAayu(t, home, "y", "ready", itoa(n)); code != tui.ExitOK || !strings.Contains(out, "frozen: #"+itoa(n)) {
		t.Fatalf("aayu ready %d exited %d:\n%s", n, code, out)
	}

	// The agent lane: in solo mode it writes with the person's token.
	base = freshServer(t, home)
	work := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "http.extraHeader=Authorization: Bearer sandbox-founder"}, args...)...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("clone", "-q", base+"/acme/fresh.git", ".")
	branch := "fix/" + itoa(n) + "-policy-layer"
	git("checkout", "-q", "-b", branch)
	layers, err := os.ReadFile(filepath.Join(work, "LAYERS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string]string{
		"LAYERS.md":                              string(layers) + "| L04 | policy | policy/** |\n",
		"policy/policy.go":                       "// Package policy holds the rules every change is judged by.\npackage policy\n",
		".aayudha/evidence/" + itoa(n) + ".toml": "# evidence for #" + itoa(n) + "\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, path), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "Name the policy layer\n\nFixes #"+itoa(n))
	git("push", "-q", "origin", branch)
	opened, _, err := freshClient(t, base, "founder").PullRequests.Create(ctx, "acme", "fresh", &github.NewPullRequest{
		Title: github.String("Name the policy layer"), Head: &branch, Base: github.String("main"), Body: github.String("Fixes #" + itoa(n))})
	if err != nil {
		t.Fatal(err)
	}
	pr := opened.GetNumber()
	closeSandboxes(t)

	// Before the plan review, ship refuses and names the next step.
	next := "aayu plan " + itoa(n) + " --solo-bypass"
	code, out := freshAayu(t, home, "", "ship", itoa(pr), "--solo-bypass")
	if code == tui.ExitOK || !strings.Contains(out, "never layer L09 needs a plan-time review") || !strings.Contains(out, "next: "+next) {
		t.Fatalf("ship before the plan review exited %d, want a refusal naming %q:\n%s", code, next, out)
	}

	code, out = freshAayu(t, home, "y", "plan", itoa(n), "--solo-bypass")
	if code != tui.ExitOK || !strings.Contains(out, "L09 config:") || !strings.Contains(out, "LAYERS.md (planned)") ||
		!strings.Contains(out, "LAYERS.md (changed in #"+itoa(pr)+")") || !strings.Contains(out, "/login/device") || !strings.Contains(out, "bypassed: the plan of #"+itoa(n)) {
		t.Fatalf("%s exited %d:\n%s", next, code, out)
	}
	c := freshClient(t, freshServer(t, home), "reader")
	b, err := ghx.ReadFile(ctx, c, "acme", "fresh", "ledger", pass.PlanRecordPath(n))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := pass.ParsePlanRecord(b)
	if err != nil || rec.Kind != "solo-bypass" || rec.Reviewer != "none (solo mode)" || rec.ApprovedBy != "" || rec.RecordedBy != "founder" || !rec.Covers([]string{"L09"}) {
		t.Fatalf("the plan record: %v\n%s", err, b)
	}
	comments, _, err := c.Issues.ListComments(ctx, "acme", "fresh", n, nil)
	if err != nil || len(comments) == 0 || !strings.HasPrefix(comments[len(comments)-1].GetBody(), "Solo-mode bypass:") || comments[len(comments)-1].GetID() != rec.CommentID() {
		t.Fatalf("the Bug's comments: %v %+v", err, comments)
	}
	closeSandboxes(t)

	// The bypass is counted at once: aayu audit lists it by its Bug.
	if code, out = runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "--plain", "audit"); code != tui.ExitOK ||
		!strings.Contains(out, "bypass: Story #"+itoa(n)+" by @founder through aayu plan --solo-bypass") {
		t.Fatalf("audit after the plan bypass exited %d:\n%s", code, out)
	}
	// A second run writes nothing.
	if code, out = freshAayu(t, home, "y", "plan", itoa(n), "--solo-bypass"); code != tui.ExitOK || !strings.Contains(out, "Already recorded") {
		t.Fatalf("plan again exited %d:\n%s", code, out)
	}
	// Ship now finds the plan review and its human pass passes on the
	// bypass; what is left is the merge gate's run for this head.
	code, out = freshAayu(t, home, "", "ship", itoa(pr), "--solo-bypass")
	if strings.Contains(out, "needs a plan-time review") || !strings.Contains(out, "human pass: passed — solo-mode bypass by @founder") {
		t.Fatalf("ship after the plan review (exit %d):\n%s", code, out)
	}
}
