package cli

import "testing"

// TestInspectErrorKeepsItsWordsWithNoKey: the gate's error names the
// reviewer key as a mark where it appears, and with no key set it stays
// the words it was.
func TestInspectErrorKeepsItsWordsWithNoKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ msg, key, want string }{
		{"no pack in the folder", "", "no pack in the folder"},
		{"401 for sk-live-123", "sk-live-123", "401 for [the reviewer key]"},
	} {
		if got := withoutKey(c.msg, c.key); got != c.want {
			t.Errorf("withoutKey(%q, %q) = %q, want %q", c.msg, c.key, got, c.want)
		}
	}
}
