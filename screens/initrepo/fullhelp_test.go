package initrepo

import (
	"context"
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestInitFullHelpGolden: ? while init asks whether to write its proposal,
// at 40, 80 and 120 columns.
func TestInitFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: freshPlan()}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps(false))
			m.Update(planMsg{plan: f.plan})
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestInitPlainHelpGolden: the plain ? while init asks.
func TestInitPlainHelpGolden(t *testing.T) {
	f := &fakeCore{plan: freshPlan()}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps(false))
	m.Update(planMsg{plan: f.plan})
	tuitest.GoldenPlainHelp(t, m)
}
