package ship

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// TestShipConfirmationShowsTestFramingWarning: the gate pack's warning that
// the pull request adds a TestMain is shown, neutralised, before the yes in
// both renderers.
func TestShipConfirmationShowsTestFramingWarning(t *testing.T) {
	plan := demoPlan
	plan.Warnings = []untrusted.Text{"test-framing: The pull request adds or changes code that runs around the mapped tests: TestMain in deductible/main_test.go (added)\x1b[2J\u202e."}
	const want = "Warning from the pack, test-framing: The pull request adds or changes code that runs around the mapped tests: TestMain in deductible/main_test.go (added)"
	plain := strings.Join(confirmLines(plan), "\n")
	if !strings.Contains(plain, want) {
		t.Errorf("the plain confirmation lacks the warning:\n%s", plain)
	}
	m := &Model{c: tui.Common{Width: 80, Height: 30, Styles: tui.NewStyles(true)}}
	m.question.confirm = &plan
	view := ansi.Strip(strings.Join(m.confirmView(80), "\n"))
	if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
		t.Errorf("the confirmation lacks the warning:\n%s", view)
	}
	for _, out := range []string{plain, view} {
		if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\u202e") {
			t.Errorf("the warning reached the terminal raw: %q", out)
		}
	}
	if strings.Contains(strings.Join(confirmLines(demoPlan), "\n"), "Warning from the pack") {
		t.Error("a plan without warnings shows one")
	}
}
