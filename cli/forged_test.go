package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestPackFloorsRefuseForgedNumbers: issue 24's floor forgeries, through
// the real command on the demo pack (hashes recomputed, as a forger
// would): each is exit 3 with the floor and why, never "floors hold".
func TestPackFloorsRefuseForgedNumbers(t *testing.T) {
	t.Parallel()
	check := func(p map[string]any, floor string) map[string]any {
		for _, c := range p["checks"].([]any) {
			if c.(map[string]any)["floor"] == floor {
				return c.(map[string]any)
			}
		}
		t.Fatalf("the demo pack has no %s check", floor)
		return nil
	}
	cases := []struct {
		name   string
		edit   func(p map[string]any)
		report string // the coverage report's new bytes, when set
		vars   map[string]string
		say    []string
	}{
		{name: "coverage without a threshold", edit: func(p map[string]any) { delete(check(p, "coverage"), "threshold") },
			say: []string{"floor coverage does not hold", "no threshold"}},
		{name: "coverage without a value", edit: func(p map[string]any) { delete(check(p, "coverage"), "value") },
			say: []string{"floor coverage does not hold", "no value"}},
		{name: "threshold loosened to 0", edit: func(p map[string]any) {
			check(p, "coverage")["value"], check(p, "coverage")["threshold"] = 10, 0
		}, say: []string{"floor coverage does not hold", "10 does not meet the threshold 90"}},
		{name: "threshold of -5", edit: func(p map[string]any) { check(p, "coverage")["threshold"] = -5 },
			say: []string{"floor coverage does not hold", "not a percentage from 0 to 100"}},
		{name: "vet threshold of 100", edit: func(p map[string]any) {
			check(p, "vet")["value"], check(p, "vet")["threshold"] = 5, 100
		}, say: []string{"floor vet does not hold", "5 does not meet the threshold 0"}},
		{name: "report of 0 of 9 beside a claimed 100",
			report: "answer/answer.go: 0 of 5 changed lines covered\npolicy/policy.go: 0 of 4 changed lines covered\n",
			say:    []string{"floor coverage does not hold", "counts 0 of 9 changed executable lines covered"}},
		{name: "300 tests claimed, 3 in the events", edit: func(p map[string]any) { check(p, "tests")["value"] = 300 },
			say: []string{"floor tests does not hold", "claims 300 tests passed, but the pack's test events show 3"}},
		{name: "0 tests claimed, 3 in the events", edit: func(p map[string]any) { check(p, "tests")["value"] = 0 },
			say: []string{"floor tests does not hold", "claims 0 tests passed, but the pack's test events show 3"}},
		{name: "the base policy's threshold, not the pack's", vars: map[string]string{"AAYU_VERIFY_COVERAGE_THRESHOLD": "100"},
			edit:   func(p map[string]any) { check(p, "coverage")["value"] = 99.9 },
			report: "answer/answer.go: 999 of 1000 changed lines covered\n",
			say:    []string{"floor coverage does not hold", "99.9 does not meet the threshold 100"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := packCopy(t)
			if c.edit != nil {
				editJSON(t, dir, c.edit)
			}
			if c.report != "" {
				if err := os.WriteFile(filepath.Join(dir, "artifacts", "reports", "coverage.txt"), []byte(c.report), 0o644); err != nil {
					t.Fatal(err)
				}
				rehash(t, dir, "reports/coverage.txt")
			}
			vars := map[string]string{}
			var environ []string
			for k, v := range c.vars {
				vars[k] = v
				environ = append(environ, k+"="+v)
			}
			code, out, errOut := runAayuEnviron(t, vars, environ, "pack", dir, "--ready", filepath.Join("..", "testdata", "demo", "ready.md"), "--head", demoHead)
			if code != tui.ExitFloor {
				t.Fatalf("exit %d, want %d (a floor does not hold)\n%s%s", code, tui.ExitFloor, out, errOut)
			}
			for _, s := range c.say {
				if !strings.Contains(out, s) {
					t.Errorf("the report does not say %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestPackRefusesForgedEvidence: issue 24's evidence forgeries, through the
// real command on the demo pack (hashes recomputed): each is exit 4, named.
func TestPackRefusesForgedEvidence(t *testing.T) {
	t.Parallel()
	const ev1 = "evidence/criterion-1.jsonl"
	file := func(dir, p string) string { return filepath.Join(dir, "artifacts", filepath.FromSlash(p)) }
	replaceIn := func(t *testing.T, dir, old, new string) {
		editBytes(t, file(dir, ev1), func(b []byte) []byte { return []byte(strings.Replace(string(b), old, new, 1)) })
		rehash(t, dir, ev1)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		say   []string
	}{
		{"store none beside its bytes", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { artifact(p, 0)["store"] = "none" })
		}, []string{"criterion 1", "store none"}},
		{"a pass with no run", func(t *testing.T, dir string) {
			editBytes(t, file(dir, ev1), func(b []byte) []byte {
				var keep []string
				for _, l := range strings.SplitAfter(string(b), "\n") {
					if !strings.Contains(l, `"Action":"run"`) {
						keep = append(keep, l)
					}
				}
				return []byte(strings.Join(keep, ""))
			})
			rehash(t, dir, ev1)
		}, []string{"criterion 1", "no run of it before"}},
		{"a repeated key", func(t *testing.T, dir string) {
			replaceIn(t, dir, `{"Action":"pass"`, `{"Action":"fail","Action":"pass"`)
		}, []string{"criterion 1", `repeats the key "Action"`}},
		{"an action go test never writes", func(t *testing.T, dir string) {
			replaceIn(t, dir, `"Action":"output"`, `"Action":"FAIL"`)
		}, []string{"criterion 1", `"FAIL"`}},
		{"one path spelt in NFC and NFD", func(t *testing.T, dir string) {
			nfc, nfd := "reports/r\u00e9sum\u00e9.txt", "reports/re\u0301sume\u0301.txt"
			for _, p := range []string{nfc, nfd} {
				if err := os.WriteFile(file(dir, p), []byte(p+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			editJSON(t, dir, func(p map[string]any) {
				for _, name := range []string{nfc, nfd} {
					p["artifacts"] = append(artifacts(p), map[string]any{"path": name, "kind": "report", "sha256": strings.Repeat("0", 64), "size": 0, "store": "git"})
				}
			})
			rehash(t, dir, nfc)
			rehash(t, dir, nfd)
		}, []string{"Unicode normalisation"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := packCopy(t)
			c.setup(t, dir)
			code, out, errOut := runAayu(t, "pack", dir, "--ready", filepath.Join("..", "testdata", "demo", "ready.md"), "--head", demoHead)
			if code != tui.ExitRefused {
				t.Fatalf("exit %d, want %d (refused)\n%s%s", code, tui.ExitRefused, out, errOut)
			}
			problems := strings.ToLower(problemLines(out))
			for _, s := range c.say {
				if !strings.Contains(problems, strings.ToLower(s)) {
					t.Errorf("the problems do not name %q:\n%s", s, problems)
				}
			}
		})
	}
}
