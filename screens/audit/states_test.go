package audit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestAuditStatesGolden: while it reads, when the read fails, and a
// ledger with nothing to report, at 40, 80 and 120 columns.
func TestAuditStatesGolden(t *testing.T) {
	states := []struct {
		name string
		read bool
		rep  core.Report
		err  error
		says string
	}{
		{"reading", false, core.Report{}, nil, "reading the ledger"},
		{"failed", true, core.Report{}, errors.New("GitHub could not be reached"), "GitHub could not be reached"},
		{"empty", true, core.Report{}, nil, "Solo-mode bypasses: none"},
	}
	for _, s := range states {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", s.name, w), func(t *testing.T) {
				m := New(context.Background(), tuitest.Common(w, 24), deps(s.rep, s.err))
				if s.read {
					m.Update(m.Init()())
				}
				view := m.View().Content
				flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
				if !strings.Contains(flat, s.says) || !strings.Contains(flat, "q quit") {
					t.Errorf("the %s audit does not say %q or lost q:\n%s", s.name, s.says, ansi.Strip(view))
				}
				tuitest.GoldenView(t, view, w, 24)
			})
		}
	}
}
