package doctor

import (
	"context"
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestDoctorFullHelpGolden: ? on the doctor's report at 40, 80 and 120.
func TestDoctorFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := New(context.Background(), tuitest.Common(w, 24), nil)
			m.Update(reportMsg{rep: report()})
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestDoctorPlainHelpGolden: the plain ? of the doctor's report.
func TestDoctorPlainHelpGolden(t *testing.T) {
	m := New(context.Background(), tuitest.Common(80, 24), nil)
	m.Update(reportMsg{rep: report()})
	tuitest.GoldenPlainHelp(t, m)
}
