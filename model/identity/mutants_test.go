package identity

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/untrusted"
)

// Tests here kill mutants gremlins left uncovered in the identity rules
// (README, "Mutation testing").

// TestUnusedSoloBypassCommentNeverPassesAHeadAgain: ship rewrites a bypass
// comment no merge used so that it keeps the record (why, then the original
// quoted line by line) but can no longer be found as a bypass for any head.
func TestUnusedSoloBypassCommentNeverPassesAHeadAgain(t *testing.T) {
	head := strings.Repeat("a", 40)
	moved := strings.Repeat("b", 40)
	original := SoloBypassComment(head, "solo mode, no second person")
	edited := UnusedSoloBypassComment(head, moved, original)

	if !strings.HasPrefix(edited, UnusedSoloBypassPrefix+" head "+head+" moved to "+moved) {
		t.Errorf("edited comment does not start with the unused prefix and both heads:\n%s", edited)
	}
	if want := "\n\nAs first posted:\n\n> Solo-mode bypass: solo mode, no second person\n> \n> Head: " + head; !strings.HasSuffix(edited, want) {
		t.Errorf("edited comment does not end with the original quoted line by line:\n%s\nwant suffix:\n%s", edited, want)
	}
	founder := Account{Login: "founder", Permission: "admin"}
	for _, h := range []string{head, moved, ""} {
		if _, ok := FindSoloBypassComment([]Comment{{ID: 1, Author: founder, Body: untrusted.Text(edited)}}, "founder", h, nil); ok {
			t.Errorf("the unused comment still counts as a bypass for head %q", h)
		}
	}
}
