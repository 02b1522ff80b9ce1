package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestClampBackStopsAtTheFirstLine: however many times ↑ is pressed, the
// window scrolls back only to the first line, so one ↓ moves it at once.
func TestClampBackStopsAtTheFirstLine(t *testing.T) {
	var body []string
	for i := range 60 {
		body = append(body, fmt.Sprintf("line %d", i+1))
	}
	st := NewStyles(true)
	back := 0
	for range 500 {
		back = ClampBack(back+1, body, 40, 24, nil, st)
	}
	top := strings.Split(TitledWindow(st, "t", body, 40, 24, back, nil), "\n")[2]
	if top != "line 1" {
		t.Fatalf("scrolled back to the end, the window starts at %q, not the first line", top)
	}
	after := strings.Split(TitledWindow(st, "t", body, 40, 24, back-1, nil), "\n")[2]
	if after != "line 2" {
		t.Errorf("one ↓ after scrolling back to the top shows %q first, want line 2", after)
	}
	if ClampBack(5, body[:3], 40, 24, nil, st) != 0 {
		t.Error("a body that fits cannot scroll back")
	}
}

// TestScrollbackKeys: ↑ scrolls back only as far as the first line, ↓ goes
// on, and other keys are left to the screen.
func TestScrollbackKeys(t *testing.T) {
	var body []string
	for i := range 60 {
		body = append(body, fmt.Sprintf("line %d", i+1))
	}
	c := Common{Width: 40, Height: 24, Styles: NewStyles(true)}
	k := DefaultKeys()
	var s Scrollback
	for range 200 {
		if !s.Key(tea.KeyPressMsg{Code: tea.KeyUp}, k.Up, k.Down, c, body, nil) {
			t.Fatal("↑ was not taken as scrolling")
		}
	}
	if top := strings.Split(s.View(c, "t", body, nil).Content, "\n")[2]; top != "line 1" {
		t.Fatalf("scrolled all the way back, the window starts at %q", top)
	}
	s.Key(tea.KeyPressMsg{Code: tea.KeyDown}, k.Up, k.Down, c, body, nil)
	if top := strings.Split(s.View(c, "t", body, nil).Content, "\n")[2]; top != "line 2" {
		t.Errorf("one ↓ after the top shows %q first, want line 2", top)
	}
	if s.Key(tea.KeyPressMsg{Code: 'q', Text: "q"}, k.Up, k.Down, c, body, nil) {
		t.Error("q was taken as scrolling")
	}
}

// TestWindowNeverBreaksAURLAcrossLines: a result's link (decide's comment,
// proof push's) on a narrow terminal is one line, shortened in its middle,
// and an OSC 8 link to the whole URL, not two halves neither of which
// opens.
func TestWindowNeverBreaksAURLAcrossLines(t *testing.T) {
	const u = "https://github.com/acme/benefits/issues/1#issuecomment-4066"
	for _, w := range []int{30, 40, 80} {
		got, _ := Window([]string{"The link to the comment on #1:", u, "result: exit 0"}, w, 0, 0)
		var urlLines []string
		for _, l := range got {
			if strings.Contains(ansi.Strip(l), "issuecomment") || strings.Contains(ansi.Strip(l), "https://") {
				urlLines = append(urlLines, l)
			}
		}
		if len(urlLines) != 1 {
			t.Errorf("at %d columns the URL spans %d lines:\n%s", w, len(urlLines), strings.Join(got, "\n"))
			continue
		}
		if !strings.Contains(urlLines[0], ansi.SetHyperlink(u)) || ansi.StringWidth(urlLines[0]) > w {
			t.Errorf("at %d columns the URL line is not a link to the whole URL within the width: %q", w, urlLines[0])
		}
	}
}
