package pass

import "testing"

func TestUnlistedFiles(t *testing.T) {
	for _, c := range []struct {
		listed, declared int
		complete         bool
	}{
		{0, 0, true}, {150, 150, true}, {2999, 2999, true}, {10, 3, true},
		{100, 120, false}, {3000, 3000, false}, {3000, 5000, false},
	} {
		if got := UnlistedFiles(c.listed, c.declared) == ""; got != c.complete {
			t.Errorf("UnlistedFiles(%d, %d) complete = %v, want %v", c.listed, c.declared, got, c.complete)
		}
	}
}
