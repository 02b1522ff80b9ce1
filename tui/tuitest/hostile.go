package tuitest

import (
	"strings"
	"testing"
	"unicode"
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
