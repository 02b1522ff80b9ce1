package decide

import (
	"context"
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestDecideSummaryBlockIsNamed: the quit summary's block for decide names
// the command (every Decision and option), never a bare "result: exit 0".
func TestDecideSummaryBlockIsNamed(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	_, cmd := m.Update(tuitest.Key("y"))
	m.Update(cmd())
	left := strings.Join(tui.NewStack(m).Epilogue(), "\n")
	if !strings.HasPrefix(left, "decide 1,2 --accept 1,2: exit 0") {
		t.Errorf("the summary block is not named:\n%s", left)
	}
}
