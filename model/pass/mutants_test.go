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

// TestLayerBuiltByHandMatchesItsGlobs: a Layer made in code rather than
// parsed from LAYERS.md compiles its globs when asked, so a footprint (and
// autonomy's never layers) cannot come out empty for it; a bad glob among
// them matches nothing rather than everything.
func TestLayerBuiltByHandMatchesItsGlobs(t *testing.T) {
	l := Layer{ID: "L04", Name: "policy", Globs: []string{"bad[glob", ".aayudha/**", "LAYERS.md"}}
	for p, want := range map[string]bool{
		".aayudha/config.toml": true,
		"LAYERS.md":            true,
		"docs/LAYERS.md":       false,
		"main.go":              false,
		"bad[glob":             false,
	} {
		if got := l.Matches(p); got != want {
			t.Errorf("Matches(%q) = %v, want %v", p, got, want)
		}
	}
	if got := Footprint([]ChangedFile{{Path: "main.go"}, {Path: ".aayudha/config.toml"}}, []Layer{l}); len(got) != 1 || got[0] != "L04" {
		t.Errorf("Footprint = %v, want [L04]", got)
	}
}
