package tuitest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui"
)

// Common is a full-screen tui.Common of width×height columns and lines
// with the dark-background styles the golden files are drawn in.
func Common(width, height int) tui.Common {
	return tui.Common{Width: width, Height: height, Styles: tui.NewStyles(true)}
}

// AssertFits fails t when view has more lines than the terminal's height or
// a line wider than its width, measured in terminal columns.
func AssertFits(t testing.TB, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > height {
		t.Errorf("view has %d lines, terminal has %d", len(lines), height)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > width {
			t.Errorf("line %d is %d columns wide on a %d-column terminal: %q", i+1, n, width, ansi.Strip(l))
		}
	}
}

// AssertPlain fails t when text holds what the plain renderer must never
// print: an escape sequence, box drawing (U+2500–U+257F) or a braille
// spinner (U+2800–U+28FF).
func AssertPlain(t testing.TB, text string) {
	t.Helper()
	if strings.ContainsRune(text, '\x1b') {
		t.Error("plain output holds an escape sequence")
	}
	for _, r := range text {
		if r >= 0x2500 && r <= 0x257f || r >= 0x2800 && r <= 0x28ff {
			t.Errorf("plain output holds box drawing or braille %q", r)
			return
		}
	}
}

// GoldenView checks that view fits a width×height terminal and compares it,
// without colour, with testdata/<test name>.golden (go test -update
// rewrites the file; the flag belongs to charmbracelet/x/exp/golden).
func GoldenView(t testing.TB, view string, width, height int) {
	t.Helper()
	AssertFits(t, view, width, height)
	xgolden.RequireEqual(t, ansi.Strip(view))
}

// GoldenPlain checks a plain run's output with AssertPlain and compares it,
// followed by a line "exit CODE", with testdata/<test name>.golden.
func GoldenPlain(t testing.TB, text string, code int) {
	t.Helper()
	AssertPlain(t, text)
	xgolden.RequireEqual(t, fmt.Sprintf("%sexit %d\n", text, code))
}

// Key is the press of one key: "enter", "esc", "tab", "backspace", "up",
// "down", "left", "right", "space", or a single character such as "q" or
// "3". Any other name is a mistake in the test and panics.
func Key(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r, size := utf8.DecodeRuneInString(name)
	if r == utf8.RuneError || size != len(name) {
		panic(fmt.Sprintf("tuitest.Key: %q is neither a key name nor one character", name))
	}
	return tea.KeyPressMsg{Code: r, Text: name}
}
