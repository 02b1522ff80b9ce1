package tui

import (
	"fmt"
	"strings"
	"testing"
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
