package ship

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/ship"
)

// A gate that waits on GitHub (a slow network, a large artifact) shows a
// spinner and the time it has waited, as the inbox and verify do, so a
// check that takes 12 s never looks stuck.

func newSpinner() spinner.Model {
	// Line is plain ASCII: it draws on every terminal and font.
	return spinner.New(spinner.WithSpinner(spinner.Line))
}

// running says whether a gate is being checked now, on GitHub or the
// ledger: the presence check and the confirmation wait on the person, and
// their own screens show that.
func (m *Model) running() bool {
	for g, l := range m.gates {
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
	if m.spinning || m.c.Plain || m.c.CI || m.result != nil || !m.running() {
		return nil
	}
	m.spinning = true
	return m.spin.Tick
}

// onSpin moves the spinner while a gate waits and drops the tick after,
// which stops it.
func (m *Model) onSpin(msg spinner.TickMsg) tea.Cmd {
	if m.result != nil || !m.running() {
		m.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.spin, cmd = m.spin.Update(msg)
	return cmd
}

// waited is the spinner and how long the gate has waited: "/ 12s".
func (m *Model) waited(l *gateLine) string {
	d := max(0, m.now().Sub(l.since)).Truncate(time.Second)
	return fmt.Sprintf("%s %s", m.spin.View(), d)
}
