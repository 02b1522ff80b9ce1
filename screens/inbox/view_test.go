package inbox

import (
	"strings"
	"testing"
)

// TestConfettiNeverCoversCardText: every frame of the confetti keeps every
// character of the card where it was; glyphs go only in blank cells.
func TestConfettiNeverCoversCardText(t *testing.T) {
	card := []string{
		"Decision #1 (needs you): Production Engineer seat",
		"counsel: Add the seat: on-call gaps cost more than the seat.",
		"  1  accept option 1: Add the seat (recommended)",
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	}
	const w, h = 60, 8
	for frame := range 12 {
		got := sprinkle(append([]string(nil), card...), w, h, frame)
		for i, line := range card {
			g := []rune(got[i])
			for j, r := range []rune(line + " ") { // the text and the cell after it
				if j < len(g) && j < w && g[j] != r {
					t.Fatalf("frame %d drew %q over %q at line %d column %d:\n%s", frame, g[j], r, i, j, strings.Join(got, "\n"))
				}
			}
		}
	}
}
