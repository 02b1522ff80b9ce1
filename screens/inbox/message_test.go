package inbox

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestInboxLongMessageOpensWholeInTheLog: a message too long for the
// message area is never cut silently: it wraps on the area's lines, ends
// in "… (m: all messages)" where even they cannot hold it, and m shows the
// whole of it in the log of the session's messages; esc goes back.
func TestInboxLongMessageOpensWholeInTheLog(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 40, 24, Options{})
	m.Update(readMsg{at: t0.Add(5 * time.Minute), err: fmt.Errorf("GitHub could not be reached: %w", errOffline)})
	whole := tui.SanitizeLine(m.status.message)
	view := m.View().Content
	tuitest.AssertFits(t, view, 40, 24)
	if !strings.Contains(ansi.Strip(view), tui.MoreMessages) {
		t.Fatalf("the long message does not say m shows it whole:\n%s", ansi.Strip(view))
	}
	m.Update(tea.KeyPressMsg{Code: 'm', Text: "m"})
	log := ansi.Strip(m.View().Content)
	tuitest.AssertFits(t, m.View().Content, 40, 24)
	if !strings.Contains(strings.Join(strings.Fields(log), " "), whole) {
		t.Errorf("m does not show the whole message %q:\n%s", whole, log)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if back := ansi.Strip(m.View().Content); !strings.Contains(back, "Decision #1") {
		t.Errorf("esc does not go back to the cards:\n%s", back)
	}
}
