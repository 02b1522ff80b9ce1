package inbox

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// View draws the list on the left and the card on the right, or the card
// below the list on a narrow terminal. Only the visible window of the list
// is drawn, so the cost is bounded by the terminal, not the inbox.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

const twoPaneMin = 80

func (m *Model) render() string {
	w, h := max(m.c.Width, 20), max(m.c.Height, 8)
	st := m.c.Styles
	m.status.log.Add(tui.SanitizeLine(m.status.message))
	if m.status.log.Open() {
		return m.status.log.View(st, w, h)
	}
	msg, _ := m.messageArea(w)
	header := tui.SanitizeLine(m.deps.Repo) + " · " + m.feed.View(m.c.Styles, m.deps.Now, len(m.list.steps))
	if m.opts.DryRun {
		header += " · " + st.Warning.Render("dry run")
	}
	// On a narrow terminal the title gives way, so the read time (how
	// fresh the cards are) is never the part cut off.
	header = tui.Header(st, "aayu inbox", header, w)
	bodyH := h - 2 - len(msg) // header, message area, help
	var body []string
	if w >= twoPaneMin {
		listW := min(44, w*2/5)
		left := m.listLines(listW, bodyH)
		right := m.cardPane(m.cardSize())
		for i := range bodyH {
			l, r := "", ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			body = append(body, pad(l, listW)+" "+st.Subtle.Render("│")+" "+r)
		}
	} else {
		listH := max(3, bodyH/3)
		body = append(body, m.listLines(w, listH)...)
		for len(body) < listH {
			body = append(body, "")
		}
		body = append(body, st.Subtle.Render(strings.Repeat("─", w)))
		body = append(body, m.cardPane(m.cardSize())...)
	}
	for len(body) < bodyH {
		body = append(body, "")
	}
	body = body[:bodyH]
	out := append([]string{header}, body...)
	help := tui.HelpLine(w, m.Keys(), st)
	if m.Typing() {
		help = tui.TypingHelpLine(w, m.Keys(), st)
	}
	out = append(append(out, msg...), help)
	for i, l := range out {
		out[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(out, "\n")
}

func pad(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if n := lipgloss.Width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// cardPane is the current card wrapped to its pane, with the pending
// confirmation or note, and confetti over it for a moment after a job well
// done.
func (m *Model) cardPane(w, h int) []string {
	s, ok := m.list.current()
	if !ok || m.list.noneListed() {
		return nil
	}
	return m.pane.View(m.c.Styles, m.cardBody(s, w), m.pend.View(m.c.Styles, w), w, h)
}

// View is the pane: the card's lines (scrolling when too long for it), the
// question under them, the confetti over them.
func (p *pane) View(st tui.Styles, lines, ask []string, w, h int) []string {
	if p.scrollsDetails(len(lines), h, ask != nil) {
		return p.detailsPane(st, lines, w, h)
	}
	if ask != nil {
		// The question is what the next key answers, so it is never the
		// part cut off: the card gives way to it, from the bottom up.
		if len(lines)+len(ask) > h {
			lines = lines[:max(0, min(len(lines), h-len(ask)))]
		}
		if len(ask) > h {
			short := tui.WrapLinks(tooShort, w, " ")
			ask = append(ask[:max(0, h-len(short))], short...)
		}
		lines = append(lines, ask...)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	if p.confetti > 0 {
		lines = sprinkle(lines, w, h, p.confetti)
	}
	return lines
}

// cardBody is the card's lines, styled and wrapped to the pane.
func (m *Model) cardBody(s model.Step, w int) []string {
	text := m.cardLines(s)
	if !m.pane.laidOut.holds(text, w) {
		m.pane.laidOut = laidOutCard{text: text, w: w, lines: m.wrapCard(text, w)}
	}
	// A copy: the pane cuts the lines and appends a question to them.
	return slices.Clone(m.pane.laidOut.lines)
}

// laidOutCard is a card's text and the lines it wrapped to at w columns.
// A scroll key and the frame after it each lay the card out again, and
// wrapping (finding the URLs and commands no break may fall inside) is
// what a long card costs per key: the same text at the same width wraps
// to the same lines, so the last one is kept.
type laidOutCard struct {
	text  []string
	w     int
	lines []string
}

// holds says whether c is text laid out at w columns.
func (c laidOutCard) holds(text []string, w int) bool {
	return c.lines != nil && c.w == w && slices.Equal(c.text, text)
}

// wrapCard styles a card's text and wraps it to w columns.
func (m *Model) wrapCard(text []string, w int) []string {
	st := m.c.Styles
	var lines []string
	for i, l := range text {
		if i == 0 {
			l = st.Title.Render(l)
		}
		if strings.HasPrefix(l, "status: not done") {
			l = st.Failed.Render("status: not done")
		} else if strings.HasPrefix(l, "status: done") {
			l = st.OK.Render("status: done") + l[len("status: done"):]
		}
		lines = append(lines, wrapHanging(l, w)...)
	}
	return lines
}

// tooShort replaces the last line of a confirmation the card pane cannot
// hold whole; the answer waits, because nobody agrees to writes unseen.
const tooShort = "The terminal is too short to show every write; make it taller to answer, or esc cancels."

// cardSize is the card pane's width and height, as render lays it out.
func (m *Model) cardSize() (int, int) {
	w, h := max(m.c.Width, 20), max(m.c.Height, 8)
	bodyH := h - 2 - m.messageRows()
	if w >= twoPaneMin {
		listW := min(44, w*2/5)
		return w - listW - 3, bodyH
	}
	return w, bodyH - max(3, bodyH/3) - 1
}

// confirmShown says whether the pending confirmation fits the card pane
// whole, so a yes agrees to writes the person could read.
func (m *Model) confirmShown() bool {
	if m.c.Plain {
		return true
	}
	w, h := m.cardSize()
	return len(m.pend.View(m.c.Styles, w)) <= h
}

// sprinkle lays confetti in the card pane's blank cells, never over its
// text; frame picks a fixed pattern so the same frame always draws the same
// way.
func sprinkle(lines []string, w, h, frame int) []string {
	for len(lines) < h {
		lines = append(lines, "")
	}
	glyphs := []string{"*", "+", "·", "o"}
	for i := range lines {
		if (i+frame)%3 != 0 {
			continue
		}
		col := (i*7 + frame*5) % max(1, w-1)
		plain := []rune(ansi.Strip(lines[i]))
		for len(plain) < w {
			plain = append(plain, ' ')
		}
		if end := len([]rune(strings.TrimRight(string(plain), " "))); end > 0 && col <= end {
			col = end + 1 // after the line's text, never over or between its words
		}
		if col >= w {
			continue
		}
		plain[col] = []rune(glyphs[(i+frame)%len(glyphs)])[0]
		lines[i] = string(plain)
	}
	return lines
}

// wrapHanging wraps a card line so its continuation lines sit under its
// text: a choice's label under the label, not under its key.
func wrapHanging(l string, w int) []string {
	plain := ansi.Strip(l)
	indent := len(plain) - len(strings.TrimLeft(plain, " "))
	if indent > 0 && len(plain) > indent+3 && plain[indent+1:indent+3] == "  " {
		indent += 3 // "  1  label": hang under the label
	} else if i := strings.Index(plain, ": "); i > 0 && i < 12 && indent == 0 {
		indent = i + 2 // "counsel: …", "door: …": hang under the value
	}
	if indent == 0 || w-indent < 20 {
		return tui.WrapLinks(l, w, " ")
	}
	first := tui.WrapLinks(l, w, " ")
	if len(first) == 1 {
		return first
	}
	head := ansi.Truncate(l, indent, "")
	rest := tui.WrapLinks(ansi.Cut(l, indent, ansi.StringWidth(l)), w-indent, " ")
	pad := strings.Repeat(" ", indent)
	out := []string{head + rest[0]}
	for _, r := range rest[1:] {
		out = append(out, pad+r)
	}
	return out
}
