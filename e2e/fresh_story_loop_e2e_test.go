package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

const freshStoryBody = `People leaving should be seen off.

## Completion Goal
1. Goodbye says goodbye to the name it is given
2. Goodbye says goodbye to the world when no name is given

## Plan
- greet
`

const freshGoodbye = `package greet

// Goodbye sees name off.
func Goodbye(name string) string {
	if name == "" {
		name = "world"
	}
	return "Goodbye, " + name + "!"
}
`

const freshGoodbyeTest = `package greet

import "testing"

func TestGoodbyeName(t *testing.T) {
	if got := Goodbye("Ada"); got != "Goodbye, Ada!" {
		t.Errorf("Goodbye(\"Ada\") = %q", got)
	}
}

func TestGoodbyeWorld(t *testing.T) {
	if got := Goodbye(""); got != "Goodbye, world!" {
		t.Errorf("Goodbye(\"\") = %q", got)
	}
}
`

// TestFreshStoryLoop: the whole Story loop on a repository aayu init just
// set up, driving only aayu commands, git over smart HTTP and the REST API
// an agent uses: init → the set-up pull request merged → a Story with a
// Completion Goal and a Plan → aayu ready → an agent lane clones, commits
// code, its test and the evidence map, pushes story/N-…, opens the pull
// request → the runner runs the gate and it comments → the person's aayu
// ship stops only for the pass and comments Ready to ship → the inbox lists
// the pull request ready to ship → aayu ship --solo-bypass with its yes →
// the ledger holds the authoritative pack and ship.json, and the Story is
// status:merged.
func TestFreshStoryLoop(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()

	story := f.newIssue("Story: say goodbye", freshStoryBody, "type:story")
	if code, out := f.aayu(f.agentEnv(), "", "ready", itoa(story)); code != tui.ExitRefused {
		t.Errorf("an agent lane's aayu ready exited %d, want refused:\n%s", code, out)
	}
	code, out := f.personWithPresence("ready", itoa(story))
	if code != tui.ExitOK || !strings.Contains(out, "frozen: #") {
		t.Fatalf("aayu ready %d exited %d:\n%s", story, code, out)
	}

	branch := fmt.Sprintf("story/%d-goodbye", story)
	agent := f.agentClone()
	head := agent.commit(branch, "greet: add Goodbye", map[string]string{
		"greet/goodbye.go": freshGoodbye, "greet/goodbye_test.go": freshGoodbyeTest,
		fmt.Sprintf(".aayudha/evidence/%d.toml", story): "[[criterion]]\nid = 1\ntests = [\"greet:TestGoodbyeName\"]\n\n" +
			"[[criterion]]\nid = 2\ntests = [\"greet:TestGoodbyeWorld\"]\n",
	})
	agent.push(branch)
	pr := f.openPR(branch, "main", "Say goodbye", fmt.Sprintf("Refs #%d", story))

	run := f.waitForGate(head)
	if run.GetConclusion() != "success" {
		t.Fatalf("the merge gate's run on %s concluded %s:\n%s", head, run.GetConclusion(), f.logs.String())
	}
	// The sandbox's log says where the run starts and ends, among the
	// request lines of its jobs (a person watches it in a terminal).
	startLine := fmt.Sprintf("runner: run %d for fresh#%d at %s started", run.GetID(), pr, head[:12])
	if logs := f.logs.String(); !strings.Contains(logs, startLine) || !regexp.MustCompile(fmt.Sprintf(`runner: run %d for fresh#%d at %s finished in \d+s: success`, run.GetID(), pr, head[:12])).MatchString(logs) {
		t.Errorf("the sandbox's log does not show the run's start (%q) and its end", startLine)
	}
	if c := f.gateComment(pr); !strings.Contains(c, head[:7]) {
		t.Fatalf("no gate comment naming %s on #%d:\n%s", head[:7], pr, c)
	} else if !attestedLine.MatchString(c) || !strings.Contains(c, "signed by `https://github.com/acme/fresh/.github/workflows/aayudha-merge-gate.yml@refs/heads/main`") {
		t.Errorf("the gate comment on #%d does not name the attestation that signs its pack:\n%s", pr, c)
	}

	// The person's ship at the terminal stops only for the pass, which in
	// solo mode is their bypass, taken only when asked for: it says so and
	// comments Ready to ship, which the inbox reads.
	code, out = f.personAtTerminal("ship", itoa(pr))
	if code != tui.ExitRefused || !strings.Contains(out, "aayu ship "+itoa(pr)+" --solo-bypass") {
		t.Fatalf("aayu ship %d without the bypass exited %d:\n%s", pr, code, out)
	}
	code, list := f.aayu(f.agentEnv(), "", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(list, "ready to ship") || !strings.Contains(list, "#"+itoa(pr)) {
		t.Fatalf("inbox --list exited %d and does not list #%d ready to ship:\n%s", code, pr, list)
	}

	code, out = f.personWithPresence("ship", itoa(pr), "--solo-bypass")
	if code != tui.ExitOK {
		t.Fatalf("aayu ship %d --solo-bypass exited %d:\n%s", pr, code, out)
	}
	pack := f.ledgerFile(fmt.Sprintf("proof/%d/%s/authoritative/pack.json", story, head))
	var doc struct {
		Authority struct {
			Kind string `json:"kind"`
		} `json:"authority"`
		PR int `json:"pr"`
	}
	if err := json.Unmarshal([]byte(pack), &doc); err != nil || doc.Authority.Kind != "authoritative" || doc.PR != pr {
		t.Errorf("the ledger's pack for %s is not the authoritative pack of #%d (%v):\n%s", head[:7], pr, err, pack)
	}
	if rec := f.ledgerFile(fmt.Sprintf("proof/%d/%s/authoritative/ship.json", story, head)); rec == "" {
		t.Errorf("no ship.json beside the pack on the ledger:\n%s", out)
	}
	if l := f.labels(story); !slices.Contains(l, "status:merged") {
		t.Errorf("the Story's labels after ship: %v, want status:merged", l)
	}
}

// TestInitClientIDProvesTheAppItNames: on a repository that names no
// presence-check App yet (acme/fresh, reached as GitHub is, not through
// --sandbox's own client), aayu init --identity --client-id cannot ask an
// App that is not named; it asks the App it is about to name for the code,
// and on the person's approval and yes sets the variable.
func TestInitClientIDProvesTheAppItNames(t *testing.T) {
	t.Parallel()
	srv, url := startSandboxServer(t)
	f := &freshLoop{t: t, srv: srv, base: url, home: t.TempDir()}
	code, out := f.personWithPresence("init", "--identity", "--client-id", sandbox.DeviceClientID)
	if code != tui.ExitOK || !strings.Contains(out, "Approved by @founder") {
		t.Fatalf("init --identity --client-id exited %d:\n%s", code, out)
	}
	if got := srv.DeviceClientIDsAsked(); !slices.Equal(got, []string{sandbox.DeviceClientID}) {
		t.Errorf("device codes were asked for %v, want the App being named", got)
	}
	v, _, err := f.client("founder").Actions.GetRepoVariable(context.Background(), "acme", "fresh", "AAYUDHA_DEVICE_CLIENT_ID")
	if err != nil || v.Value != sandbox.DeviceClientID {
		t.Errorf("the variable after init: %v %v", v, err)
	}
}
