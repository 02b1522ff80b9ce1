package tui

import "testing"

// The exit codes are a contract with CI scripts (SPEC §3); changing one
// breaks every merge gate that reads it.
func TestExitCodesMatchSpec(t *testing.T) {
	tests := []struct {
		name      string
		got, want int
	}{
		{"done", ExitOK, 0},
		{"failed", ExitFailed, 1},
		{"usage", ExitUsage, 2},
		{"floor does not hold", ExitFloor, 3},
		{"refused", ExitRefused, 4},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("exit code for %s is %d, SPEC §3 says %d", tt.name, tt.got, tt.want)
		}
	}
}
