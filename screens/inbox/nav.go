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
func (l *cardList) matches(i int) bool {
	if l.filter == "" {
		return true
	}
	if i < 0 || i >= len(l.steps) {
		return false
	}
	f := strings.ToLower(l.filter)
	for _, field := range filterFields(l.steps[i]) {
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
func (l *cardList) visible() []int {
	out := make([]int, 0, len(l.steps))
	for i := range l.steps {
		if l.matches(i) {
			out = append(out, i)
		}
	}
	return out
}

// moveBy moves the cursor delta listed cards, stopping at either end.
// Without a filter it costs nothing per card, so paging a long inbox
// stays as cheap as one step.
func (l *cardList) moveBy(delta int) {
	if l.filter == "" {
		l.cursor = max(0, min(len(l.steps)-1, l.cursor+delta))
		return
	}
	vis := l.visible()
	if len(vis) == 0 {
		return
	}
	pos := 0
	for j, i := range vis {
		if i <= l.cursor {
			pos = j
		}
	}
	l.cursor = vis[max(0, min(len(vis)-1, pos+delta))]
}

// jump puts the cursor on the first (or last) listed card.
func (l *cardList) jump(last bool) {
	if last {
		l.moveBy(len(l.steps))
		return
	}
	l.moveBy(-len(l.steps))
}

// keepCursorListed moves the cursor off a card the filter hides: to the
// next listed card, or the last one before it.
func (l *cardList) keepCursorListed() {
	if l.matches(l.cursor) {
		return
	}
	vis := l.visible()
	for _, i := range vis {
		if i >= l.cursor {
			l.cursor = i
			return
		}
	}
	if len(vis) > 0 {
		l.cursor = vis[len(vis)-1]
	}
}

// filterLine is the list's first line while a filter is typed or kept.
func (l *cardList) filterLine() string {
	cursor := ""
	if l.filtering {
		cursor = "▏"
	}
	return fmt.Sprintf("/ %s%s  (%d of %d)", l.filter, cursor, len(l.visible()), len(l.steps))
}

// noneListed says the filter hides every card, so no key acts on one.
func (l *cardList) noneListed() bool { return l.filter != "" && !l.matches(l.cursor) }

// filteredRows lays out only the cards the filter lists, under headings
// that count them.
func (l *cardList) filteredRows() (rows []listRow, rowOf []int) {
	rowOf = make([]int, len(l.steps))
	counts := map[model.Group]int{}
	for i, s := range l.steps {
		rowOf[i] = -1
		if l.matches(i) {
			counts[s.Group]++
		}
	}
	group := model.Group(-1)
	for i, s := range l.steps {
		if !l.matches(i) {
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

// pageSize is how many cards pgup/pgdown move in a screen of w×h: the
// list's height, less one so the card at the edge stays in view.
func (l *cardList) pageSize(w, h int) int {
	w, h = max(w, 20), max(h, 8)
	bodyH := h - 3
	if w < twoPaneMin {
		bodyH = max(3, bodyH/3)
	}
	if l.filtering || l.filter != "" {
		bodyH--
	}
	return max(1, bodyH-1)
}
