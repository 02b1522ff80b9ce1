package proofpush

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestProofPushCopyKeyWritesTheCommentsLinkByOSC52: once the push landed,
// c copies the advisory comment's link alone (OSC 52) and the help line
// confirms it; a hostile link is refused and nothing is copied.
func TestProofPushCopyKeyWritesTheCommentsLinkByOSC52(t *testing.T) {
	f := &fake{res: landed()}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(m.Init()())
	_, cmd := m.Update(tuitest.Key("c"))
	msgs := tuitest.RunCmd(cmd)
	if got, want := tuitest.OSC52Writes(msgs), landed().Comment.URL; len(got) != 1 || got[0] != want {
		t.Fatalf("c wrote %q by OSC 52, want [%q]", got, want)
	}
	for _, msg := range msgs {
		m.Update(msg)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Copied the link to the advisory comment.") {
		t.Errorf("the help line does not confirm the copy:\n%s", v)
	}
	m.Update(tuitest.Key("j"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "c copy link") {
		t.Errorf("the next key does not bring the help line back:\n%s", v)
	}
}

func TestProofPushCopyKeyRefusesAHostileLink(t *testing.T) {
	r := landed()
	r.Comment.URL = "https://evil\x1b]52;c;aGk=\x07/\x1b[2J"
	f := &fake{res: r}
	m := New(context.Background(), tuitest.Common(80, 24), f.deps())
	m.Update(m.Init()())
	_, cmd := m.Update(tuitest.Key("c"))
	if got := tuitest.OSC52Writes(tuitest.RunCmd(cmd)); len(got) != 0 {
		t.Fatalf("a hostile link was copied: %q", got)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Nothing was copied") {
		t.Errorf("the refusal is not shown:\n%s", v)
	}
}
