package decide

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/actions"
	core "github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestDecideCopyKeyWritesTheCommentsLinkByOSC52: once the Decisions are
// accepted, the screen shows the link to the acceptance comment, the help
// line lists c, and c copies that link alone (OSC 52); before the result c
// copies nothing.
func TestDecideCopyKeyWritesTheCommentsLinkByOSC52(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	if _, cmd := m.Update(tuitest.Key("c")); len(tuitest.OSC52Writes(tuitest.RunCmd(cmd))) != 0 {
		t.Fatal("c copied before there was a result")
	}
	_, cmd := m.Update(tuitest.Key("y"))
	m.Update(cmd())
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "c copy link") {
		t.Errorf("the help line does not list c:\n%s", v)
	}
	if !strings.Contains(strings.Join(m.Transcript(), "\n"), "\n"+commentURL(2)+"\n") {
		t.Errorf("the result does not show the comment's link on a line of its own:\n%s", strings.Join(m.Transcript(), "\n"))
	}
	_, cmd = m.Update(tuitest.Key("c"))
	msgs := tuitest.RunCmd(cmd)
	// Two Decisions were accepted: c copies the last one's comment.
	if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != commentURL(2) {
		t.Fatalf("c wrote %q by OSC 52, want [%q]", got, commentURL(2))
	}
	for _, msg := range msgs {
		m.Update(msg)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Copied the link to the comment on #2.") {
		t.Errorf("the help line does not confirm the copy:\n%s", v)
	}
}

// TestDecidePlainPrintsEachCommentsLinkOnItsOwnLine: plain mode writes no
// clipboard, so each accepted Decision's comment link is a line of its
// own, to copy from the transcript.
func TestDecidePlainPrintsEachCommentsLinkOnItsOwnLine(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, n := range []int{1, 2} {
		if !strings.Contains(out, "\n"+commentURL(n)+"\n") {
			t.Errorf("the transcript lacks #%d's comment link on its own line:\n%s", n, out)
		}
	}
	if strings.Contains(out, "\x1b]52") {
		t.Errorf("plain mode wrote an OSC 52 sequence:\n%q", out)
	}
}

// TestDecideRefusesToShowALinkThatIsNotHTTP: a comment link that is not a
// plain http(s) URL (it comes from GitHub) is neither shown nor copied.
func TestDecideRefusesToShowALinkThatIsNotHTTP(t *testing.T) {
	f := &fakeCore{plan: plan(t)}
	f.outcome = func(int) actions.Outcome {
		return actions.Outcome{Done: true, CommentURL: "javascript:alert(1)"}
	}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
	_, cmd := m.Update(tuitest.Key("y"))
	m.Update(cmd())
	if strings.Contains(strings.Join(m.Transcript(), "\n"), "javascript:") {
		t.Errorf("a non-http link was shown:\n%s", strings.Join(m.Transcript(), "\n"))
	}
	if _, cmd := m.Update(tuitest.Key("c")); len(tuitest.OSC52Writes(tuitest.RunCmd(cmd))) != 0 {
		t.Error("c copied a link that is not http(s)")
	}
}

// TestDecideResultGolden: the full screen once both Decisions are accepted,
// at 40, 80 and 120 columns: each comment's link on a line of its own,
// never broken across lines, and c in the help line.
func TestDecideResultGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			f := &fakeCore{plan: plan(t)}
			m := New(context.Background(), tuitest.Common(w, 24), f.deps())
			m.Update(tui.ReadMsg[core.Plan]{Value: f.plan})
			_, cmd := m.Update(tuitest.Key("y"))
			m.Update(cmd())
			tuitest.GoldenView(t, m.View().Content, w, 24)
		})
	}
}
