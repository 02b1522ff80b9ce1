package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxShipVerdictInViewAt80x24: the real binary at 80×24 runs ship on
// a pull request whose gate list does not fit; the view opens on the
// refusal and its reason, not on the gates, the steps it left "not
// reached" are one line, G scrolls to the last gate and g back. NO_COLOR
// keeps the full screen; ? shows every key.
func TestTmuxShipVerdictInViewAt80x24(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 80, 24, humanEnv(home)+" NO_COLOR=1 "+bin+" --sandbox ship 8")
	scr := s.waitFor("refused: nothing was merged")
	if !strings.Contains(scr, "q quit") || !strings.Contains(scr, "lines ") {
		t.Errorf("at 80x24 the help line lost q quit or the position is not shown:\n%s", scr)
	}
	if !strings.Contains(scr, "because: ") {
		t.Errorf("the refusal's reason is not next to it:\n%s", scr)
	}
	s.keys("G")
	scr = s.waitFor("steps not reached")
	if strings.Contains(scr, "refused: nothing was merged") || strings.Count(scr, "not reached") != 1 {
		t.Errorf("G did not scroll to the folded last line:\n%s", scr)
	}
	s.keys("g")
	s.waitFor("refused: nothing was merged")
	s.keys("?")
	s.waitFor("close help")
	s.keys("?") // esc closes it too, but tmux would send esc and q as alt+q
	s.waitFor("refused: nothing was merged")
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
	s.waitCards(8)
	s.keys("Down")
	s.keys("Down")
	s.waitFor("Story PR ready to ship #4 (needs you)")
	s.keys("Enter")
	s.waitFor("no: write nothing")
	s.keys("y")
	s.waitFor("shipped: merged as")
	s.keys("Escape")
	scr := s.waitCards(7) // back in the inbox, without the shipped card
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
	// The quit summary: one named block per screen that ran, the actions
	// log's folder, and the exit: what the person did (the ship landed),
	// not the pack they only looked at.
	scr = s.waitFor("AAYU-EXIT=0")
	flat := strings.Join(strings.Fields(scr), " ")
	for _, want := range []string{
		"ship #4: merged into dev as ", "pack, Story #7: does not verify", "inbox: ",
		"The actions log keeps every write", "exit 0: every screen finished.",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the quit summary lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "result: exit") {
		t.Errorf("the quit summary has an unnamed result line:\n%s", scr)
	}
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
	s.waitCards(8)
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

// TestTmuxSmallTerminalCardScrollsAndYesNotCut: the real binary at 40×24.
// A card taller than its pane says "more below: pgdn" and pgdown brings
// its choices into view; at ship's confirmation the help line says how to
// reach the yes (G) and then offers y, never "y/…", and y ships.
func TestTmuxSmallTerminalCardScrollsAndYesNotCut(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 40, 24, humanEnv(home)+" NO_COLOR=1 "+bin+" --sandbox inbox")
	s.waitCards(8)
	scr := s.waitFor("more below: pgdn")
	if strings.Contains(scr, "  s  skip") {
		t.Fatalf("the card's end is in view though it says more below:\n%s", scr)
	}
	s.keys("NPage")
	s.keys("NPage")
	s.keys("NPage")
	s.waitFor("  s  skip")
	s.keys("Down")
	s.keys("Down")
	s.waitFor("ready to ship #4")
	s.keys("Enter")
	scr = s.waitFor("G end, then y")
	if strings.Contains(scr, "y/…") {
		t.Errorf("the yes hint is cut:\n%s", scr)
	}
	// y works without G: the first y shows the last write and the
	// answers (a yes only to writes the person could see), the next
	// writes.
	s.keys("y")
	s.waitFor("y yes")
	s.keys("y")
	s.waitFor("shipped: merged as")
	s.keys("Escape")
	s.waitCards(7)
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
}
