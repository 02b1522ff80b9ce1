package ship

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
)

// TestShipRefusalNotLedBySixNotReachedLines: a refused ship's view opens
// on the refusal and its reason (the first gate that refused), and the
// steps a refusal left "not reached" are one line, not one each.
func TestShipRefusalNotLedBySixNotReachedLines(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		m := finished(t, tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}, refused)
		view := ansi.Strip(m.View().Content)
		lines := strings.Split(view, "\n")
		if len(lines) < 4 || lines[2] != strings.TrimSpace(strings.Split(ansi.Wrap("refused: nothing was merged and nothing landed.", w, " "), "\n")[0]) {
			t.Errorf("at %d columns the view does not open on the refusal:\n%s", w, view)
		}
		flat := strings.Join(strings.Fields(view), " ")
		if !strings.Contains(flat, "because: the merge gate's pack for this head — no merge-gate run qualifies") {
			t.Errorf("at %d columns the refusal's reason is not next to it:\n%s", w, view)
		}
		tall := finished(t, tui.Common{Width: w, Height: 80, Styles: tui.NewStyles(true)}, refused)
		full := strings.Join(strings.Fields(ansi.Strip(tall.View().Content)), " ")
		if n := strings.Count(full, "not reached"); n != 1 {
			t.Errorf("at %d columns %d lines say not reached; they fold into one", w, n)
		}
	}
}

// TestShipWaitingGateNotStaticChecking: a gate that waits on GitHub shows
// a spinner that moves and the time it has waited.
func TestShipWaitingGateNotStaticChecking(t *testing.T) {
	m := running(tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)})
	before := ansi.Strip(m.View().Content)
	if !strings.Contains(before, "12s") {
		t.Fatalf("the waiting gate does not show how long it has waited:\n%s", before)
	}
	if !m.spin.Spinning() {
		t.Fatal("no spinner was started for the waiting gate")
	}
	m.Update(spinner.TickMsg{ID: m.spin.ID()})
	if after := ansi.Strip(m.View().Content); after == before {
		t.Errorf("the spinner did not move on its tick:\n%s", after)
	}
	m.Update(eventMsg(core.Event{Gate: core.GatePack, State: core.Passed, Words: "run 30000004051: the pack verifies"}))
	if cmd := m.onSpin(spinner.TickMsg{ID: m.spin.ID()}); cmd != nil || m.spin.Spinning() {
		t.Error("the spinner kept ticking with no gate waiting")
	}
}

// TestShipURLNotBrokenAcrossLines: a URL in a gate's words is an OSC 8
// link to the whole URL and its shown text is on one line, at every width.
func TestShipURLNotBrokenAcrossLines(t *testing.T) {
	const url = "https://github.com/acme/benefits/pull/4#issuecomment-1234567890"
	for _, w := range []int{40, 80, 120} {
		m := running(tui.Common{Width: w, Height: 40, Styles: tui.NewStyles(true)})
		m.Update(eventMsg(core.Event{Gate: core.GateHumanPass, State: core.Passed, Words: "your Ready to ship comment " + url + " for this head"}))
		view := m.View().Content
		if !strings.Contains(view, ansi.SetHyperlink(url)) {
			t.Errorf("at %d columns the URL is not an OSC 8 link to itself", w)
		}
		for _, l := range strings.Split(ansi.Strip(view), "\n") {
			if strings.Contains(l, "https://") && !strings.Contains(l, "1234567890") {
				t.Errorf("at %d columns the URL is broken across lines:\n%s", w, ansi.Strip(view))
			}
		}
	}
}

// TestShipYesHintNotCutToYEllipsisAt40: at 40 columns the confirmation's
// help line says how to reach the yes while writes are below, then the yes
// itself, never "y/…".
func TestShipYesHintNotCutToYEllipsisAt40(t *testing.T) {
	m, _ := untilAsked(t, tui.Common{Width: 40, Height: 16, Styles: tui.NewStyles(true)}, asking(nil))
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	help := lines[len(lines)-1]
	if !strings.Contains(help, "y/G end, then y") || strings.Contains(help, "y/…") {
		t.Errorf("with writes below, the help line does not say how to reach the yes: %q", help)
	}
	m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	lines = strings.Split(ansi.Strip(m.View().Content), "\n")
	if help = lines[len(lines)-1]; !strings.Contains(help, "y yes") || !strings.Contains(help, "q quit") && !strings.Contains(help, "n/esc/q no") {
		t.Errorf("with every write in view, the help line does not offer y: %q", help)
	}
}
