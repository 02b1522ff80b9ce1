package verify

import (
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestVerifyFullHelpGolden: ? while go test runs (no output yet: o says
// why it is unavailable) and once the floors hold, at 40, 80 and 120.
func TestVerifyFullHelpGolden(t *testing.T) {
	for _, state := range []string{"running", "floorshold"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", state, w), func(t *testing.T) {
				s, finish := runningScript(), false
				if state == "floorshold" {
					s, finish = floorsHold(), true
				}
				tuitest.GoldenFullHelp(t, driven(t, tuitest.Common(w, 24), s, finish), w, 24)
			})
		}
	}
}

// TestVerifyPlainHelpGolden: the plain ? once the floors hold.
func TestVerifyPlainHelpGolden(t *testing.T) {
	tuitest.GoldenPlainHelp(t, driven(t, tuitest.Common(80, 24), floorsHold(), true))
}
