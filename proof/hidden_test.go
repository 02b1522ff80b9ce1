package proof

import (
	"strings"
	"testing"
)

// The path rule and the error notation follow model/untrusted's one rule:
// zero-width and other format characters hide or disguise a name as surely
// as a bidi override, so a path carrying one is refused and an error quoting
// one shows it escaped.
func TestPathWithZeroWidthOrFormatCharacterRefused(t *testing.T) {
	for _, r := range []rune{0x200b, 0x200d, 0x2060, 0xfeff, 0xe0041, 0x00a0, 0x202e} {
		p := "evidence/a" + string(r) + "b.txt"
		if err := CheckPath(p); err == nil {
			t.Errorf("CheckPath(%q) accepted U+%04X", p, r)
		}
		if got := escapeControls(p); strings.ContainsRune(got, r) {
			t.Errorf("escapeControls(%q) kept U+%04X raw: %q", p, r, got)
		}
	}
	if err := CheckPath("evidence/café.txt"); err != nil {
		t.Errorf("a printable accented name was refused: %v", err)
	}
}
