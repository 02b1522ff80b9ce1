package ship

import (
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestShipFullHelpGolden: ? after a ship at 24 lines lists the scroll keys
// the long gate list needs and the pack key, and while a confirmation asks
// it lists yes and no; every key whole at 40, 80 and 120 columns.
func TestShipFullHelpGolden(t *testing.T) {
	for _, state := range []string{"shipped", "confirm"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", state, w), func(t *testing.T) {
				c := tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}
				var m *Model
				if state == "shipped" {
					m = finished(t, c, shipped)
				} else {
					m, _ = untilAsked(t, c, asking(nil))
				}
				m.View() // lays out the body, so the keys know it overflows
				tuitest.GoldenFullHelp(t, m, w, 24)
			})
		}
	}
}

// TestShipPlainHelpGolden: the plain ? while a confirmation asks.
func TestShipPlainHelpGolden(t *testing.T) {
	m, _ := untilAsked(t, tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, asking(nil))
	m.View()
	tuitest.GoldenPlainHelp(t, m)
}
