package pass

import "testing"

// TestLooserNamesOnlyKeysALayerSets: a key the origin names no layer for
// is the base's own value (or a default), never a loosening; the same
// looser value set by a layer is named.
func TestLooserNamesOnlyKeysALayerSets(t *testing.T) {
	base := basePolicy()
	base.Approver = "founder"
	eff := basePolicy()
	eff.Approver, eff.Streak = "", base.Streak+10 // approver read as the default, streak tightened
	setOnlyStreak := func(k string) string {
		if k == "autonomy.streak" {
			return "your checkout's .aayudha/config.toml"
		}
		return ""
	}
	if got := Looser(base, eff, setOnlyStreak); len(got) != 0 {
		t.Fatalf("a stricter layer that leaves the approver unset was named looser: %v", got)
	}
	eff.Streak = base.Streak - 1
	got := Looser(base, eff, setOnlyStreak)
	if len(got) != 1 || got[0].Key != "autonomy.streak" || got[0].Layer != "your checkout's .aayudha/config.toml" {
		t.Fatalf("a lower streak set by the checkout: got %v, want only autonomy.streak named with its layer", got)
	}
}
