package login

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
)

// View draws the screen in the full-screen renderer.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render(m.c.Width, m.c.Height))
	v.AltScreen = true
	return v
}

// Render draws the screen into a width × height area, so the inbox can show
// the same screen inside its own frame. No line is wider than width, and on
// a short terminal the screen first drops its blank lines and the box's
// padding and cuts each request line to one line, then the least important
// lines at the bottom.
func (m *Model) Render(width, height int) string {
	w, h := max(width, 20), max(height, 6)
	var body []string
	for fit := roomy; fit <= cramped; fit++ {
		if body = m.body(w, fit); len(body) <= h-1 {
			break
		}
	}
	for len(body) < h-1 {
		body = append(body, "")
	}
	body = append(body[:h-1], tui.HelpLine(w, m.Keys(), m.c.Styles))
	for i, l := range body {
		body[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(body, "\n")
}

// How tightly the screen is laid out: roomy has blank lines and a padded
// box; tight has neither; cramped also cuts each request line to one line.
const (
	roomy = iota
	tight
	cramped
)

func (m *Model) body(w int, fit int) []string {
	st := m.c.Styles
	gap := func(b []string) []string {
		if fit > roomy {
			return b
		}
		return append(b, "")
	}
	body := gap([]string{st.Title.Render("Presence check")})
	for _, l := range m.header() {
		if fit == cramped { // one line each, so the code keeps its room
			body = append(body, ansi.Truncate(l, w, "…"))
			continue
		}
		body = append(body, wrap(l, w)...)
	}
	body = gap(body)
	switch m.phase {
	case phaseRequesting:
		body = append(body, st.Warning.Render("asking GitHub for a code")+"…")
	case phaseWaiting, phaseChecking:
		body = append(body, m.codeLines(w, fit > roomy)...)
	case phaseExpired:
		body = append(body, wrap(st.Failed.Render("Expired")+": the code expired before anyone approved it.", w)...)
		body = append(body, wrap("Nothing was done. Press Enter for a new code.", w)...)
	case phaseApproved:
		body = append(body, wrap(st.OK.Render(m.approvedLine()), w)...)
	case phaseFailed:
		body = append(body, st.Failed.Render("Not approved")+":")
		body = append(body, wrap(tui.SanitizeLine(m.fail.what), w)...)
		body = append(body, wrap(tui.SanitizeLine(m.fail.next), w)...)
	}
	return body
}

// codeLines shows the link, the code large, the countdown and what to do,
// most important first.
func (m *Model) codeLines(w int, compact bool) []string {
	st := m.c.Styles
	left := m.codeShown.expiresAt.Sub(m.codeShown.now)
	lines := []string{"On any device, open", "  " + st.Link.Render(tui.Hyperlink(m.codeShown.uri, m.codeShown.uri)), "and enter the code " + m.codeShown.userCode + ":"}
	lines = append(lines, bigCode(m.codeShown.userCode, st, w, compact)...)
	lines = append(lines, st.Warning.Render("expires in "+clock(left))+", at "+m.codeShown.expiresAt.UTC().Format("15:04")+" UTC")
	if m.phase == phaseChecking {
		lines = append(lines, wrap(st.OK.Render("approved on GitHub")+"; checking the approving account…", w)...)
	} else {
		lines = append(lines, wrap("Approve only if you asked for this command. Waiting…", w)...)
	}
	if m.notice != "" {
		lines = append(lines, wrap(st.Subtle.Render(m.notice), w)...)
	}
	lines = append(lines, wrap("Enter opens it in your browser; c copies the code.", w)...)
	if m.deps.InTmux {
		lines = append(lines, wrap(st.Subtle.Render("In tmux, c reaches your clipboard only with: tmux set -s set-clipboard on"), w)...)
	}
	return lines
}

// bigCode draws the code spaced out, bold, in a box, readable from across a
// room and at 40 columns. When even that does not fit it falls back to the
// code alone.
func bigCode(code string, st tui.Styles, w int, compact bool) []string {
	spaced := strings.Join(strings.Split(code, ""), " ")
	pad := 1
	if compact {
		pad = 0
	}
	box := st.Border.Padding(pad, 3).Render(st.Code.Bold(true).Render(spaced))
	if lipgloss.Width(box)+2 > w {
		return []string{"  " + st.Code.Bold(true).Render(code)}
	}
	lines := strings.Split(box, "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return lines
}

// wrap breaks s into lines no wider than w, keeping the indentation of a
// header line ("  Command: …") on the lines that follow.
func wrap(s string, w int) []string {
	lines := tui.WrapLinks(s, w, "")
	if len(lines) == 1 || !strings.HasPrefix(s, "  ") || w < 20 {
		return lines
	}
	const indent = "    "
	rest := strings.TrimLeft(strings.Join(lines[1:], " "), " ")
	more := tui.WrapLinks(rest, w-len(indent), "")
	for i := range more {
		more[i] = indent + more[i]
	}
	return append(lines[:1], more...)
}
