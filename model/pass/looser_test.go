package pass

import (
	"testing"
)

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
