package login

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/aayudha/aayu/tui"
)

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return "login (presence check)" }

// Headline is the presence check's outcome for the quit summary: who
// approved it, or that it did not approve.
func (m *Model) Headline() string {
	switch {
	case m.phase == phaseApproved && m.session != nil:
		return fmt.Sprintf("%s (exit %d)", strings.TrimSuffix(m.approvedLine(), "."), m.code)
	case m.fail != nil && m.code == exitOK:
		return "not approved (exit 0)"
	case m.fail != nil:
		return fmt.Sprintf("not approved (exit %d):", m.code)
	}
	return fmt.Sprintf("closed before a code was approved (exit %d)", m.code)
}

// PlainKeys is what the plain presence check takes as a typed line (the
// plain ?): there is no copy key in plain mode, the code is on the page.
func (m *Model) PlainKeys() []key.Binding {
	w := tui.PlainWord
	switch m.phase {
	case phaseExpired:
		return []key.Binding{w("enter", "ask for a new code"), w("q", "stop: nothing is approved")}
	case phaseApproved, phaseFailed:
		return []key.Binding{w("enter", "leave this screen")}
	}
	return []key.Binding{w("enter", "open the link in a browser, where there is one"), w("q", "stop waiting: nothing is approved")}
}
