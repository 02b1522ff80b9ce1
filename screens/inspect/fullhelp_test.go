package inspect

import (
	"context"
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestInspectFullHelpGolden: ? on the judgement at 40, 80 and 120 columns.
func TestInspectFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := New(context.Background(), tuitest.Common(w, 24), deps(judged(), nil))
			m.Update(m.Init()())
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestInspectPlainHelpGolden: the plain ? of the judgement.
func TestInspectPlainHelpGolden(t *testing.T) {
	m := New(context.Background(), tuitest.Common(80, 24), deps(judged(), nil))
	m.Update(m.Init()())
	tuitest.GoldenPlainHelp(t, m)
}
