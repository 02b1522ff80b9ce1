package pack

import (
	"fmt"
	"testing"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestPackFullHelpGolden: ? on a verified pack folder and on a Story's
// packs lists every key whole at 40, 80 and 120 columns.
func TestPackFullHelpGolden(t *testing.T) {
	for _, mode := range []string{"folder", "story"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", mode, w), func(t *testing.T) {
				var m *Model
				if mode == "folder" {
					m = verified(t, tuitest.Common(w, 24), demo("pack"))
				} else {
					m = story(t, tuitest.Common(w, 24), demoStory(t))
				}
				tuitest.GoldenFullHelp(t, m, w, 24)
			})
		}
	}
}

// TestPackPlainHelpGolden: the plain ? of both modes.
func TestPackPlainHelpGolden(t *testing.T) {
	t.Run("folder", func(t *testing.T) {
		tuitest.GoldenPlainHelp(t, verified(t, tuitest.Common(80, 24), demo("pack")))
	})
	t.Run("story", func(t *testing.T) {
		tuitest.GoldenPlainHelp(t, story(t, tuitest.Common(80, 24), demoStory(t)))
	})
}
