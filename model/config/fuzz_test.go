package config

import (
	"strings"
	"testing"
)

// FuzzDecodeTOML: whatever the bytes, DecodeTOML returns an error or
// settings that are all declared and of their declared kind, and never
// panics.
func FuzzDecodeTOML(f *testing.F) {
	for _, seed := range []string{
		"[autonomy]\nnever = [\"L04\", \"L07\"]\nstreak = 10\nproof = false\n",
		"[autonomy]\nnever = \"L04\"\n",
		"[verify]\nred_on_base_blocking_from = 2026-11-13\ncoverage_threshold = 87.5\n",
		"[Autonomy]\napprover = \"writer\"\n",
		"a = {b = {c = {d = 1}}}\n",
		"[identity]\ndevice_client_id = 'Iv1.x'\nbot_logins = ['''a''', \"b\\\"\"]\n",
		"x = \"\"\"\n[[[\n\"\"\"\n[ui]\nplain = true # [[[\n",
		strings.Repeat("[", 40),
		"[approvals]\napprovers = []\ndevice_for = [\"all\"]\n",
		// Issue 24: thresholds and counts out of range.
		"[verify]\ncoverage_threshold = -5\n",
		"[verify]\ncoverage_threshold = 100.01\n",
		"[proof]\nretention_days = -1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := DecodeTOML(b, "fuzz.toml")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.toml") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		for key, v := range out {
			kind, ok := Schema[key]
			if !ok {
				t.Fatalf("undeclared key %q decoded", key)
			}
			if _, err := normalize("again", key, kind, v); err != nil && kind != KindDate {
				t.Fatalf("%s decoded as %#v, not %s", key, v, kind)
			}
			if err := checkRange("again", key, v); err != nil {
				t.Fatalf("%s decoded out of range: %v", key, err)
			}
		}
	})
}

// FuzzSetValue: a --set of any text is taken with its declared kind or
// refused in words naming the flag; a list is never silently emptied.
func FuzzSetValue(f *testing.F) {
	for _, seed := range []string{"approvals.approvers=agent-bot", "autonomy.never=[\"L04\"]", "AUTONOMY.APPROVER=writer",
		"autonomy.streak=0", "ui.motion=maybe", "verify.coverage_threshold=NaN", "autonomy.never=[[[[", "x=y",
		"verify.coverage_threshold=-5", "verify.coverage_threshold=101", "autonomy.streak=-1",
		"autonomy.never=\v", "autonomy.never= , ", "autonomy.never=[]"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, set string) {
		cfg, err := Load(Sources{Set: []string{set}})
		if err != nil {
			if !strings.Contains(err.Error(), "--set") {
				t.Fatalf("the error does not name the flag: %v", err)
			}
			return
		}
		key, val, _ := strings.Cut(set, "=")
		key = strings.TrimSpace(key)
		if Schema[key] == KindStrings && strings.Trim(val, " \t,\"[]") != "" && !strings.HasPrefix(strings.TrimSpace(val), "[") &&
			len(cfg.Strings(key)) == 0 {
			t.Fatalf("--set %q emptied the list", set)
		}
	})
}
