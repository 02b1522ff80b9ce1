package login

import (
	"fmt"
	"strings"
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
