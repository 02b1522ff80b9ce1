package inbox

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// pasted is pasted text made fit for a one-line field: a terminal's
// escape sequences and control characters are dropped, line breaks and
// tabs become spaces, and what Sanitize shows visibly (bidi overrides,
// zero-width characters) stays visible.
func pasted(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, ansi.Strip(strings.ReplaceAll(s, "\r\n", "\n")))
	return tui.Sanitize(s)
}

// matches says whether a card is listed under the filter: its row
// (short kind, number, title), its kind in the card's words ("Story PR
// ready to ship") or the table's ("ready to ship", "ready-to-ship"), or its group ("needs
// you", "housekeeping") contains the filter's text, in any letter case.
// A person filters by what the screen shows, and the screen shows the
// group headings and the card's kind line as well as the row.
func (m *Model) matches(i int) bool {
	if m.filter == "" {
		return true
	}
	if i < 0 || i >= len(m.steps) {
		return false
	}
	f := strings.ToLower(m.filter)
	for _, field := range filterFields(m.steps[i]) {
		if strings.Contains(strings.ToLower(field), f) {
			return true
		}
	}
	return false
}

// filterFields are the texts of a card the filter searches, each on its
// own so a match never spans two of them.
func filterFields(st model.Step) []string {
	return []string{
		rowLabel(st),
		st.Kind.Words(),
		string(st.Kind), // as --json and the docs spell it: ready-to-ship
		strings.ReplaceAll(string(st.Kind), "-", " "),
		st.Group.String(),
	}
}

// visible is the index of every card the filter lists, in list order.
func (m *Model) visible() []int {
	out := make([]int, 0, len(m.steps))
	for i := range m.steps {
		if m.matches(i) {
			out = append(out, i)
		}
	}
	return out
}

// moveBy moves the cursor delta listed cards, stopping at either end.
// Without a filter it costs nothing per card, so paging a long inbox
// stays as cheap as one step.
func (m *Model) moveBy(delta int) {
	m.details = false
	if m.filter == "" {
		m.cursor = max(0, min(len(m.steps)-1, m.cursor+delta))
		return
	}
	vis := m.visible()
	if len(vis) == 0 {
		return
	}
	pos := 0
	for j, i := range vis {
		if i <= m.cursor {
			pos = j
		}
	}
	m.cursor = vis[max(0, min(len(vis)-1, pos+delta))]
}

// jump puts the cursor on the first (or last) listed card.
func (m *Model) jump(last bool) {
	if last {
		m.moveBy(len(m.steps))
		return
	}
	m.moveBy(-len(m.steps))
}

// keepCursorListed moves the cursor off a card the filter hides: to the
// next listed card, or the last one before it.
func (m *Model) keepCursorListed() {
	if m.matches(m.cursor) {
		return
	}
	vis := m.visible()
	for _, i := range vis {
		if i >= m.cursor {
			m.cursor = i
			return
		}
	}
	if len(vis) > 0 {
		m.cursor = vis[len(vis)-1]
	}
}

// pageSize is how many cards pgup/pgdown move: the list's height, less
// one so the card at the edge stays in view.
func (m *Model) pageSize() int {
	w, h := max(m.c.Width, 20), max(m.c.Height, 8)
	bodyH := h - 3
	if w < twoPaneMin {
		bodyH = max(3, bodyH/3)
	}
	if m.filtering || m.filter != "" {
		bodyH--
	}
	return max(1, bodyH-1)
}

// filterLine is the list's first line while a filter is typed or kept.
func (m *Model) filterLine() string {
	cursor := ""
	if m.filtering {
		cursor = "▏"
	}
	return fmt.Sprintf("/ %s%s  (%d of %d)", m.filter, cursor, len(m.visible()), len(m.steps))
}

// noneListed says the filter hides every card, so no key acts on one.
func (m *Model) noneListed() bool { return m.filter != "" && !m.matches(m.cursor) }

// filteredRows lays out only the cards the filter lists, under headings
// that count them.
func (m *Model) filteredRows() (rows []listRow, rowOf []int) {
	rowOf = make([]int, len(m.steps))
	counts := map[model.Group]int{}
	for i, s := range m.steps {
		rowOf[i] = -1
		if m.matches(i) {
			counts[s.Group]++
		}
	}
	group := model.Group(-1)
	for i, s := range m.steps {
		if !m.matches(i) {
			continue
		}
		if s.Group != group {
			group = s.Group
			rows = append(rows, listRow{step: -1, group: group, count: counts[group]})
		}
		rowOf[i] = len(rows)
		rows = append(rows, listRow{step: i, group: s.Group})
	}
	return rows, rowOf
}
