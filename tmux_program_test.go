package main

import (
	"strings"
	"testing"
)

// TestTmuxShipVerdictInViewAt80x24: the real binary at 80×24 runs ship on
// a pull request whose gate list does not fit; the verdict is on the screen
// when it ends, not cut off below the gates, and g scrolls to the first
// gate. NO_COLOR keeps the full screen; ? shows every key.
func TestTmuxShipVerdictInViewAt80x24(t *testing.T) {
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 80, 24, humanEnv(home)+" NO_COLOR=1 "+bin+" --sandbox ship 8")
	scr := s.waitFor("refused: nothing was merged")
	if !strings.Contains(scr, "q quit") || !strings.Contains(scr, "lines ") {
		t.Errorf("at 80x24 the help line lost q quit or the position is not shown:\n%s", scr)
	}
	s.keys("g")
	scr = s.waitFor("pull request open and mergeable")
	if strings.Contains(scr, "refused: nothing was merged") {
		t.Errorf("g did not scroll to the top:\n%s", scr)
	}
	s.keys("?")
	s.waitFor("close help")
	s.keys("?") // esc closes it too, but tmux would send esc and q as alt+q
	s.waitFor("pull request open and mergeable")
	s.keys("q")
	s.waitFor("AAYU-EXIT=4")
}
