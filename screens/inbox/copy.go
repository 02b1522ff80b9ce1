package inbox

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// copyLink copies the link of the card under the cursor (c) to the
// clipboard through tui.Clipboard: the URL alone, refused unless it is a
// plain http(s) link.
func (m *Model) copyLink() tea.Cmd {
	st, ok := m.list.current()
	if !ok {
		return nil
	}
	n := st.Item.Number
	u := m.itemURL(n)
	if u == "" {
		m.tell(fmt.Sprintf("The link to #%d is not known here, so nothing was copied.", n))
		return nil
	}
	cmd, err := m.c.Clipboard.CopyURL(u, fmt.Sprintf("the link to #%d", n))
	if err != nil {
		m.tell(fmt.Sprintf("Nothing was copied: the link to #%d is not a plain http(s) link.", n))
		return nil
	}
	return cmd
}

// sayLink answers the plain "copy N" (N: the card's number in the list;
// none: the current card). Plain mode writes no clipboard: its output may
// be a pipe, a log or a screen reader, where an OSC 52 sequence is noise
// at best and is discarded anyway (tui.Run), so it prints the URL on a
// line of its own for the person to copy.
func (m *Model) sayLink(arg string) {
	i := m.list.cursor
	if arg = strings.TrimSpace(arg); arg != "" {
		var ok bool
		if i, ok = m.cardNumbered("copy", arg); !ok {
			return
		}
	}
	if i < 0 || i >= len(m.list.steps) {
		m.say("There is no card to copy the link of.")
		return
	}
	n := m.list.steps[i].Item.Number
	u := m.itemURL(n)
	if !tui.Linkable(u) {
		m.say(fmt.Sprintf("The link to #%d is not known here, or not a plain http(s) link.", n))
		return
	}
	m.say(fmt.Sprintf("The link to #%d, to copy:", n))
	m.say(u)
}

func (m *Model) itemURL(n int) string {
	if m.deps.URL == nil {
		return ""
	}
	return m.deps.URL(n)
}
