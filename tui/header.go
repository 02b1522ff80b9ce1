package tui

import "charm.land/lipgloss/v2"

// Header is a screen's first line: its title, styled, then what the screen
// is about (rest). On a terminal too narrow for both the title gives way,
// so what the screen says of its state (how fresh its cards are, which
// Story) is never the part cut off.
func Header(st Styles, title, rest string, width int) string {
	if t := st.Title.Render(title) + " "; lipgloss.Width(t+rest) <= width {
		return t + rest
	}
	return rest
}
