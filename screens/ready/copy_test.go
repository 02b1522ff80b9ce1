package ready

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestReadyCopyKeyWritesTheCommentsLinkByOSC52: a goal that changed gets
// a comment; c then copies its link alone (OSC 52) and confirms it.
func TestReadyCopyKeyWritesTheCommentsLinkByOSC52(t *testing.T) {
	const u = "https://github.com/acme/benefits/issues/7#issuecomment-9"
	d := (&fakeCore{plan: storyPlan()}).deps()
	d.Apply = func(context.Context, core.Plan) (core.Result, error) {
		return core.Result{Commit: "9f1c2e3d4b5a69788796a5b4c3d2e1f009182736", CommentURL: u}, nil
	}
	m := New(context.Background(), tuitest.Common(80, 24), d)
	m.Update(tui.ReadMsg[core.Plan]{Value: storyPlan()})
	_, cmd := m.Update(tuitest.Key("y"))
	m.Update(cmd())
	_, cmd = m.Update(tuitest.Key("c"))
	msgs := tuitest.RunCmd(cmd)
	if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != u {
		t.Fatalf("c wrote %q by OSC 52, want [%q]", got, u)
	}
	for _, msg := range msgs {
		m.Update(msg)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Copied the link to the comment.") {
		t.Errorf("the help line does not confirm the copy:\n%s", v)
	}
}
