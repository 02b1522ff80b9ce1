package cli

import (
	"regexp"
	"strings"
	"testing"

	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui"
)

// TestInboxPlainResultBeforeQuestionGolden is a plain inbox session on the
// sandbox in which a background write lands after the next card's question
// was asked: its result is printed, then that question again, so the last
// line is always what the next typed line answers; and `list` printed after
// the card left keeps every card's number.
func TestInboxPlainResultBeforeQuestionGolden(t *testing.T) {
	t.Parallel()
	a := startAayu(t, map[string]string{"HOME": t.TempDir()}, "--sandbox", "--plain", "inbox")
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`card 1 of \d+: Decision #1\. Choose`)
	a.send("enter") // the recommendation: it writes in the background
	// The write starts and card 2 is asked in the same step, so its result
	// always lands after that question: the question comes again under it.
	a.waitFor(`writing in the background[^\n]*\ncard 2 of \d+: Decision #2\. Choose[^\n]*\ndone: Decision #1[^\n]*\ncard 2 of \d+: Decision #2\. Choose`)
	a.send("list")
	a.waitFor(`(?s)done: Decision #1.*\ncard 2: Decision #2.*\ncard 2 of \d+: Decision #2\. Choose[^\n]*\n$`)
	a.send("q")
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, a.out.String())
	}
	out := a.out.String()
	if i := strings.Index(out, "done: Decision #1"); i < 0 || regexp.MustCompile(`\ncard 1: `).MatchString(out[i:]) {
		t.Errorf("the list printed after Decision #1 left renumbered the cards:\n%s", out)
	}
	xgolden.RequireEqual(t, scrubRun(out))
}
