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

// TestLooserRefusesDeviceForNarrowedFromAllToOneWay: device_for "all" is
// wider than "one-way"; a higher layer swapping one for the other, or
// "one-way" for a value that is neither, loosens it.
func TestLooserRefusesDeviceForNarrowedFromAllToOneWay(t *testing.T) {
	for _, c := range []struct {
		base, eff []string
		looser    bool
	}{
		{[]string{"all"}, []string{"one-way"}, true},
		{[]string{"one-way"}, []string{"batch"}, true},
		{[]string{"one-way"}, nil, true},
		{[]string{"one-way"}, []string{"all"}, false},
		{[]string{"all"}, []string{"one-way", "all"}, false},
		{[]string{"one-way"}, []string{"batch", "one-way"}, false},
	} {
		base, eff := basePolicy(), basePolicy()
		base.DeviceFor, eff.DeviceFor = c.base, c.eff
		got := Looser(base, eff, nil)
		if (len(got) == 1 && got[0].Key == "approvals.device_for") != c.looser || len(got) > 1 {
			t.Errorf("device_for %v → %v: Looser = %v, want looser=%v", c.base, c.eff, got, c.looser)
		}
	}
}

// TestLooserWordsAnUnsetOrEmptyValue: the sentence ship stops with says
// "unset" and "[]" for a value that is not there, never "" or "[ ]".
func TestLooserWordsAnUnsetOrEmptyValue(t *testing.T) {
	base, eff := basePolicy(), basePolicy()
	eff.Approver, eff.BotLogins = "someone", nil
	got := Looser(base, eff, nil)
	if len(got) != 2 {
		t.Fatalf("Looser = %v, want the approver and bot_logins", got)
	}
	if got[0].Key != "autonomy.approver" || got[0].Base != "unset" || got[0].Effective != `"someone"` {
		t.Errorf("approver loosening = %+v, want unset → \"someone\"", got[0])
	}
	if got[1].Key != "identity.bot_logins" || got[1].Base != "[acme-machine]" || got[1].Effective != "[]" || got[1].Layer != "a higher layer" {
		t.Errorf("bot_logins loosening = %+v, want [acme-machine] → [] by a higher layer", got[1])
	}
}
