package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestTmuxPackNamesTheRunShipWouldTake: `aayu pack 3` on the sandbox, g
// for the gate's artifact: PR 4's newest run by its record is the tampered
// one, which does not verify; ship passes over it and takes an older run,
// and the screen names that run (id, attempt, head) with ship's verdict,
// by ship's own rule.
func TestTmuxPackNamesTheRunShipWouldTake(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 140, 40, humanEnv(home)+" "+bin+" --sandbox pack 3")
	s.waitFor("ledger's best")
	s.waitFor("g gate's artifact")
	s.keys("g")
	s.waitFor("gate's run artifact")
	scr := s.waitFor("ship's verdict")
	flat := strings.Join(strings.Fields(scr), " ")
	shown := regexp.MustCompile(`aayudha-pack artifact of merge-gate run (\d+)`).FindStringSubmatch(flat)
	took := regexp.MustCompile(`would take another run: run (\d+), attempt 1, head [0-9a-f]{12}`).FindStringSubmatch(flat)
	switch {
	case !strings.Contains(flat, "does not verify"):
		t.Errorf("the gate's newest run should not verify:\n%s", scr)
	case shown == nil || took == nil:
		t.Errorf("the screen does not name the run shown and the run ship would take:\n%s", scr)
	case shown[1] == took[1]:
		t.Errorf("ship's run %s is the one on the screen", took[1])
	case !strings.Contains(flat, "every floor holds"):
		t.Errorf("ship's verdict on its run is not on the screen:\n%s", scr)
	}
	s.keys("q")
	s.waitFor("AAYU-EXIT=4")
}
