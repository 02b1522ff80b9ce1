package untrusted

import "testing"

// Tests here kill mutants gremlins could not run (it reports a tagless
// switch's case conditions as not covered, go-gremlins/gremlins#298) and
// that lived when applied by hand (README, "Mutation testing").

// TestSanitizeDropsOnlyWholeSGRSequences: a colour sequence is dropped only
// when every parameter byte is a digit 0–9, ';' or ':' and it ends in 'm';
// anything else keeps its escape visible. The existing hostile table only
// checks that "red" survives, which a sanitiser showing "^[[31m" also does.
func TestSanitizeDropsOnlyWholeSGRSequences(t *testing.T) {
	for _, c := range []struct{ in, want string }{
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
	} {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSanitizeShowsEveryC1ControlAsItsEscape: U+0080 and U+009F, the edges
// of the C1 range, are shown as the 7-bit escape they stand for, like the
// rest of it, and the runes just outside it are not.
func TestSanitizeShowsEveryC1ControlAsItsEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
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
