package e2e

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestTmuxInspectScreenStaysUntilQ: on a terminal, aayu inspect PR is a
// full screen: the demo's PR waiting at the human rung shows the gate's
// word on its head, why its criteria cannot be listed (the demo's run
// keeps no judgement file) and the next step, stays open until q
// (a viewer, as the pack's), and q ends it with exit 0, the head's word
// left on the terminal.
func TestTmuxInspectScreenStaysUntilQ(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	pr := itoa(sandbox.DemoPRReview)
	s := newTmux(t, 100, 30, humanEnv(t.TempDir())+" "+bin+" --sandbox inspect "+pr)
	scr := s.waitFor("inspect: pending — human rung")
	for _, want := range []string{"aayu inspect #" + pr + " pending", "criteria: ", "next: aayu inspect " + pr + " --approve", "q quit"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen does not show %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "AAYU-EXIT") {
		t.Fatalf("the viewer ended by itself:\n%s", scr)
	}
	s.keys("q")
	scr = s.waitFor("AAYU-EXIT=0")
	if !strings.Contains(scr, "inspect: pending — human rung") {
		t.Errorf("the head's word is gone with the full screen:\n%s", scr)
	}
}
