package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestHooksInstallWithTheBinary: the built aayu, run in a folder below a
// real git checkout's root, writes every host's files into the root, keeps
// the person's own Claude Code settings, writes nothing the second time
// (an agent's lane included), and status says every host is set up; a
// symbolic link or an unparsable file is refused with exit 4 and nothing
// written; a run outside a checkout and an unknown host are refused.
func TestHooksInstallWithTheBinary(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	root := filepath.Join(t.TempDir(), "project")
	sub := filepath.Join(root, "cmd", "tool")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/settings.json", `{"permissions": {"allow": ["Bash(go test:*)"]}, "model": "opus"}`)
	// The hosts run aayu by name: its folder is on the PATH here.
	environ := []string{"HOME=" + home, "PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"), "NO_COLOR=1", "TERM=dumb"}
	run := func(dir string, extra []string, args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(append([]string{}, environ...), extra...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("aayu %v: %v", args, err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}

	code, out, errOut := run(sub, nil, "hooks", "install")
	if code != tui.ExitOK {
		t.Fatalf("install: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"the agent hosts' files in " + root, "add", ".claude/settings.json", "Wrote "} {
		if !strings.Contains(out, want) {
			t.Errorf("install's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not on this shell's PATH") {
		t.Errorf("install says aayu is not on the PATH, which holds it:\n%s", out)
	}
	settings, _ := os.ReadFile(filepath.Join(root, ".claude", "settings.json"))
	for _, want := range []string{`"Bash(go test:*)"`, `"model": "opus"`, `"command": "aayu hook claude-code"`} {
		if !strings.Contains(string(settings), want) {
			t.Errorf(".claude/settings.json lacks %s:\n%s", want, settings)
		}
	}
	for _, f := range []string{".mcp.json", ".claude/commands/aayudha-inbox.md", ".codex/hooks.json", ".codex/config.toml",
		".cursor/hooks.json", ".cursor/mcp.json", ".cursor/commands/aayudha-inbox.md", ".gemini/settings.json", ".gemini/commands/aayudha/inbox.toml"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
			t.Errorf("install did not write %s: %v", f, err)
		}
		if _, err := os.Stat(filepath.Join(sub, filepath.FromSlash(f))); err == nil {
			t.Errorf("install wrote %s into the working folder, not the checkout's root", f)
		}
	}

	// Twice, from an agent's lane: nothing written, one hook.
	code, out, _ = run(root, []string{"CLAUDECODE=1", "AAYU_AGENT=1"}, "hooks", "install")
	if code != tui.ExitOK || !strings.Contains(out, "Every entry was there already: nothing was written.") {
		t.Errorf("second install: exit %d\n%s", code, out)
	}
	if again, _ := os.ReadFile(filepath.Join(root, ".claude", "settings.json")); !bytes.Equal(again, settings) {
		t.Errorf("the second install changed .claude/settings.json:\n%s", again)
	}

	code, out, _ = run(sub, []string{"CLAUDECODE=1"}, "hooks", "status")
	if code != tui.ExitOK {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	for _, h := range []string{"claude-code", "codex", "cursor", "gemini"} {
		if !strings.Contains(out, h+": set up\n") {
			t.Errorf("status does not say %s is set up:\n%s", h, out)
		}
	}

	// A link and an unparsable file: exit 4, named, nothing written.
	other := filepath.Join(t.TempDir(), "other")
	fresh := filepath.Join(t.TempDir(), "fresh")
	if out, err := exec.Command("git", "init", "-q", fresh).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(fresh, ".cursor")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(fresh, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fresh, ".gemini", "settings.json"), []byte("{\"theme\": \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(fresh, nil, "hooks", "install")
	if code != tui.ExitRefused {
		t.Errorf("install over a link and a broken file: exit %d, want %d\n%s%s", code, tui.ExitRefused, out, errOut)
	}
	for _, want := range []string{"refused, and nothing was written", ".cursor is a symbolic link", ".gemini/settings.json: cannot be merged into: not valid JSON"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, errOut)
		}
	}
	for _, f := range []string{".claude", ".mcp.json", ".codex"} {
		if _, err := os.Lstat(filepath.Join(fresh, f)); err == nil {
			t.Errorf("a refused install wrote %s", f)
		}
	}
	if entries, _ := os.ReadDir(other); len(entries) != 0 {
		t.Errorf("a refused install wrote through the link: %v", entries)
	}

	if code, _, errOut = run(t.TempDir(), nil, "hooks", "status"); code != tui.ExitRefused || !strings.Contains(errOut, "is not inside a git checkout") {
		t.Errorf("status outside a checkout: exit %d\n%s", code, errOut)
	}
	if code, _, errOut = run(root, nil, "hooks", "install", "--host", "amp"); code != tui.ExitUsage || !strings.Contains(errOut, "claude-code, codex, cursor, gemini or all") {
		t.Errorf("--host amp: exit %d\n%s", code, errOut)
	}
}
