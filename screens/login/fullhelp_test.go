package login

import (
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestLoginFullHelpGolden: ? before the code arrives (open and copy say
// why they wait) and while the code is shown, at 40, 80 and 120 columns.
func TestLoginFullHelpGolden(t *testing.T) {
	for _, state := range []string{"requesting", "waiting"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", state, w), func(t *testing.T) {
				deps := Deps{InTmux: true, OpenBrowser: func(string) error { return nil }}
				m, _ := staged(t, tuitest.Common(w, 24), shipRequest(), deps)
				if state == "waiting" {
					showCode(m)
				}
				tuitest.GoldenFullHelp(t, m, w, 24)
			})
		}
	}
}

// TestLoginPlainHelpGolden: the plain ? while the code is shown.
func TestLoginPlainHelpGolden(t *testing.T) {
	m, _ := staged(t, tuitest.Common(80, 24), shipRequest(), Deps{InTmux: true, OpenBrowser: func(string) error { return nil }})
	showCode(m)
	tuitest.GoldenPlainHelp(t, m)
}
