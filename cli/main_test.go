package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

const demoHead = "b046d1a1d113339eb80e130c9dc0008fa223e76f"

// runAayu runs aayu in-process with output that is not a terminal, as CI
// and an agent see it.
func runAayu(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv:  func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] },
		environ: nil,
	})
	return code, out.String(), errb.String()
}

func TestPackCommandExitCodes(t *testing.T) {
	t.Parallel()
	ready := filepath.Join("..", "testdata", "demo", "ready.md")
	cases := []struct {
		name string
		args []string
		code int
		say  string
	}{
		{"verifies", []string{"pack", "../testdata/demo/pack", "--ready", ready, "--head", demoHead}, tui.ExitOK, "verified, floors hold"},
		{"flags before the command", []string{"--plain", "pack", "--head", demoHead, "../testdata/demo/pack", "--ready", ready}, tui.ExitOK, "verified, floors hold"},
		{"ci", []string{"--ci", "pack", "../testdata/demo/pack", "--ready", ready, "--head", demoHead}, tui.ExitOK, "verified, floors hold"},
		{"floor fails", []string{"pack", "../testdata/demo/floorfail", "--ready", ready, "--head", demoHead}, tui.ExitFloor, "coverage"},
		{"tampered", []string{"pack", "../testdata/demo/tampered", "--ready", ready, "--head", demoHead}, tui.ExitRefused, "evidence/criterion-2.jsonl"},
		{"no head given", []string{"pack", "../testdata/demo/pack", "--ready", ready}, tui.ExitRefused, "head"},
		{"unknown flag", []string{"pack", "../testdata/demo/pack", "--bogus"}, tui.ExitUsage, "--bogus"},
		{"missing argument", []string{"pack"}, tui.ExitUsage, "pack"},
		{"not a folder", []string{"pack", "../testdata/demo/ready.md"}, tui.ExitUsage, "neither a pack folder nor a story number"},
		{"bad --set", []string{"--set", "nodot", "pack", "../testdata/demo/pack"}, tui.ExitUsage, "--set"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runAayu(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errOut)
			}
			if !strings.Contains(out+errOut, c.say) {
				t.Errorf("output does not say %q:\n%s%s", c.say, out, errOut)
			}
			if strings.ContainsRune(out, '\x1b') {
				t.Error("output to a non-terminal holds escape sequences")
			}
		})
	}
}

// packCopy copies the demo pack into a temp folder for one refusal case.
func packCopy(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "pack")
	src := filepath.Join("..", "testdata", "demo", "pack")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func editJSON(t *testing.T, dir string, edit func(p map[string]any)) {
	t.Helper()
	file := filepath.Join(dir, "pack.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	edit(p)
	out, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func editBytes(t *testing.T, file string, edit func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	before := bytes.Clone(b)
	after := edit(b)
	if bytes.Equal(before, after) {
		t.Fatalf("the edit of %s changed nothing; the case tests nothing", file)
	}
	if err := os.WriteFile(file, after, 0o644); err != nil {
		t.Fatal(err)
	}
}

func artifacts(p map[string]any) []any { return p["artifacts"].([]any) }

func artifact(p map[string]any, i int) map[string]any { return artifacts(p)[i].(map[string]any) }

func criteria(p map[string]any) []any { return p["criteria"].([]any) }

func TestInboxListOnSandboxShowsEveryKind(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--sandbox", "inbox", "--list", "--plain"}, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv:  func(k string) string { return map[string]string{"HOME": home, "AAYU_AGENT": "1"}[k] },
		environ: nil,
	})
	if code != tui.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	for _, k := range model.Kinds() {
		if k == model.KindShipStopped {
			// The demo stops no ship; an interrupted ship on it makes one
			// (e2e's TestShipInterruptedAtEachWrite shows it in --list).
			if strings.Contains(out.String(), k.Words()+" #") {
				t.Errorf("the demo, where no ship stopped, shows a %q card:\n%s", k.Words(), out.String())
			}
			continue
		}
		if !strings.Contains(out.String(), k.Words()+" #") {
			t.Errorf("--list does not show a %q card:\n%s", k.Words(), out.String())
		}
	}
}

// TestInboxWithoutRepositoryIsAUsageError: `inbox --list`, `--json` and
// `next` with no repository to read (none given, none in the checkout's
// origin) are a usage mistake, exit 2, that names --repo.
func TestInboxWithoutRepositoryIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // no checkout here: no origin to name the repository
	for _, args := range [][]string{{"inbox", "--list"}, {"inbox", "--json", "number"}, {"next"}} {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, env{
			stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
			getenv: func(k string) string {
				return map[string]string{"HOME": dir, "AAYU_GITHUB_TOKEN": "sandbox-founder"}[k]
			},
		})
		if code != tui.ExitUsage || !strings.Contains(errb.String(), "--repo OWNER/NAME") {
			t.Errorf("aayu %s: exit %d, %q; want exit 2 naming --repo", strings.Join(args, " "), code, errb.String())
		}
	}
}

// TestOutputThroughTeeIsStillThePersonsTerminal: a person who keeps a
// transcript (aayu decide … | tee log) types at a terminal whose output
// is a pipe; with no agent's marker, the human-only step is theirs, not
// refused as a process without a terminal. Without a terminal on standard
// input it is refused, as before.
func TestOutputThroughTeeIsStillThePersonsTerminal(t *testing.T) {
	t.Parallel()
	_, url := sandboxAt(t, filepath.Join(t.TempDir(), "sandbox"), sandbox.FaultSpec{})
	for _, c := range []struct {
		stdinTerminal bool
		code          int
	}{{true, tui.ExitOK}, {false, tui.ExitRefused}} {
		home := t.TempDir()
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"--api-url", url + "/", "--repo", "acme/benefits", "decide", strconv.Itoa(sandbox.DemoDecision), "--accept", "1"}, env{
			stdin: strings.NewReader("y\n"), stdout: &out, stderr: &errb, stdinIsTerminal: c.stdinTerminal,
			getenv: func(k string) string {
				return map[string]string{"HOME": home, "AAYU_GITHUB_TOKEN": "sandbox-founder"}[k]
			},
		})
		if code != c.code {
			t.Errorf("stdin a terminal %v, stdout a pipe: exit %d, want %d\n%s%s", c.stdinTerminal, code, c.code, out.String(), errb.String())
		}
	}
}
