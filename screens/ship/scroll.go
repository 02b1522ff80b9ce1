package ship

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// The ship screen's body scrolls in tui's ScrollBody under a fixed title:
// a long gate list with its details, a confirmation with many writes, the
// pack. Following is on for the gate list, so the newest gate and the
// verdict stay in view at 80×24 as the run fills in; scrolling up stops
// following and scrolling back to the bottom starts it again. A
// confirmation and the pack open at their top.

func (m *Model) bodyMode() string {
	switch {
	case m.question.confirm != nil:
		return "confirm"
	case m.packView.showPack:
		return "pack"
	}
	return "gates"
}

// scrolled lays out the frame: body[0] (the title) stays, the rest scrolls
// in the viewport, the help line stays at the bottom.
func (m *Model) scrolled(body []string, w, h int) string {
	s := &m.scroll
	mode := m.bodyMode()
	// A notice may take more than one line; the body gives way to it.
	notice := ""
	if m.copied != "" {
		notice = tui.NoticeLine(w, m.copied, m.c.Styles)
	}
	s.Layout(mode, mode == "gates", body[1:], w, h-2-strings.Count(notice, "\n"))
	help := notice
	if help == "" {
		help = tui.HelpLine(w, m.Keys(), m.c.Styles) // after Layout: the scroll keys show when the body overflows
	}
	helpLines := strings.Split(help, "\n")
	title := body[0]
	if where := s.Where(); where != "" {
		title += m.c.Styles.Subtle.Render(where)
	}
	lines := []string{title}
	for _, l := range strings.Split(s.View(), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	lines = append(lines, helpLines[:len(helpLines)-1]...)
	return tui.Frame(lines, w, h, helpLines[len(helpLines)-1])
}

// onScroll moves the body for a scroll key and reports whether it was one.
func (m *Model) onScroll(msg tea.KeyPressMsg) bool { return m.scroll.Update(msg) }

// withScrollKeys adds the scroll keys to a help list when the body
// overflows: before the screen's keys on the gate list (a verdict out of
// view matters more than a disabled key's reason), after them when they
// answer a question.
func (m *Model) withScrollKeys(keys []key.Binding, first bool) []key.Binding {
	return m.scroll.WithKeys(keys, first)
}
