package tuitest

import (
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Hostile is text from outside aayu (GitHub, a pack, a server's error)
// carrying each kind of terminal control a test plants: a screen clear, an
// OSC 52 clipboard write, a C1 CSI, a bidi override and a zero-width space.
const Hostile = "x\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

// HostileShown is Hostile as aayu shows it: every control made visible.
const HostileShown = "x^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>"

// AssertInert fails t when s holds a rune a terminal would obey, or one
// that would reorder or hide text; line breaks are allowed.
func AssertInert(t testing.TB, where, s string) {
	t.Helper()
	for i, r := range s {
		if r != '\n' && !unicode.IsPrint(r) {
			t.Fatalf("%s holds %U at byte %d:\n%q", where, r, i, s)
		}
	}
}

// AssertShowsHostile is AssertInert, and fails t too when s does not show
// HostileShown at least want times (wrapped text counts: spaces and line
// breaks are ignored).
func AssertShowsHostile(t testing.TB, where, s string, want int) {
	t.Helper()
	AssertInert(t, where, s)
	if got := strings.Count(strings.Join(strings.Fields(s), ""), HostileShown); got < want {
		t.Errorf("%s shows the hostile text neutralised %d times, want %d:\n%s", where, got, want, s)
	}
}

// Attack is the hostile text the screens' goldens plant where GitHub or a
// pack could: an OSC 52 clipboard write, a screen clear, a title change
// and a bidi override, around words ("EVIL") that must still show.
const Attack = "EVIL\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;pwned\x07\u202eEND"

// AssertDefused fails t when text holds any of Attack's controls, or does
// not show its words.
func AssertDefused(t testing.TB, text string) {
	t.Helper()
	for _, esc := range []string{"\x1b]52", "\x07", "\x1b[2J", "\x1b]0;", "\u202e"} {
		if strings.Contains(text, esc) {
			t.Fatalf("%q reached the terminal: %q", esc, text)
		}
	}
	if !strings.Contains(ansi.Strip(text), "EVIL") {
		t.Fatalf("the hostile words are not shown:\n%s", ansi.Strip(text))
	}
}
