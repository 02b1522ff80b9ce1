package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aayudha/aayu/tui"
)

// TestPackRefusals runs one bad pack per refusal class of SPEC §4 through the
// real command and asserts exit 4 and that the words name the problem. Each
// starts from a copy of the demo pack that verifies, so the one change made
// is what is refused.
func TestPackRefusals(t *testing.T) {
	t.Parallel()
	const ev1 = "evidence/criterion-1.jsonl"
	art := func(dir, p string) string { return filepath.Join(dir, "artifacts", filepath.FromSlash(p)) }
	setPath := func(p string) func(map[string]any) {
		return func(pk map[string]any) {
			artifact(pk, 0)["path"] = p
			criteria(pk)[0].(map[string]any)["evidence"] = []any{p}
		}
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		head  string
		ready string
		say   []string // every one must appear in the output
	}{
		{"flipped byte", func(t *testing.T, dir string) {
			editBytes(t, art(dir, ev1), func(b []byte) []byte { b[10] ^= 1; return b })
		}, "", "", []string{ev1, "sha-256"}},
		{"truncated artifact", func(t *testing.T, dir string) {
			editBytes(t, art(dir, ev1), func(b []byte) []byte { return b[:len(b)-1] })
		}, "", "", []string{ev1, "616 bytes", "617"}},
		{"longer artifact", func(t *testing.T, dir string) {
			editBytes(t, art(dir, ev1), func(b []byte) []byte { return append(b, '\n') })
		}, "", "", []string{ev1, "618 bytes", "617"}},
		{"declared size wrong", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { artifact(p, 0)["size"] = 1 })
		}, "", "", []string{ev1, "617 bytes", "says 1"}},
		{"missing file", func(t *testing.T, dir string) {
			if err := os.Remove(art(dir, ev1)); err != nil {
				t.Fatal(err)
			}
		}, "", "", []string{ev1}},
		{"duplicate path", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["artifacts"] = append(artifacts(p), artifacts(p)[0]) })
		}, "", "", []string{ev1, "more than once"}},
		{"dot element", func(t *testing.T, dir string) { editJSON(t, dir, setPath("evidence/./criterion-1.jsonl")) }, "", "", []string{"evidence/./criterion-1.jsonl"}},
		{"double slash", func(t *testing.T, dir string) { editJSON(t, dir, setPath("evidence//criterion-1.jsonl")) }, "", "", []string{"evidence//criterion-1.jsonl"}},
		{"dot-dot escape", func(t *testing.T, dir string) { editJSON(t, dir, setPath("../pack.json")) }, "", "", []string{"../pack.json"}},
		{"absolute path", func(t *testing.T, dir string) { editJSON(t, dir, setPath("/etc/passwd")) }, "", "", []string{"/etc/passwd"}},
		{"backslash path", func(t *testing.T, dir string) { editJSON(t, dir, setPath(`evidence\criterion-1.jsonl`)) }, "", "", []string{`evidence\\criterion-1.jsonl`}},
		{"symlink leaving the pack", func(t *testing.T, dir string) {
			outside := filepath.Join(t.TempDir(), "outside")
			if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			replaceWithSymlink(t, art(dir, ev1), outside)
		}, "", "", []string{ev1, "link"}},
		{"symlink inside the pack", func(t *testing.T, dir string) {
			replaceWithSymlink(t, art(dir, ev1), "criterion-2.jsonl")
		}, "", "", []string{ev1, "link"}},
		{"symlinked folder", func(t *testing.T, dir string) {
			real := filepath.Join(dir, "real-evidence")
			if err := os.Rename(filepath.Join(dir, "artifacts", "evidence"), real); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(real, filepath.Join(dir, "artifacts", "evidence")); err != nil {
				t.Fatal(err)
			}
		}, "", "", []string{"evidence"}},
		{"fifo", func(t *testing.T, dir string) {
			if err := os.Remove(art(dir, ev1)); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(art(dir, ev1), 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
		}, "", "", []string{ev1, "regular"}},
		{"directory for a file", func(t *testing.T, dir string) {
			if err := os.Remove(art(dir, ev1)); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(art(dir, ev1), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "", "", []string{ev1, "regular"}},
		{"evidence names no artifact", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) {
				criteria(p)[1].(map[string]any)["evidence"] = []any{"evidence/nowhere.jsonl"}
			})
		}, "", "", []string{"evidence/nowhere.jsonl"}},
		{"ready criterion without evidence", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["criteria"] = criteria(p)[:2] })
		}, "", "", []string{"3"}},
		{"criterion outside ready", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) {
				p["criteria"] = append(criteria(p), map[string]any{"id": 9, "evidence": []any{ev1}})
			})
		}, "", "", []string{"9"}},
		{"duplicate criterion", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["criteria"] = append(criteria(p), criteria(p)[0]) })
		}, "", "", []string{"1"}},
		{"goal hash differs", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["completion_goal_hash"] = strings.Repeat("0", 64) })
		}, "", "", []string{strings.Repeat("0", 64), "259e5f182147c010d47cd88b8f0aafd09fa23f2ff46ab752d84ee196745e3620"}},
		{"ready snapshot edited after its hash", func(t *testing.T, dir string) {}, "", "edited", []string{"Ready"}},
		{"head moved", func(t *testing.T, dir string) {}, strings.Repeat("c", 40), "", []string{strings.Repeat("c", 40), "b046d1a1d113339eb80e130c9dc0008fa223e76f"}},
		{"newer schema", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["schema_version"] = 2 })
		}, "", "", []string{"update aayu", "run aayu self-update"}},
		{"unknown kind", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { artifact(p, 0)["kind"] = "video-ish" })
		}, "", "", []string{"kind"}},
		{"uppercase sha256", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { artifact(p, 0)["sha256"] = strings.ToUpper(artifact(p, 0)["sha256"].(string)) })
		}, "", "", []string{"sha256"}},
		{"negative size", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { artifact(p, 0)["size"] = -1 })
		}, "", "", []string{"size"}},
		{"unknown field", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["approved"] = true })
		}, "", "", []string{"approved"}},
		{"duplicate key", func(t *testing.T, dir string) {
			editBytes(t, filepath.Join(dir, "pack.json"), func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"story": 131`, `"story": 132, "story": 131`, 1))
			})
		}, "", "", []string{"repeats the key", "story"}},
		{"no criteria", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["criteria"] = []any{} })
		}, "", "", []string{"criteria"}},
		{"no artifacts", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["artifacts"] = []any{} })
		}, "", "", []string{"artifacts"}},
		{"no checks", func(t *testing.T, dir string) {
			editJSON(t, dir, func(p map[string]any) { p["checks"] = []any{} })
		}, "", "", []string{"checks"}},
		{"truncated json", func(t *testing.T, dir string) {
			editBytes(t, filepath.Join(dir, "pack.json"), func(b []byte) []byte { return b[:len(b)/2] })
		}, "", "", []string{"pack.json"}},
		{"oversized pack.json", func(t *testing.T, dir string) {
			editBytes(t, filepath.Join(dir, "pack.json"), func(b []byte) []byte {
				return append(b, []byte(strings.Repeat(" ", 9<<20))...)
			})
		}, "", "", []string{"pack.json"}},
	}
	if len(cases) < 25 {
		t.Fatalf("only %d refusal cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := packCopy(t)
			c.setup(t, dir)
			head := demoHead
			if c.head != "" {
				head = c.head
			}
			ready := filepath.Join("..", "testdata", "demo", "ready.md")
			if c.ready == "edited" {
				ready = filepath.Join(t.TempDir(), "ready.md")
				editedReady(t, ready)
			}
			code, out, errOut := runAayu(t, "pack", dir, "--ready", ready, "--head", head)
			if code != tui.ExitRefused {
				t.Fatalf("exit %d, want %d (refused)\n%s%s", code, tui.ExitRefused, out, errOut)
			}
			problems := problemLines(out)
			if problems == "" {
				t.Fatalf("refused without naming a problem:\n%s", out)
			}
			for _, s := range c.say {
				if !strings.Contains(strings.ToLower(problems), strings.ToLower(s)) {
					t.Errorf("the problems do not name %q:\n%s", s, problems)
				}
			}
		})
	}
}

// problemLines keeps the lines that state a problem, so a case cannot pass
// on words that appear elsewhere in the report.
func problemLines(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "problem: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func replaceWithSymlink(t *testing.T, file, target string) {
	t.Helper()
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, file); err != nil {
		t.Fatal(err)
	}
}

// editedReady writes the demo snapshot with its Completion Goal changed
// after the hash was recorded.
func editedReady(t *testing.T, to string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "demo", "ready.md"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "3. Screened questions", "3. Most screened questions", 1)
	if err := os.WriteFile(to, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPackRefusesPacksThatProveNothing runs, through the real command, each
// way a pack can look sound and prove nothing (issue 14): evidence kept only
// by hash, evidence whose events fail or show no test passing, a citation
// given twice, a date that is no date, a --ready that is no regular file.
// Each is exit 4 with the reason in words; each starts from the demo pack,
// and an artifact whose bytes the case changes has its hash recomputed, as a
// forger would, so only the rule under test can refuse it.
func TestPackRefusesPacksThatProveNothing(t *testing.T) {
	t.Parallel()
	const ev1 = "evidence/criterion-1.jsonl"
	art := func(dir, p string) string { return filepath.Join(dir, "artifacts", filepath.FromSlash(p)) }
	evidence := []string{ev1, "evidence/criterion-2.jsonl", "evidence/criterion-3.jsonl"}
	drop := func(t *testing.T, dir string, paths ...string) {
		for _, p := range paths {
			if err := os.Remove(art(dir, p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the --ready file, "" for the demo's
		say   []string
	}{
		{"every artifact store none", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) {
				for _, a := range artifacts(p) {
					a.(map[string]any)["store"] = "none"
				}
			})
			drop(t, dir, append(evidence, "reports/coverage.txt", "metrics/latency.json")...)
			return ""
		}, []string{"no evidence whose bytes were hashed here", "store none"}},
		{"evidence in a bucket nobody configured", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) {
				for i := range 3 {
					artifact(p, i)["store"], artifact(p, i)["object"] = "bucket", "acme/benefits/"+evidence[i]
				}
			})
			drop(t, dir, evidence...)
			return ""
		}, []string{"bucket", "not fetched"}},
		{"evidence tombstoned", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) {
				for i := range 3 {
					artifact(p, i)["store"] = "none"
					artifact(p, i)["tombstone"] = map[string]any{"purged_at": "2026-09-30T02:00:00Z", "reason": "proof purge"}
				}
			})
			drop(t, dir, evidence...)
			return ""
		}, []string{"tombstone"}},
		{"evidence only Git LFS pointers", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) {
				for i := range 3 {
					a := artifact(p, i)
					a["store"] = "lfs"
					pointer := fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %v\n", a["sha256"], a["size"])
					if err := os.WriteFile(art(dir, evidence[i]), []byte(pointer), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
			return ""
		}, []string{"Git LFS pointer", "not hashed"}},
		{"evidence recording a fail", func(t *testing.T, dir string) string {
			editBytes(t, art(dir, ev1), func(b []byte) []byte {
				return bytes.ReplaceAll(b, []byte(`"Action":"pass"`), []byte(`"Action":"fail"`))
			})
			rehash(t, dir, ev1)
			return ""
		}, []string{"criterion 1", "fail", "TestAnswerCitesPassage"}},
		{"evidence with no test passing", func(t *testing.T, dir string) string {
			editBytes(t, art(dir, ev1), func(b []byte) []byte {
				var keep []string
				for _, l := range strings.SplitAfter(string(b), "\n") {
					if !strings.Contains(l, `"Action":"pass"`) {
						keep = append(keep, l)
					}
				}
				return []byte(strings.Join(keep, ""))
			})
			rehash(t, dir, ev1)
			return ""
		}, []string{"criterion 1", "no test passing"}},
		{"evidence that is not test events", func(t *testing.T, dir string) string {
			editBytes(t, art(dir, ev1), func([]byte) []byte { return []byte("PASS\nok  \texample.com/benefits/answer\t0.01s\n") })
			rehash(t, dir, ev1)
			return ""
		}, []string{ev1, "not go test -json events"}},
		{"evidence cited twice", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) {
				c := criteria(p)[1].(map[string]any)
				c["evidence"] = append(c["evidence"].([]any), c["evidence"].([]any)[0])
			})
			return ""
		}, []string{"criterion 2", "more than once"}},
		{"criterion proven only by a screenshot kept by hash", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) { criteria(p)[2].(map[string]any)["evidence"] = []any{"screens/1.png"} })
			return ""
		}, []string{"criterion 3", "media"}},
		{"created_at that is no date", func(t *testing.T, dir string) string {
			editJSON(t, dir, func(p map[string]any) { p["created_at"] = "yesterday\u001b[2J" })
			return ""
		}, []string{"created_at"}},
		{"--ready names a FIFO", func(t *testing.T, dir string) string {
			fifo := filepath.Join(t.TempDir(), "ready.md")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			return fifo
		}, []string{"ready", "not a regular file", "FIFO"}},
		{"--ready names a folder", func(t *testing.T, dir string) string { return t.TempDir() }, []string{"ready", "not a regular file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := packCopy(t)
			ready := c.setup(t, dir)
			if ready == "" {
				ready = filepath.Join("..", "testdata", "demo", "ready.md")
			}
			type result struct {
				code     int
				out, err string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errOut := runAayu(t, "pack", dir, "--ready", ready, "--head", demoHead)
				done <- result{code, out, errOut}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("aayu pack did not finish; it is waiting on something it should have refused")
			}
			if r.code != tui.ExitRefused {
				t.Fatalf("exit %d, want %d (refused)\n%s%s", r.code, tui.ExitRefused, r.out, r.err)
			}
			if strings.ContainsRune(r.out+r.err, '\x1b') {
				t.Error("the output carries an escape byte")
			}
			problems := strings.ToLower(problemLines(r.out))
			for _, s := range c.say {
				if !strings.Contains(problems, strings.ToLower(s)) {
					t.Errorf("the problems do not name %q:\n%s", s, problems)
				}
			}
		})
	}
}

// TestPackFloorsRecomputed: floors are judged from their numbers and the
// required list, through the real command: exit 3 with the floor and why.
func TestPackFloorsRecomputed(t *testing.T) {
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
		name string
		edit func(p map[string]any)
		say  []string
	}{
		{"coverage claiming pass below its threshold", func(p map[string]any) { check(p, "coverage")["value"] = 10 },
			[]string{"floor coverage does not hold", "10 does not meet the threshold 90"}},
		{"coverage recorded as fail though it meets its threshold", func(p map[string]any) { check(p, "coverage")["result"] = "fail" },
			[]string{"floor coverage does not hold", "disagrees with its own numbers"}},
		{"only a vet check", func(p map[string]any) {
			p["checks"] = []any{check(p, "vet")}
		}, []string{"floor coverage does not hold", "floor tests does not hold", "required"}},
		{"a required check skipped", func(p map[string]any) { check(p, "tests")["result"] = "skipped" },
			[]string{"floor tests does not hold", "skipped"}},
		{"every check skipped", func(p map[string]any) {
			for _, c := range p["checks"].([]any) {
				c.(map[string]any)["result"] = "skipped"
			}
		}, []string{"floor coverage does not hold", "floor vet does not hold"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := packCopy(t)
			editJSON(t, dir, c.edit)
			code, out, errOut := runAayu(t, "pack", dir, "--ready", filepath.Join("..", "testdata", "demo", "ready.md"), "--head", demoHead)
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

// TestPackSaysWhatWasHashed: "verified" has a number behind it.
func TestPackSaysWhatWasHashed(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAayu(t, "pack", filepath.Join("..", "testdata", "demo", "pack"), "--ready", filepath.Join("..", "testdata", "demo", "ready.md"), "--head", demoHead)
	if code != tui.ExitOK || !strings.Contains(out, "verified: 5 files, 4,128 bytes hashed") || !strings.Contains(out, "rules: 0.2") {
		t.Fatalf("exit %d; the report does not say what was hashed and by which rules:\n%s%s", code, out, errOut)
	}
}

// rehash sets an artifact's sha256 and size in pack.json to its bytes.
func rehash(t *testing.T, dir, path string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "artifacts", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	editJSON(t, dir, func(p map[string]any) {
		for _, a := range artifacts(p) {
			if m := a.(map[string]any); m["path"] == path {
				m["sha256"], m["size"] = hex.EncodeToString(sum[:]), len(b)
			}
		}
	})
}
