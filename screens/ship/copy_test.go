package ship

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestShipCopyKeyWritesThePullRequestsLinkByOSC52: once the run has ended,
// c copies the pull request's link alone (OSC 52), the help line lists c
// and then confirms the copy.
func TestShipCopyKeyWritesThePullRequestsLinkByOSC52(t *testing.T) {
	const u = "https://github.com/acme/benefits/pull/4"
	c := tuitest.Common(120, 30)
	m := finished(t, c, shipped)
	m.opts.URL = u
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "c copy link") {
		t.Errorf("the help line does not list c:\n%s", v)
	}
	_, cmd := m.Update(tuitest.Key("c"))
	msgs := tuitest.RunCmd(cmd)
	if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != u {
		t.Fatalf("c wrote %q by OSC 52, want [%q]", got, u)
	}
	for _, msg := range msgs {
		m.Update(msg)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Copied the link to #4.") {
		t.Errorf("the help line does not confirm the copy:\n%s", v)
	}
}

// TestShipCopyKeyRefusesALinkThatIsNotHTTP: a link that is not plain
// http(s) is never copied, and the screen says so.
func TestShipCopyKeyRefusesALinkThatIsNotHTTP(t *testing.T) {
	m := finished(t, tui.Common{Width: 120, Height: 30, Styles: tui.NewStyles(true)}, shipped)
	m.opts.URL = "javascript:alert(1)"
	_, cmd := m.Update(tuitest.Key("c"))
	if msgs := tuitest.RunCmd(cmd); len(tuitest.OSC52Writes(msgs)) != 0 {
		t.Fatalf("a javascript: link was copied: %#v", msgs)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Nothing was copied") {
		t.Errorf("the refusal is not shown:\n%s", v)
	}
}

// TestShipPlainPrintsThePullRequestsLinkOnItsOwnLine: plain mode has no
// copy key (it writes no clipboard), so once the run ends the pull
// request's link is a line of its own, before the result; a link that is
// not plain http(s) is not printed.
func TestShipPlainPrintsThePullRequestsLinkOnItsOwnLine(t *testing.T) {
	for u, want := range map[string]bool{"https://github.com/acme/benefits/pull/4": true, "javascript:alert(1)": false} {
		var out bytes.Buffer
		m := New(context.Background(), tui.Common{Plain: true}, Options{PR: 4, Run: shipped, URL: u})
		if _, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out}); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if got := strings.Contains(text, "The link to #4, to copy:\n"+u+"\nshipped: #4 merged"); got != want {
			t.Errorf("link %q printed on its own line: %v, want %v:\n%s", u, got, want, text)
		}
		if !want && strings.Contains(text, u) {
			t.Errorf("a link that is not http(s) was printed:\n%s", text)
		}
	}
}
