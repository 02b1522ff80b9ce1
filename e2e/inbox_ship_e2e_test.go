package e2e

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestInboxPlainShipThenBackEveryLineTakesEffect: a plain inbox session
// opens ship on the ready card, whose confirmation is answered by a typed
// y; ship merges, comes back to the inbox where it was (the shipped card
// gone, the next card asked about), and the next typed line still takes
// effect. No line is swallowed at either screen change.
func TestInboxPlainShipThenBackEveryLineTakesEffect(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	a := shipFromPlainInbox(t, home)
	a.waitFor(`result: exit 0\naayu ship 4 ended: shipped(?s:.*)card 4 of \d+: PR that needs your review #6\. Choose`)
	a.send("s")
	a.waitFor(`result: exit 0\n(?s:.*)skipped: PR that needs your review #6\.\ncard 5 of \d+: .*\. Choose`)
	a.send("q")
	code := a.exit()
	out := a.out.String()
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if strings.Contains(out, "not taken") || strings.Contains(out, "refused:") || strings.Contains(out, "you did not answer yes") {
		t.Errorf("a typed line was lost or misread:\n%s", out)
	}
	if merged, n := prState(t, sandboxState(t, home), 4); !merged || n != 1 {
		t.Errorf("after y, #4 merged=%v with %d bypass comments; want merged with one", merged, n)
	}
}

// shipFromPlainInbox starts a plain inbox on the sandbox as the founder,
// approves its presence check, skips the two Decisions, picks "ship it" on
// the ready card #4 and answers its confirmation y.
func shipFromPlainInbox(t *testing.T, home string) *liveAayu {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, "--sandbox", "--plain", "inbox")
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`card 1 of \d+: Decision #1\. Choose`)
	a.send("s")
	a.waitFor(`card 2 of \d+: Decision #2\. Choose`)
	a.send("s")
	a.waitFor(`card 3 of \d+: Story PR ready to ship #4\. Choose`)
	a.send("1")
	// The inbox's presence check covers the ships made from it.
	a.waitFor(`Type y and Enter to write all of these`)
	a.send("y")
	return a
}
