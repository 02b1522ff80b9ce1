package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

const (
	helpSeparator = " • "
	helpEllipsis  = "…"
)

// HelpLine renders bindings as one line no wider than width cells. Enabled
// bindings show "key what-it-does"; disabled ones stay in the line, drawn
// with Styles.Disabled, and their help text says why (see Disable). Bindings
// with no help key (unbound) are left out. When not every item fits, the line
// ends in "…" after the last item that does.
func HelpLine(width int, bindings []key.Binding, st Styles) string {
	if width <= 0 {
		return ""
	}
	sep := st.HelpSeparator.Render(helpSeparator)
	sepWidth := ansi.StringWidth(helpSeparator)

	var b strings.Builder
	used := 0
	for _, kb := range bindings {
		h := kb.Help()
		if h.Key == "" {
			continue
		}
		item := renderHelpItem(h, kb.Enabled(), st)
		itemWidth := ansi.StringWidth(h.Key) + 1 + ansi.StringWidth(h.Desc)
		gap := 0
		if used > 0 {
			gap = sepWidth
		}
		if used+gap+itemWidth > width {
			return finishTruncated(b.String(), used, width, item, st)
		}
		if used > 0 {
			b.WriteString(sep)
		}
		b.WriteString(item)
		used += gap + itemWidth
	}
	return b.String()
}

// finishTruncated ends a help line that ran out of room: the first item is
// cut to fit, later items are replaced by an ellipsis when there is room.
func finishTruncated(line string, used, width int, item string, st Styles) string {
	if used == 0 {
		return ansi.Truncate(item, width, helpEllipsis)
	}
	tail := " " + helpEllipsis
	if used+ansi.StringWidth(tail) <= width {
		return line + st.HelpSeparator.Render(tail)
	}
	return line
}

func renderHelpItem(h key.Help, enabled bool, st Styles) string {
	if !enabled {
		return st.Disabled.Render(h.Key + " " + h.Desc)
	}
	return st.Key.Render(h.Key) + " " + st.KeyDesc.Render(h.Desc)
}
