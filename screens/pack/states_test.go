package pack

import (
	tea "charm.land/bubbletea/v2"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestPackViewerGolden: enter on the first artifact opens it in the
// viewer, at 40, 80 and 120 columns.
func TestPackViewerGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := verified(t, tuitest.Common(w, 24), demo("pack"))
			m.Update(tuitest.Key("2"))
			_, cmd := m.Update(tuitest.Key("enter"))
			if cmd != nil {
				if msg := cmd(); msg != nil {
					m.Update(msg)
				}
			}
			view := m.View().Content
			if m.view == nil || !strings.Contains(ansi.Strip(view), "evidence/criterion-1.jsonl") {
				t.Fatalf("enter did not open the artifact:\n%s", ansi.Strip(view))
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}

// TestPackStoryStatesGolden: a Story's packs when p asks before pushing,
// on the local pack (tampered: it does not verify), and on the gate's
// artifact (expired), at 40, 80 and 120 columns.
func TestPackStoryStatesGolden(t *testing.T) {
	states := []struct {
		key, name, says string
	}{
		{"p", "confirm", "y pushes"},
		{"l", "local", "does not verify"},
		{"g", "gate", "expired"},
	}
	for _, s := range states {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", s.name, w), func(t *testing.T) {
				m := story(t, tuitest.Common(w, 24), demoStory(t))
				_, cmd := m.Update(tuitest.Key(s.key))
				if s.key != "p" {
					drive(t, m, cmd, func() bool { return m.finished })
				}
				view := m.View().Content
				if flat := strings.Join(strings.Fields(ansi.Strip(view)), " "); !strings.Contains(flat, s.says) {
					t.Errorf("%s does not say %q:\n%s", s.name, s.says, ansi.Strip(view))
				}
				tuitest.GoldenView(t, view, w, 24)
			})
		}
	}
}

// TestPackFolderFailedGolden: a folder that is not there is said in words,
// whole, at 40, 80 and 120 columns.
func TestPackFolderFailedGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			opts := demo("pack")
			opts.Dir = filepath.Join("..", "..", "testdata", "demo", "no-such-pack")
			m := verified(t, tuitest.Common(w, 24), opts)
			view := m.View().Content
			flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
			if !strings.Contains(flat, "could not be read") || !strings.Contains(flat, "no-such-pack") {
				t.Errorf("the failure is not said whole:\n%s", ansi.Strip(view))
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}

// TestPackViewerScrolls: an artifact longer than the screen scrolls in its
// viewport (↓/j a line, pgdown a page) and stops at its last line.
func TestPackViewerScrolls(t *testing.T) {
	m := verified(t, tuitest.Common(80, 24), demo("pack"))
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "line %03d\n", i+1)
	}
	m.view = &viewer{path: "reports/long.txt"}
	m.Update(artifactMsg{path: "reports/long.txt", data: []byte(b.String())})
	first := func() string {
		lines := strings.Split(ansi.Strip(m.View().Content), "\n")
		return strings.TrimSpace(lines[1])
	}
	if got := first(); got != "line 001" {
		t.Fatalf("the viewer opens at %q, not the first line", got)
	}
	m.Update(tuitest.Key("j"))
	if got := first(); got != "line 002" {
		t.Errorf("j moved the viewer to %q, want line 002", got)
	}
	for range 20 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	if view := ansi.Strip(m.View().Content); !strings.Contains(view, "line 100") || strings.Contains(view, "line 001") {
		t.Errorf("paging down did not reach the last line:\n%s", view)
	}
}
