package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Frame lays out a full screen of width×height: body padded with blank
// lines or cut to height-1 lines, help on the last line so it stays at the
// bottom, and every line cut to width with "…".
func Frame(body []string, width, height int, help string) string {
	lines := make([]string, 0, height)
	lines = append(lines, body[:min(len(body), max(height-1, 0))]...)
	for len(lines) < height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, help)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}
