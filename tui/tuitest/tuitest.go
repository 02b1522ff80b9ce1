package tuitest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
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

// AssertFits fails t when view has more lines than the terminal's height,
// a line wider than its width, measured in terminal columns, or a URL or
// command broken across two lines (AssertUnbroken): every golden of a
// full screen is checked by it.
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
	AssertUnbroken(t, view, width)
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

// GoldenFullHelp checks the ? screen of s at width×height: it fits, every
// key the screen lists (its FullKeys when it has them) shows with its whole
// description, a disabled one with its reason, the way back and q stay on
// the last line; then it compares the view, without colour, with
// testdata/<test name>.golden.
func GoldenFullHelp(t testing.TB, s tui.Screen, width, height int) {
	t.Helper()
	view := tui.FullHelpView(s, width, height, tui.NewStyles(true))
	AssertFits(t, view, width, height)
	plain := ansi.Strip(view)
	lines := strings.Split(plain, "\n")
	body := strings.Join(strings.Fields(strings.Join(lines[:len(lines)-1], " ")), " ")
	for _, b := range screenKeys(s) {
		h := b.Help()
		if h.Key == "" || len(b.Keys()) == 0 {
			continue
		}
		if !strings.Contains(body, h.Key) || !strings.Contains(body, strings.Join(strings.Fields(h.Desc), " ")) {
			t.Errorf("the full help at %dx%d cuts %q %q:\n%s", width, height, h.Key, h.Desc, plain)
		}
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "close help") || !strings.Contains(last, "q quit") {
		t.Errorf("the full help's last line lost the way back or q: %q", last)
	}
	xgolden.RequireEqual(t, plain)
}

// GoldenPlainHelp checks the plain twin of the ? screen of s: one line per
// key the screen lists, in words, with ? and a key for q, and nothing the plain
// renderer must not print; then compares it with testdata/<test name>.golden.
func GoldenPlainHelp(t testing.TB, s tui.Screen) {
	t.Helper()
	text := strings.Join(tui.PlainHelp(s), "\n") + "\n"
	AssertPlain(t, text)
	keys := screenKeys(s)
	var plain []key.Binding
	if pk, ok := s.(tui.PlainKeyer); ok {
		plain = pk.PlainKeys()
	}
	if plain != nil {
		// The words plain mode takes, and not the full screen's keys it
		// would refuse.
		for _, b := range keys {
			if h := b.Help(); h.Key != "" && h.Key != "?" && !listed(plain, h.Key) && strings.Contains(text, "  "+h.Key+": ") {
				t.Errorf("the plain help lists the full-screen key %q, which plain mode refuses:\n%s", h.Key, text)
			}
		}
		keys = plain
	}
	for _, b := range keys {
		h := b.Help()
		if h.Key != "" && len(b.Keys()) > 0 && !strings.Contains(text, "  "+h.Key+": "+h.Desc+"\n") {
			t.Errorf("the plain help lacks %q %q:\n%s", h.Key, h.Desc, text)
		}
	}
	if !strings.Contains(text, "  ?: ") {
		t.Errorf("the plain help lacks ?:\n%s", text)
	}
	if plain == nil && !strings.Contains(text, "  q: ") && !bindsQ(screenKeys(s)) {
		t.Errorf("the plain help lacks q:\n%s", text)
	}
	xgolden.RequireEqual(t, text)
}

// bindsQ reports whether one of bindings answers q, whatever its help
// calls it (a question's "n/esc no" may take q too).
func bindsQ(bindings []key.Binding) bool {
	for _, b := range bindings {
		for _, k := range b.Keys() {
			if k == "q" {
				return true
			}
		}
	}
	return false
}

// screenKeys is what the ? screen lists for s: its FullKeys when it has
// them, else its Keys.
func screenKeys(s tui.Screen) []key.Binding {
	if f, ok := s.(tui.FullKeyer); ok {
		return f.FullKeys()
	}
	return s.Keys()
}

// Key is the press of one key: "enter", "esc", "tab", "backspace", "up",
// "down", "left", "right", "space", "ctrl+c", or a single character such as "q" or
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
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r, size := utf8.DecodeRuneInString(name)
	if r == utf8.RuneError || size != len(name) {
		panic(fmt.Sprintf("tuitest.Key: %q is neither a key name nor one character", name))
	}
	return tea.KeyPressMsg{Code: r, Text: name}
}

func listed(bindings []key.Binding, k string) bool {
	for _, b := range bindings {
		if b.Help().Key == k {
			return true
		}
	}
	return false
}
