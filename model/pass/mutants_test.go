package pass

import (
	"strings"
	"testing"
)

// Tests here kill mutants gremlins found alive or uncovered in the
// CODEOWNERS, LAYERS and human-pass rules (README, "Mutation testing").

// TestCodeownersRefusesAPatternNamingNoPathAtItsLine: a "/" pattern owns
// nothing, and the refusal names the line a person must fix (1-based,
// comments counted), not the one before it.
func TestCodeownersRefusesAPatternNamingNoPathAtItsLine(t *testing.T) {
	for _, c := range []struct{ text, line string }{
		{"/ @founder\n", "line 1:"},
		{"# gates\n* @founder\n/ @founder\n", "line 3:"},
	} {
		_, err := ParseCodeowners(c.text)
		if err == nil || !strings.Contains(err.Error(), c.line) {
			t.Errorf("ParseCodeowners(%q) = %v, want a refusal at %s", c.text, err, c.line)
		}
	}
}
