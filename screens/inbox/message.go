package inbox

import (
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// messageArea is the status message laid out under the list by tui's one
// rule: wrapped (no URL or command broken, every URL a link) on up to
// tui.MessageRows lines (one while a question waits on the card); cut reports that it ends in tui.MoreMessages, m
// showing it whole in the log.
func (m *Model) messageArea(w int) (lines []string, cut bool) {
	rows := tui.MessageRows
	if m.pend != nil {
		// The question is on the card, whole; the message repeating it
		// keeps to one line so the card keeps its room.
		rows = 1
	}
	return tui.MessageLines(tui.SanitizeLine(m.status.message), w, rows)
}

// messageRows is how many lines the message area takes now; the list and
// the card give way to it.
func (m *Model) messageRows() int {
	lines, _ := m.messageArea(max(m.c.Width, 20))
	return len(lines)
}

// onLogKey gives a key to the log of this session's messages: every key
// while it shows, and m to open it. It reports whether the key was its.
func (m *Model) onLogKey(msg tea.KeyPressMsg) bool {
	m.status.log.Add(tui.SanitizeLine(m.status.message))
	return m.status.log.Key(msg)
}
