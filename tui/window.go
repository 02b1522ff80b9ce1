package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Window wraps lines to width and shows the height of them that end
// `back` lines before the last: a screen whose text outgrows the terminal
// keeps its newest lines (the question, the outcome) in view and lets the
// person scroll back. It returns the visible lines and a line saying, in
// words, what is hidden ("" when nothing is).
//
// Hand-written rather than bubbles/viewport, for the small screens whose
// text only grows (auth, doctor, init): the window is counted from the
// newest line, so it follows new lines while the person has not scrolled
// and stays put when they have, with no state but one number the screen
// keeps; a viewport counts from the top and would need its content and
// offset reset from Update on every new line. The long views (the ship
// screen, the inbox's details, verify's output, the pack's file viewer)
// are viewports.
func Window(lines []string, width, height, back int) ([]string, string) {
	var all []string
	for _, l := range lines {
		// A URL is never broken across lines: shortened in its middle,
		// an OSC 8 link to the whole of it.
		all = append(all, WrapLinks(l, width, " ,")...)
	}
	if height < 1 || len(all) <= height {
		return all, ""
	}
	height-- // room for the line that says what is hidden
	back = min(max(back, 0), len(all)-height)
	end := len(all) - back
	start := end - height
	note := ""
	switch {
	case start > 0 && back > 0:
		note = "more above and below: ↑/k and ↓/j scroll"
	case start > 0:
		note = "more above: ↑/k scrolls back"
	default:
		note = "more below: ↓/j scrolls on"
	}
	return all[start:end], note
}

// ClampBack is back held to what a TitledWindow of body can scroll back,
// so ↓ moves the text at once after any number of ↑.
func ClampBack(back int, body []string, width, height int, keys []key.Binding, st Styles) int {
	help := HelpLine(width, keys, st)
	h := height - 3 - strings.Count(help, "\n") - 1
	n := 0
	for _, l := range body {
		n += len(WrapLinks(l, width, " ,"))
	}
	if h < 1 || n <= h {
		return 0
	}
	return min(max(back, 0), n-(h-1))
}

// TitledWindow draws a screen of lines under a title: the title, a blank
// line, the Window of body that fits, the note on what is hidden (or a
// blank line) and the help line of keys, in height rows of width cells.
func TitledWindow(st Styles, title string, body []string, width, height, back int, keys []key.Binding) string {
	return titledWindow(st, title, body, width, height, back, HelpLine(width, keys, st))
}

func titledWindow(st Styles, title string, body []string, width, height, back int, help string) string {
	shown, note := Window(body, width, height-3-strings.Count(help, "\n")-1, back)
	var b strings.Builder
	b.WriteString(st.Title.Render(title) + "\n\n")
	for _, l := range shown {
		b.WriteString(l + "\n")
	}
	if note != "" {
		b.WriteString(st.Disabled.Render(note) + "\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString(help)
	return b.String()
}

// Scrollback is how far a small screen's TitledWindow is scrolled back
// from its newest line: the one piece of state those screens keep for it.
type Scrollback struct{ back int }

// Key moves the window on up (back, never past the first line) and down
// (on, to the newest line), and reports whether the key was one of them.
func (s *Scrollback) Key(msg tea.KeyPressMsg, up, down key.Binding, c Common, body []string, keys []key.Binding) bool {
	switch {
	case key.Matches(msg, up):
		s.back = ClampBack(s.back+1, body, max(c.Width, 20), c.Height, keys, c.Styles)
	case key.Matches(msg, down):
		s.back = max(s.back-1, 0)
	default:
		return false
	}
	return true
}

// View draws body under title in the full screen at the scrolled place.
func (s Scrollback) View(c Common, title string, body []string, keys []key.Binding) tea.View {
	v := tea.NewView(TitledWindow(c.Styles, title, body, max(c.Width, 20), c.Height, s.back, keys))
	v.AltScreen = true
	return v
}

// ViewNotice is View with a short confirmation (a copy) in place of the
// help line; an empty notice draws the help line.
func (s Scrollback) ViewNotice(c Common, title string, body []string, keys []key.Binding, notice string) tea.View {
	if notice == "" {
		return s.View(c, title, body, keys)
	}
	w := max(c.Width, 20)
	v := tea.NewView(titledWindow(c.Styles, title, body, w, c.Height, s.back, NoticeLine(w, notice, c.Styles)))
	v.AltScreen = true
	return v
}
