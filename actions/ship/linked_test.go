package ship

import "testing"

// TestShipFindsTheBugOfAFixBranch: a Bug's pull request on fix/N-… links
// Bug N as the merge gate reads it, with or without a Refs line, so ship
// looks for the pack and the Ready snapshot of the same item the gate
// built them for.
func TestShipFindsTheBugOfAFixBranch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		branch, body string
		want         int
	}{
		{"fix/11-applies-case", "", 11},
		{"story/3-remaining", "Refs #9", 3},
		{"fix/11-applies-case", "Fixes #12", 11},
		{"aayu/revert-4", "Refs #7", 7},
		{"fixes/11-x", "", 0},
		{"feature/11-x", "", 0},
	} {
		if got := linkedStory(tc.branch, tc.body); got != tc.want {
			t.Errorf("linkedStory(%q, %q) = %d, want %d", tc.branch, tc.body, got, tc.want)
		}
	}
}
