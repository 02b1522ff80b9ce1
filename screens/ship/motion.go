package ship

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/ship"
)

// A gate that waits on GitHub (a slow network, a large artifact) shows a
// spinner and the time it has waited, as the inbox and verify do, so a
// check that takes 12 s never looks stuck.

// running says whether a gate is being checked now, on GitHub or the
// ledger: the presence check and the confirmation wait on the person, and
// their own screens show that.
func (m *Model) running() bool {
	for g, l := range m.run.gates {
		if l.state == core.Running && spins(g) {
			return true
		}
	}
	return false
}

// spins says whether gate g shows the spinner while it runs.
func spins(g core.GateID) bool { return g != core.GatePresence && g != core.GateConfirm }

// startSpin starts the spinner when a gate began waiting and it is not
// already moving; the full screen only.
func (m *Model) startSpin() tea.Cmd {
	return m.spin.Start(!m.c.Plain && !m.c.CI && m.run.result == nil && m.running())
}

// onSpin moves the spinner while a gate waits and drops the tick after,
// which stops it.
func (m *Model) onSpin(msg spinner.TickMsg) tea.Cmd {
	return m.spin.Update(msg, m.run.result == nil && m.running())
}

// waited is the spinner and how long the gate has waited: "/ 12s".
func (m *Model) waited(l *gateLine) string {
	return m.spin.Waited(m.now().Sub(l.since))
}
