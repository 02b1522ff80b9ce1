package proofpush

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestProofPushSummaryBlockIsNamed: the quit summary's block for proof
// push names the screen and its Story, never a bare "result: exit 0".
func TestProofPushSummaryBlockIsNamed(t *testing.T) {
	f := &fake{res: landed()}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(m.Init()())
	left := strings.Join(tui.NewStack(m).Epilogue(), "\n")
	if !strings.HasPrefix(left, "proof push, Story #5: exit 0") {
		t.Errorf("the summary block is not named:\n%s", left)
	}
}
