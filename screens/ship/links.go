package ship

import "github.com/aayudha/aayu/tui"

// wrapLinks wraps a gate's words to w columns, every URL an OSC 8 link
// never broken across lines (tui.WrapLinks).
func wrapLinks(text string, w int) []string { return tui.WrapLinks(text, w, " ") }
