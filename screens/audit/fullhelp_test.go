package audit

import (
	"context"
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestAuditFullHelpGolden: ? on the audit report at 40, 80 and 120 columns.
func TestAuditFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := New(context.Background(), tuitest.Common(w, 24), deps(report(), nil))
			m.Update(m.Init()())
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestAuditPlainHelpGolden: the plain ? of the audit report.
func TestAuditPlainHelpGolden(t *testing.T) {
	m := New(context.Background(), tuitest.Common(80, 24), deps(report(), nil))
	m.Update(m.Init()())
	tuitest.GoldenPlainHelp(t, m)
}
