package untrusted

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
)

// hostile holds one of each class of byte a writer on GitHub could use to
// take over a terminal or mislead a reader.
var hostile = []struct{ name, in, line string }{
	{"CSI screen clear", "a\x1b[2Jb", "a^[[2Jb"},
	{"OSC 52 clipboard write", "a\x1b]52;c;cm0gLXJmIH4=\x07b", "a^[]52;c;cm0gLXJmIH4=^Gb"},
	{"OSC 8 link", "\x1b]8;;http://evil\x1b\\x", "^[]8;;http://evil^[\\x"},
	{"UTF-8 C1 CSI", "a\u009b6nb", "a^[[6nb"},
	{"raw C1 byte", "a\x9b6nb", "a^[[6nb"},
	{"bidi override", "a\u202eb", "a<U+202E>b"},
	{"bidi isolate", "a\u2066b\u2069", "a<U+2066>b<U+2069>"},
	{"zero-width space", "a\u200bb", "a<U+200B>b"},
	{"carriage return", "ok\rno", "ok^Mno"},
	{"backspace", "ok\bno", "ok^Hno"},
	{"line break in a title", "a\nb", "a⏎b"},
	{"SGR colour is dropped", "\x1b[31mred\x1b[0m", "red"},
	{"not UTF-8", "a\xffb", `a\xFFb`},
}

func TestTextRendersOnlySanitised(t *testing.T) {
	for _, c := range hostile {
		t.Run(c.name, func(t *testing.T) {
			tx := Text(c.in)
			for how, got := range map[string]string{
				"String": tx.String(), "%s": fmt.Sprintf("<%s>", tx), "%v": fmt.Sprintf("<%v>", tx),
				"concatenated by Sprintf": fmt.Sprintf("accept option 2: %s", tx),
			} {
				if !strings.Contains(got, c.line) {
					t.Errorf("%s = %q, want it to hold %q", how, got, c.line)
				}
				assertInert(t, how, got)
			}
			if got := fmt.Sprintf("%q", tx); strings.ContainsAny(got, "\x1b\x07\u009b\u202e\u200b") {
				t.Errorf("%%q = %q holds a control", got)
			}
			assertInert(t, "Block", tx.Block())
			if tx.Raw() != c.in {
				t.Errorf("Raw() = %q, want the bytes as given, %q", tx.Raw(), c.in)
			}
		})
	}
}

// TestSanitizeShowsEscapesAndDropsOnlyColour: a colour sequence is dropped
// only when every parameter byte is a digit 0–9, ';' or ':' and it ends in
// 'm'; anything else keeps its escape visible (the hostile table above
// only checks that "red" survives, which a sanitiser showing "^[[31m" also
// does). The C1 range's edges, U+0080 and U+009F, are shown as the 7-bit
// escape they stand for like the rest of it, and the runes just outside it
// are not.
func TestSanitizeShowsEscapesAndDropsOnlyColour(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// colour (SGR) sequences
		{"\x1b[0mx", "x"},
		{"\x1b[9mx", "x"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b[1;31mx", "x"},
		{"\x1b[38:5:196mx", "x"},
		{"\x1b[mx", "x"},
		{"\x1b[/mx", "^[[/mx"},
		{"\x1b[<mx", "^[[<mx"},
		{"\x1b[?25l", "^[[?25l"},
		{"\x1b[31", "^[[31"},
		{"\x1b[", "^[["},
		{"\x1bm", "^[m"},
		// the C1 range and its neighbours
		{"\u0080", "^[@"},
		{"\u009b", "^[["},
		{"\u009f", "^[_"},
		{"\x80", "^[@"},
		{"\x9f", "^[_"},
		{"\xa0", `\xA0`},
		{"\u00a0", " "},
		{"\x7f", "^?"},
	} {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTextEmptyOnlyForNoText: a title of one space is text, shown; only
// no text at all is empty.
func TestTextEmptyOnlyForNoText(t *testing.T) {
	if !Text("").Empty() || Text(" ").Empty() || Text("\x1b").Empty() {
		t.Error("Empty must be true for \"\" alone")
	}
}

func TestTextBlockKeepsLineBreaks(t *testing.T) {
	got := Text("line one\x1b[2J\r\nline two\u202e").Block()
	if got != "line one^[[2J\nline two<U+202E>" {
		t.Fatalf("Block() = %q", got)
	}
}

// assertInert fails when s holds a rune a terminal would obey or that would
// reorder or hide text.
func assertInert(t *testing.T, how, s string) {
	t.Helper()
	for i, r := range s {
		if r == '\n' || unicode.IsPrint(r) {
			continue
		}
		t.Errorf("%s: %q holds %U at byte %d", how, s, r, i)
	}
}
