package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestPlanCopyKeyWritesTheCommentsLinkByOSC52: once the record is written,
// the help line lists c, and c copies the comment's link alone (OSC 52).
func TestPlanCopyKeyWritesTheCommentsLinkByOSC52(t *testing.T) {
	f := &fakeCore{plan: review(true)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Review]{Value: f.plan})
	if _, cmd := m.Update(tuitest.Key("c")); len(tuitest.OSC52Writes(tuitest.RunCmd(cmd))) != 0 {
		t.Fatal("c copied before there was a result")
	}
	_, cmd := m.Update(tuitest.Key("y"))
	m.Update(cmd())
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "c copy link") {
		t.Errorf("the help line does not list c:\n%s", v)
	}
	_, cmd = m.Update(tuitest.Key("c"))
	msgs := tuitest.RunCmd(cmd)
	if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != commentURL {
		t.Fatalf("c wrote %q by OSC 52, want [%q]", got, commentURL)
	}
	for _, msg := range msgs {
		m.Update(msg)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Copied the link to your comment.") {
		t.Errorf("the help line does not confirm the copy:\n%s", v)
	}
}
