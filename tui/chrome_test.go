package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	"github.com/charmbracelet/x/ansi"
)

// TestHeaderRefusesToCutWhatTheScreenSays: on a terminal too narrow for
// the title and the screen's words, the title gives way, never the words.
func TestHeaderRefusesToCutWhatTheScreenSays(t *testing.T) {
	st := NewStyles(true)
	if got := ansi.Strip(Header(st, "aayu inbox", "acme/benefits · read at 09:00:00 UTC", 80)); got != "aayu inbox acme/benefits · read at 09:00:00 UTC" {
		t.Errorf("wide: %q", got)
	}
	if got := ansi.Strip(Header(st, "aayu inbox", "acme/benefits · read at 09:00:00 UTC", 40)); got != "acme/benefits · read at 09:00:00 UTC" {
		t.Errorf("narrow: %q, want the title gone and the words whole", got)
	}
}

// TestSpinRefusesToTickWithoutWork: the spinner starts once, only where
// motion is allowed, and its tick is dropped once no work is under way.
func TestSpinRefusesToTickWithoutWork(t *testing.T) {
	s := NewSpin()
	if s.Start(false) != nil || s.Spinning() {
		t.Fatal("the spinner started where motion is not allowed (plain, CI)")
	}
	if s.Start(true) == nil || !s.Spinning() {
		t.Fatal("the spinner did not start")
	}
	if s.Start(true) != nil {
		t.Error("a second start sent a second stream of ticks")
	}
	tick := s.Tick().(spinner.TickMsg)
	if s.Update(tick, true) == nil {
		t.Error("the spinner stopped while work is under way")
	}
	if s.Update(s.Tick().(spinner.TickMsg), false) != nil || s.Spinning() {
		t.Error("the spinner kept ticking after the work ended")
	}
	if got := ansi.Strip(s.Waited(12_700_000_000)); !strings.HasSuffix(got, " 12s") {
		t.Errorf("Waited = %q, want whole seconds", got)
	}
}
