package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// TestInboxEnterOnTheReadyCardFreezesTheGoal: in the plain inbox on the
// demo (a host agent's terminal, approved once by the device code), Enter
// on Story 17's Ready card opens aayu ready's own screen under the
// session's approval (no second code); its y freezes the goal, and back in
// the inbox the refresh has no Ready card left. PR 18's plan-review card
// names aayu plan 17 --solo-bypass.
func TestInboxEnterOnTheReadyCardFreezesTheGoal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	_, url := sandboxAt(t, filepath.Join(t.TempDir(), "sandbox"), sandbox.FaultSpec{})
	a := inboxAgainst(t, home, url)
	a.waitFor(`card 7: PR that needs a plan review #18 \(needs you\)`)
	for i := 1; i <= 5; i++ {
		a.waitFor(fmt.Sprintf(`card %d of \d+: [^\n]*\. Choose`, i))
		a.send("s")
	}
	a.waitFor(`card 6 of \d+: Story waiting for its Ready snapshot #17\. Choose`)
	a.send("")
	a.waitFor(`Opening the ready screen for #17 \(aayu ready 17\)\.`)
	a.waitFor(`Type y and Enter to write all of these`)
	a.send("y")
	a.waitFor(`frozen: #17 is status:ready with completion_goal_hash [0-9a-f]{64}\.`)
	a.waitFor(`(?s)Back from the ready screen for Story #17\..*Refreshed: the cards are as GitHub had them`)
	a.send("list")
	a.waitFor(`(?s)Refreshed.*card \d+: Replaced #13`)
	a.send("q")
	if c := a.exit(); c != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", c, a.out.String())
	}
	out := a.out.String()
	after := out[strings.LastIndex(out, "Refreshed"):]
	if strings.Contains(after, "Story waiting for its Ready snapshot #17") || strings.Contains(out, "needs a person's approval.\n  Command: aayu ready") {
		t.Errorf("after the freeze the Ready card stays, or aayu ready asked for a second code:\n%s", out)
	}
	if !strings.Contains(after, "PR that needs a plan review #18") {
		t.Errorf("the plan-review card went with the Ready card:\n%s", after)
	}
}
