package ghx

import (
	"strings"
	"testing"
)

// An error sentence quoting GitHub's text shows hidden characters the way
// every screen does (model/untrusted), rather than keeping zero-width or
// format characters the old list missed.
func TestCleanShowsHiddenCharactersAsTheScreensDo(t *testing.T) {
	t.Parallel()
	for _, r := range []rune{0x200b, 0xfeff, 0x2060, 0x202e, 0x1b, 0x9b} {
		got := clean("Validation" + string(r) + "Failed")
		if strings.ContainsRune(got, r) {
			t.Errorf("clean kept U+%04X raw: %q", r, got)
		}
		if got == "ValidationFailed" {
			t.Errorf("clean dropped U+%04X silently instead of showing it", r)
		}
	}
}
