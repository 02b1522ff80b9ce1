package inbox

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// The card list: the cards in the order the groups put them, a cursor,
// the housekeeping selection and the filter. It has its own keys
// (listKeys), its own Update for them and its own View; the root (Model)
// routes a key here when no question waits for an answer.

// relayout recounts the groups and lays out the list after the cards
// changed, so every count shown is the list's own.
func (l *cardList) relayout() {
	l.rows, l.rowOf = layoutRows(l.steps)
	l.needsYouN = 0
	for _, st := range l.steps {
		if st.Group == model.NeedsYou {
			l.needsYouN++
		}
	}
	for id := range l.selected {
		if _, ok := model.Find(l.steps, id); !ok {
			delete(l.selected, id)
		}
	}
}

// removeStep takes a finished card off the list at once: a done card is
// not waiting for anyone, and counting it would be untrue.
func (l *cardList) removeStep(id string) {
	for i, st := range l.steps {
		if st.ID() != id {
			continue
		}
		l.steps = append(append([]model.Step(nil), l.steps[:i]...), l.steps[i+1:]...)
		if i < l.cursor || (l.cursor >= len(l.steps) && l.cursor > 0) {
			l.cursor--
		}
		l.relayout()
		return
	}
}

// housekeepingLeft says whether any housekeeping card is still listed.
func (l *cardList) housekeepingLeft() bool {
	for _, st := range l.steps {
		if st.Group == model.Housekeeping {
			return true
		}
	}
	return false
}

func (l *cardList) current() (model.Step, bool) {
	if l.cursor < len(l.steps) {
		return l.steps[l.cursor], true
	}
	return model.Step{}, false
}

func (l *cardList) selectedSteps() []model.Step {
	var out []model.Step
	for _, st := range l.steps {
		if l.selected[st.ID()] {
			out = append(out, st)
		}
	}
	return out
}

// listLines is the list pane: a word while the first read is under way or
// failed, "Nothing waits for you" when nothing does, else the list's View.
func (m *Model) listLines(w, h int) []string {
	st := m.c.Styles
	if m.feed.snap == nil {
		if m.feed.readErr != nil {
			return []string{st.Failed.Render("failed") + ": the inbox could not be read.", tui.SanitizeLine(m.feed.readErr.Error()), "r tries again; q quits."}
		}
		return []string{"reading GitHub…"}
	}
	if len(m.list.steps) == 0 {
		return []string{st.OK.Render("Nothing waits for you."), "Job well done."}
	}
	return m.list.View(st, w, h, m.writes.statusWord)
}

// View is the grouped list, windowed around the cursor. Only the rows in
// the window are drawn: the layout (l.rows) is built once per read, so a
// keypress costs the same with ten cards or ten thousand. word is a card's
// status word from the write queue.
//
// Hand-written rather than bubbles/list: the list has group headings that
// are not items (the cursor skips them), housekeeping marks ([ ]/[x]) that
// x, X and C set, a status word per card from the write queue, and a card
// pane beside it that must follow the cursor; bubbles/list has none of the
// first three, and its own filter and paginator would be a second
// navigation next to the one the plain twin shares (nav.go).
func (l *cardList) View(st tui.Styles, w, h int, word func(model.Step) string) []string {
	rows, rowOf := l.rows, l.rowOf
	var out []string
	if l.filtering || l.filter != "" {
		out = append(out, l.filterLine())
		h--
		rows, rowOf = l.filteredRows()
		if len(rows) == 0 {
			return append(out, "No card matches; esc clears the filter.")
		}
	}
	curRow := 0
	if l.cursor < len(rowOf) {
		curRow = max(0, rowOf[l.cursor])
	}
	window := func(h int) (start, end int) {
		if curRow >= h {
			start = curRow - h + 1
		}
		return start, min(len(rows), start+h)
	}
	start, end := window(h)
	if end < len(rows) && h > 1 {
		// Rows below the window: the last line says how many cards, and
		// which groups, so a short terminal hides none without a word.
		start, end = window(h - 1)
	}
	for i := start; i < end; i++ {
		out = append(out, l.rowLine(st, rows[i], w, word))
	}
	if end < len(rows) {
		out = append(out, ansi.Truncate(moreBelow(rows[end:]), w, "…"))
	}
	return out
}

// moreBelow is the line under a list cut by the terminal's height: the
// cards below it and the groups whose heading is hidden there.
func moreBelow(hidden []listRow) string {
	cards := 0
	var groups []string
	for _, r := range hidden {
		switch {
		case r.step >= 0:
			cards++
		case r.group == model.Housekeeping:
			groups = append(groups, fmt.Sprintf("Housekeeping (%d)", r.count))
		default:
			groups = append(groups, fmt.Sprintf("Needs you (%d)", r.count))
		}
	}
	line := fmt.Sprintf("↓ %d more below", cards)
	if len(groups) > 0 {
		line += ", with " + strings.Join(groups, " and ")
	}
	return line
}

// rowLine draws one row: a group heading with its count, or a card with
// its housekeeping mark and status word, highlighted under the cursor.
func (l *cardList) rowLine(st tui.Styles, r listRow, w int, word func(model.Step) string) string {
	if r.step < 0 {
		title := "Needs you"
		if r.group == model.Housekeeping {
			title = "Housekeeping"
		}
		return st.Title.Render(fmt.Sprintf("%s (%d)", title, r.count))
	}
	s := l.steps[r.step]
	mark := "   "
	if l.selected[s.ID()] {
		mark = "[x]"
	} else if s.Group == model.Housekeeping {
		mark = "[ ]"
	}
	text := mark + " " + rowLabel(s)
	if wd := word(s); wd != "" {
		text = mark + " " + wd + " · " + rowLabel(s)
	}
	if r.step == l.cursor {
		return st.Selected.Render(pad("> "+ansi.Strip(text), w))
	}
	return "  " + text
}

// listKeys are the list's own keys: moving the cursor and the filter.
type listKeys struct {
	First       key.Binding
	Last        key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	Filter      key.Binding
	FilterDone  key.Binding
	ClearFilter key.Binding
}

func newListKeys() listKeys {
	return listKeys{
		First:       key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first card")),
		Last:        key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last card")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdown", "page down")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter by kind, title or #")),
		FilterDone:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// Update takes the list's keys: up and down (from the shared key map), the
// jumps and pages, and the filter's. It reports whether the key was the
// list's, and whether the cursor moved (the card pane then closes its
// details). page is how many cards a page moves.
func (l *cardList) Update(msg tea.KeyPressMsg, up, down key.Binding, k listKeys, page int) (handled, moved bool) {
	switch {
	case key.Matches(msg, up):
		l.moveBy(-1)
	case key.Matches(msg, down):
		l.moveBy(1)
	case key.Matches(msg, k.First):
		l.jump(false)
	case key.Matches(msg, k.Last):
		l.jump(true)
	case key.Matches(msg, k.PageUp):
		l.moveBy(-page)
	case key.Matches(msg, k.PageDown):
		l.moveBy(page)
	case key.Matches(msg, k.Filter):
		l.filtering = true
		return true, false
	case key.Matches(msg, k.ClearFilter):
		l.filter = ""
		return true, false
	default:
		return false, false
	}
	return true, true
}

// updateFilter takes a key while the filter line has the keyboard: the
// arrows still move, so a person can filter and pick without leaving it.
// It reports whether the cursor or the filter changed.
func (l *cardList) updateFilter(msg tea.KeyPressMsg) (changed bool) {
	switch msg.String() {
	case "esc":
		l.filtering, l.filter = false, ""
	case "enter":
		l.filtering = false
	case "up":
		l.moveBy(-1)
		return true
	case "down":
		l.moveBy(1)
		return true
	case "backspace":
		if r := []rune(l.filter); len(r) > 0 {
			l.setFilter(string(r[:len(r)-1]))
			return true
		}
	default:
		if msg.Text != "" {
			l.setFilter(l.filter + pasted(msg.Text))
			return true
		}
	}
	return false
}

// setFilter lists only the cards that match f.
func (l *cardList) setFilter(f string) {
	l.filter = f
	l.keepCursorListed()
}

// listRow is one line of the list: a group heading (step < 0) or a card.
type listRow struct {
	step  int
	group model.Group
	count int // a heading's number of cards
}

// layoutRows builds the list's rows and each card's row index once.
func layoutRows(steps []model.Step) (rows []listRow, rowOf []int) {
	rowOf = make([]int, len(steps))
	counts := map[model.Group]int{}
	for _, s := range steps {
		counts[s.Group]++
	}
	group := model.Group(-1)
	for i, s := range steps {
		if s.Group != group {
			group = s.Group
			rows = append(rows, listRow{step: -1, group: group, count: counts[group]})
		}
		rowOf[i] = len(rows)
		rows = append(rows, listRow{step: i, group: s.Group})
	}
	return rows, rowOf
}

// replace puts a card as it is now in place of the one with its ID.
func (l *cardList) replace(now model.Step) {
	for i, st := range l.steps {
		if st.ID() == now.ID() {
			l.steps[i] = now
		}
	}
}

// next moves the cursor to the next card, if there is one.
func (l *cardList) next() {
	if l.cursor < len(l.steps)-1 {
		l.cursor++
	}
}

// toggle selects the card with this ID, or unselects it, and reports
// whether it is selected now.
func (l *cardList) toggle(id string) bool {
	if l.selected[id] {
		delete(l.selected, id)
		return false
	}
	l.selected[id] = true
	return true
}
