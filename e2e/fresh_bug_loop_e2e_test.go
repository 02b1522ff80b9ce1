package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

// freshBugBody is a Bug whose Plan touches a never layer: the fix names its
// package's layer in LAYERS.md (L09).
const freshBugBody = `Hello greets a name made only of spaces as if it were a name.

## Completion Goal
1. Hello greets the world when the name is only spaces

## Plan
- greet
- ` + "`LAYERS.md`" + `: name the greet layer (L02)
`

// freshHelloFixed is the Bug's fix: a blank name is no name.
const freshHelloFixed = `// Package greet says hello.
package greet

import "strings"

// Hello greets name; a name of only spaces is no name.
func Hello(name string) string {
	if strings.TrimSpace(name) == "" {
		name = "world"
	}
	return "Hello, " + name + "!"
}
`

// freshHelloBlankTest fails on the base commit (Hello("  ") greets the
// spaces) and passes on the fix: the Bug's red on base.
const freshHelloBlankTest = `package greet

import "testing"

func TestHelloBlank(t *testing.T) {
	if got := Hello("  "); got != "Hello, world!" {
		t.Errorf("Hello(\"  \") = %q", got)
	}
}
`

// TestFreshBugLoopNeedsThePlanReview: the Bug loop on acme/fresh, right
// after aayu init --yes and its pull request merged, for a Bug whose fix
// touches a never layer (LAYERS.md, L09): aayu ready freezes its goal; an
// agent lane clones over the sandbox's smart HTTP, commits the fix, a test
// that fails on the base and passes on the head, and the evidence map,
// pushes fix/N-… and opens the pull request through the REST API; the
// runner runs the merge gate (tests, coverage, red on base) and it
// comments; aayu ship PR --solo-bypass refuses and names aayu plan N
// --solo-bypass as the next step; aayu plan N --solo-bypass shows L09 and,
// after the presence check and the yes, posts the Solo-mode bypass:
// comment on the Bug and lands specs/N/plan-review.json, which aayu audit
// counts and a second run leaves alone; aayu ship PR --solo-bypass with its
// yes then merges: the ledger holds the authoritative pack and ship.json,
// whose plan_review carries the plan record, and the Bug is status:merged.
func TestFreshBugLoopNeedsThePlanReview(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()

	n := f.newIssue("Bug: Hello greets a blank name", freshBugBody, "type:bug")
	if code, out := f.personWithPresence("ready", itoa(n)); code != tui.ExitOK || !strings.Contains(out, "frozen: #"+itoa(n)) {
		t.Fatalf("aayu ready %d exited %d:\n%s", n, code, out)
	}

	// The agent lane: the fix, its red-on-base test, the evidence map, and
	// the greet layer named in LAYERS.md (never layer L09).
	agent := f.agentClone()
	layers, err := os.ReadFile(filepath.Join(agent.dir, "LAYERS.md"))
	if err != nil {
		t.Fatal(err)
	}
	branch := fmt.Sprintf("fix/%d-blank-name", n)
	head := agent.commit(branch, fmt.Sprintf("greet: a blank name is no name\n\nFixes #%d", n), map[string]string{
		"LAYERS.md":           string(layers) + "| L02 | greet | greet/** |\n",
		"greet/greet.go":      freshHelloFixed,
		"greet/blank_test.go": freshHelloBlankTest,
		fmt.Sprintf(".aayudha/evidence/%d.toml", n): "[[criterion]]\nid = 1\ntests = [\"greet:TestHelloBlank\"]\n",
	})
	agent.push(branch)
	pr := f.openPR(branch, "main", "A blank name is no name", fmt.Sprintf("Fixes #%d", n))

	run := f.waitForGate(head)
	if run.GetConclusion() != "success" {
		t.Fatalf("the merge gate's run on %s concluded %s:\n%s", head, run.GetConclusion(), f.logs.String())
	}
	if c := f.gateComment(pr); !strings.Contains(c, head[:7]) {
		t.Fatalf("no gate comment naming %s on #%d:\n%s", head[:7], pr, c)
	} else if !strings.Contains(c, "Criterion 1 (`greet:TestHelloBlank`): the mapped tests ran, passed, exist at the head and can fail") {
		// inspect found the Bug's test red on base in the pack.
		t.Errorf("inspect's judgement of the Bug's test on #%d:\n%s", pr, c)
	}

	// Before the plan review, ship refuses and names the next step.
	next := "aayu plan " + itoa(n) + " --solo-bypass"
	code, out := f.personWithPresence("ship", itoa(pr), "--solo-bypass")
	if code == tui.ExitOK || !strings.Contains(out, "never layer L09 needs a plan-time review") || !strings.Contains(out, "next: "+next) {
		t.Fatalf("ship before the plan review exited %d, want a refusal naming %q:\n%s", code, next, out)
	}

	code, out = f.personWithPresence("plan", itoa(n), "--solo-bypass")
	if code != tui.ExitOK || !strings.Contains(out, "L09 config:") || !strings.Contains(out, "LAYERS.md (planned)") ||
		!strings.Contains(out, "LAYERS.md (changed in #"+itoa(pr)+")") || !strings.Contains(out, "/login/device") || !strings.Contains(out, "bypassed: the plan of #"+itoa(n)) {
		t.Fatalf("%s exited %d:\n%s", next, code, out)
	}
	recJSON := f.ledgerFile(pass.PlanRecordPath(n))
	rec, err := pass.ParsePlanRecord([]byte(recJSON))
	if err != nil || rec.Kind != "solo-bypass" || rec.Reviewer != "none (solo mode)" || rec.ApprovedBy != "" || rec.RecordedBy != "founder" || !rec.Covers([]string{"L09"}) {
		t.Fatalf("the plan record: %v\n%s", err, recJSON)
	}
	comments, _, err := f.client("founder").Issues.ListComments(context.Background(), "acme", "fresh", n, nil)
	if err != nil || len(comments) == 0 || !strings.HasPrefix(comments[len(comments)-1].GetBody(), "Solo-mode bypass:") || comments[len(comments)-1].GetID() != rec.CommentID() {
		t.Fatalf("the Bug's comments: %v %+v", err, comments)
	}

	// The bypass is counted at once: aayu audit lists it by its Bug.
	if code, out = f.aayu(f.person(), "", "audit"); code != tui.ExitOK ||
		!strings.Contains(out, "bypass: Story #"+itoa(n)+" by @founder through aayu plan --solo-bypass") {
		t.Fatalf("audit after the plan bypass exited %d:\n%s", code, out)
	}
	// A second run writes nothing.
	if code, out = f.personWithPresence("plan", itoa(n), "--solo-bypass"); code != tui.ExitOK || !strings.Contains(out, "Already recorded") {
		t.Fatalf("plan again exited %d:\n%s", code, out)
	}

	// Ship now finds the plan review, passes on the bypass and merges.
	code, out = f.personWithPresence("ship", itoa(pr), "--solo-bypass")
	if code != tui.ExitOK || strings.Contains(out, "needs a plan-time review") || !strings.Contains(out, "human pass: passed — solo-mode bypass by @founder") {
		t.Fatalf("aayu ship %d --solo-bypass after the plan review exited %d:\n%s", pr, code, out)
	}
	dir := fmt.Sprintf("proof/%d/%s/authoritative/", n, head)
	var pack struct {
		Authority struct {
			Kind string `json:"kind"`
		} `json:"authority"`
		PR int `json:"pr"`
	}
	if b := f.ledgerFile(dir + "pack.json"); json.Unmarshal([]byte(b), &pack) != nil || pack.Authority.Kind != "authoritative" || pack.PR != pr {
		t.Errorf("the ledger's pack for %s is not the authoritative pack of #%d:\n%s", head[:7], pr, b)
	}
	var ship struct {
		PlanReview struct {
			Required bool     `json:"required"`
			Layers   []string `json:"layers"`
			Record   string   `json:"record"`
			Bypass   *struct {
				RecordedBy string `json:"recorded_by"`
				CommentURL string `json:"comment_url"`
			} `json:"bypass"`
		} `json:"plan_review"`
	}
	b := f.ledgerFile(dir + "ship.json")
	if err := json.Unmarshal([]byte(b), &ship); err != nil {
		t.Fatalf("ship.json beside the pack on the ledger (%v):\n%s\n%s", err, b, out)
	}
	if p := ship.PlanReview; !p.Required || !slices.Contains(p.Layers, "L09") || p.Record != pass.PlanRecordPath(n) ||
		p.Bypass == nil || p.Bypass.RecordedBy != "founder" || p.Bypass.CommentURL != rec.CommentURL {
		t.Errorf("ship.json's plan_review does not carry the plan record %s:\n%s", recJSON, b)
	}
	if l := f.labels(n); !slices.Contains(l, "status:merged") {
		t.Errorf("the Bug's labels after ship: %v, want status:merged", l)
	}
}
