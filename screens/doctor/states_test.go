package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestDoctorStatesGolden: while it reads, a set-up repository, and a read
// that failed, at 40, 80 and 120 columns.
func TestDoctorStatesGolden(t *testing.T) {
	allOK := core.Report{Repo: "acme/benefits", Rows: []core.Row{
		{Name: "ledger branch", State: core.OK, Detail: "present"},
		{Name: "gate required on main", State: core.OK, Detail: "aayudha/merge-gate is required by a ruleset"},
	}}
	states := []struct {
		name string
		msg  *reportMsg
		says string
	}{
		{"reading", nil, "reading…"},
		{"allok", &reportMsg{rep: allOK}, "Set up: every row is ok."},
		{"failed", &reportMsg{err: errors.New("GitHub could not be reached")}, "Nothing was checked."},
	}
	for _, s := range states {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", s.name, w), func(t *testing.T) {
				m := New(context.Background(), tuitest.Common(w, 24), nil)
				if s.msg != nil {
					m.Update(*s.msg)
				}
				view := m.View().Content
				flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
				if !strings.Contains(flat, s.says) || !strings.Contains(flat, "q quit") {
					t.Errorf("the %s doctor does not say %q or lost q:\n%s", s.name, s.says, ansi.Strip(view))
				}
				tuitest.GoldenView(t, view, w, 24)
			})
		}
	}
}
