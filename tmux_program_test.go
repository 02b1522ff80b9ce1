package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxShipVerdictInViewAt80x24: the real binary at 80×24 runs ship on
// a pull request whose gate list does not fit; the verdict is on the screen
// when it ends, not cut off below the gates, and g scrolls to the first
// gate. NO_COLOR keeps the full screen; ? shows every key.
func TestTmuxShipVerdictInViewAt80x24(t *testing.T) {
	t.Parallel()
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

// TestTmuxOneProgramInboxShipPackBack: the real binary, one session: the
// inbox opens ship on the ready card, the person ships, esc comes back to
// the inbox, p opens the pack viewer of a card's Story, esc comes back
// again, q quits. It is one program: the terminal leaves the alternate
// screen exactly once, at the end (counted in the raw bytes tmux saw).
func TestTmuxOneProgramInboxShipPackBack(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 120, 34, "sleep 1; "+humanEnv(home)+" "+bin+" --sandbox inbox")
	raw := s.recordRaw()
	s.waitFor("Needs you (6)")
	s.keys("Down")
	s.keys("Down")
	s.waitFor("Story PR ready to ship #4 (needs you)")
	s.keys("Enter")
	s.waitFor("no: write nothing")
	s.keys("y")
	s.waitFor("shipped: merged as")
	s.keys("Escape")
	scr := s.waitFor("Needs you (5)") // back in the inbox, without the shipped card
	if !strings.Contains(scr, "aayu ship 4 ended: shipped") {
		t.Errorf("back in the inbox, the message line does not say how the ship ended:\n%s", scr)
	}
	s.keys("/")
	s.keys("8")
	s.keys("Enter")
	s.waitFor("Stopped #8 Plan-year rollover")
	s.keys("p") // its pull request links Story #7
	scr = s.waitFor("does not verify")
	if !strings.Contains(scr, "story 7") && !strings.Contains(scr, "Story 7") && !strings.Contains(scr, "#7") {
		t.Errorf("p on the card of #8 did not open Story #7's pack:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("Back from the pack screen for Story #7.")
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
	assertOneAltScreen(t, raw())
}

// TestTmuxInboxPresenceInTheSameProgram: an inbox started where an agent
// host is marked needs the presence check; it opens on top of the inbox in
// the same program, and once approved the inbox reads and shows its cards,
// without leaving the alternate screen in between.
func TestTmuxInboxPresenceInTheSameProgram(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 100, 30, "sleep 1; "+humanEnv(home)+" AMP_THREAD_ID=T-1 "+bin+" --sandbox inbox")
	raw := s.recordRaw()
	s.approveDeviceCode("founder")
	s.waitFor("Needs you (6)")
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
	assertOneAltScreen(t, raw())
}

// recordRaw keeps every byte the program writes to the pane (the command
// waits a second before starting, so nothing is missed) and returns what
// was kept so far when called.
func (s *tmuxSession) recordRaw() func() string {
	s.t.Helper()
	raw := filepath.Join(s.t.TempDir(), "raw")
	s.run("pipe-pane", "-o", "-t", s.name, "cat >> "+raw)
	return func() string {
		s.t.Helper()
		out, err := os.ReadFile(raw)
		if err != nil {
			s.t.Fatal(err)
		}
		return string(out)
	}
}

// assertOneAltScreen fails t unless the terminal entered and left the
// alternate screen exactly once: one program, whatever screens it showed.
func assertOneAltScreen(t *testing.T, raw string) {
	t.Helper()
	if n := strings.Count(raw, "\x1b[?1049h"); n != 1 {
		t.Errorf("the terminal entered the alternate screen %d times; one program enters it once", n)
	}
	if n := strings.Count(raw, "\x1b[?1049l"); n != 1 {
		t.Errorf("the terminal left the alternate screen %d times; one program leaves it once", n)
	}
}
