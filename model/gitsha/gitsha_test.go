package gitsha

import "testing"

func TestShortCutsToTwelveAndNeverPastTheEnd(t *testing.T) {
	for in, want := range map[string]string{
		"b046d1a1d113339eb80e130c9dc0008fa223e76f": "b046d1a1d113",
		"b046d1a1d113": "b046d1a1d113",
		"b046d1a":      "b046d1a",
		"":             "",
	} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %q, want %q", in, got, want)
		}
	}
}
