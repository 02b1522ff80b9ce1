package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// questionScreen asks yes or no and lists no quit key of its own.
type questionScreen struct{ fakeScreen }

func (questionScreen) Keys() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "write them")),
		key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "write nothing")),
	}
}

// TestPlainHelpNeverHidesQuit: the plain ? names q even when the screen's
// own keys do not, as the full ? screen's last line does.
func TestPlainHelpNeverHidesQuit(t *testing.T) {
	got := strings.Join(PlainHelp(questionScreen{}), "\n")
	for _, want := range []string{"  y: write them", "  n: write nothing", "  ?: help", "  q: quit"} {
		if !strings.Contains(got, want) {
			t.Errorf("the plain help lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "q: ") != 1 {
		t.Errorf("q listed more than once:\n%s", got)
	}
	if full := FullHelpView(questionScreen{}, 40, 24, NewStyles(true)); !strings.Contains(full, "quit") {
		t.Errorf("the full ? screen lost quit:\n%s", full)
	}
}
