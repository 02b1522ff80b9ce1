package plan

import (
	"context"
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestPlanSummaryBlockIsNamed: the quit summary's block for plan names the
// screen and its Story, never a bare "result: exit 0".
func TestPlanSummaryBlockIsNamed(t *testing.T) {
	f := &fakeCore{plan: review(true)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Review]{Value: f.plan})
	_, cmd := m.Update(tuitest.Key("y"))
	m.Update(cmd())
	left := strings.Join(tui.NewStack(m).Epilogue(), "\n")
	if !strings.HasPrefix(left, "plan, Story #131: exit 0") {
		t.Errorf("the summary block is not named:\n%s", left)
	}
}
