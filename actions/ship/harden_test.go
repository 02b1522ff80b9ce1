package ship

import (
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestShipRefusesPolicyItCannotRead: a base branch whose policy holds a
// value of the wrong kind (a string where a list belongs) is refused with
// the file and key named, never read as "no never layers".
func TestShipRefusesPolicyItCannotRead(t *testing.T) {
	cases := []struct {
		name, old, new, words string
	}{
		{"never as a string", `never = ["L04", "L07", "L09"]`, `never = "L04"`, "the base branch's .aayudha/config.toml: autonomy.never must be a list of strings"},
		{"always_person as a string", `always_person = [".aayudha/config.toml", ".github/**"]`, `always_person = ".aayudha/config.toml"`,
			"the base branch's .aayudha/config.toml: autonomy.always_person must be a list of strings"},
		{"a mis-cased key", `streak = 10`, `STREAK = 0`, "autonomy.STREAK is not a setting; keys are lower case: autonomy.streak"},
		{"nesting beyond the limit", `streak = 10`, `x = ` + nested(40), "nests tables or lists more than 32 deep"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
			f.baseConfig(tc.old, tc.new)
			before := f.snapshot(sandbox.DemoPRReady)
			res, events, err := f.ship(f.config("founder"), sandbox.DemoPRReady)
			if err != nil {
				t.Fatalf("ship failed instead of refusing: %v", err)
			}
			if res.ExitCode != ExitRefused || res.Merged {
				t.Fatalf("exit %d, merged %v; want a refusal", res.ExitCode, res.Merged)
			}
			if !mentions(res, events, tc.words) || !mentions(res, events, "fails closed") {
				t.Errorf("no refusal says %q and that ship fails closed:\n%q", tc.words, res.Refusals)
			}
			f.assertUnchanged(before, sandbox.DemoPRReady)
		})
	}
}

func nested(n int) string {
	s := "1"
	for i := 0; i < n; i++ {
		s = "[" + s + "]"
	}
	return s
}
