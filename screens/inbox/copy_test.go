package inbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// copyInbox is a full-screen inbox after its first read whose links are
// url(n), copying to a native clipboard that records what it got.
func copyInbox(t *testing.T, url func(int) string, native *[]string) *Model {
	t.Helper()
	f := newFake()
	deps := f.deps()
	deps.URL = url
	c := tuitest.Common(80, 24)
	c.Clipboard = tui.Clipboard{Native: func(s string) error { *native = append(*native, s); return nil }}
	m := New(context.Background(), c, deps, Options{})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	snap, _ := deps.Read(context.Background(), nil, time.Time{})
	m.Update(readMsg{snap: snap, at: t0})
	return m
}

// TestInboxCopyKeyWritesTheCardsLinkByOSC52: c copies the URL of the card
// under the cursor, and only it, to the terminal's clipboard (OSC 52) and
// the native one, and the message line says so.
func TestInboxCopyKeyWritesTheCardsLinkByOSC52(t *testing.T) {
	var native []string
	m := copyInbox(t, func(n int) string { return fmt.Sprintf("https://github.com/acme/benefits/issues/%d", n) }, &native)
	m.Update(tuitest.Key("j"))
	st, _ := m.list.current()
	want := fmt.Sprintf("https://github.com/acme/benefits/issues/%d", st.Item.Number)
	_, cmd := m.Update(tuitest.Key("c"))
	msgs := tuitest.RunCmd(cmd)
	if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != want {
		t.Fatalf("c wrote %q by OSC 52, want [%q]", got, want)
	}
	for _, msg := range msgs {
		m.Update(msg)
	}
	if len(native) != 1 || native[0] != want {
		t.Errorf("the native clipboard got %q", native)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, fmt.Sprintf("Copied the link to #%d.", st.Item.Number)) {
		t.Errorf("the screen does not confirm the copy:\n%s", v)
	}
}

// TestInboxCopyKeyRefusesALinkThatIsNotHTTP: a link that is not plain
// http(s), or holds a control character, is never copied.
func TestInboxCopyKeyRefusesALinkThatIsNotHTTP(t *testing.T) {
	for _, bad := range []string{"javascript:alert(1)", "https://github.com/x\x1b]52;c;ZWNobw==\a", "https://github.com/x\nrm -rf ~"} {
		var native []string
		m := copyInbox(t, func(int) string { return bad }, &native)
		_, cmd := m.Update(tuitest.Key("c"))
		if msgs := tuitest.RunCmd(cmd); len(tuitest.OSC52Writes(msgs)) != 0 || len(native) != 0 {
			t.Errorf("%q was copied: %#v %q", bad, msgs, native)
		}
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Nothing was copied") {
			t.Errorf("%q: the refusal is not shown:\n%s", bad, v)
		}
	}
}

// TestInboxPlainCopyPrintsTheLinkOnItsOwnLine: plain mode writes no
// clipboard; "copy N" prints card N's link alone on a line.
func TestInboxPlainCopyPrintsTheLinkOnItsOwnLine(t *testing.T) {
	f := newFake()
	deps := f.deps()
	deps.URL = func(n int) string { return fmt.Sprintf("https://github.com/acme/benefits/issues/%d", n) }
	s := startPlain(t, deps, Options{})
	s.waitFor("card 1 of 5")
	s.send("copy 2")
	s.waitFor("to copy:\n")
	s.send("copy 9")
	s.waitFor("refused: copy wants a card number from 1 to 5")
	s.exit()
	out := s.out.String()
	lines := strings.Split(out, "\n")
	found := false
	for i, l := range lines {
		if strings.HasSuffix(l, "to copy:") && i+1 < len(lines) {
			found = strings.HasPrefix(lines[i+1], "https://github.com/acme/benefits/issues/") && !strings.Contains(lines[i+1], " ")
		}
	}
	if !found {
		t.Errorf("copy 2 did not print the link on its own line:\n%s", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Error("plain output holds an escape sequence")
	}
}
