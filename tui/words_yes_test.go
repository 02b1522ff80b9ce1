package tui

import "testing"

// TestYesLineTakesOnlyAYes: ship's and ready's plain confirmations write
// only on y or yes; an empty line (enter, or the end of input), a no, or
// anything else writes nothing.
func TestYesLineTakesOnlyAYes(t *testing.T) {
	for line, want := range map[string]bool{
		"y": true, "Y": true, " yes ": true, "YES": true,
		"": false, "n": false, "no": false, "yep": false, "y y": false, "enter": false,
	} {
		if got := YesLine(line); got != want {
			t.Errorf("YesLine(%q) = %v, want %v", line, got, want)
		}
	}
}
