package hostsetup

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/model/hostconfig"
)

// checkout is a temporary git checkout's root (a .git folder is all
// FindRoot looks for).
func checkout(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func put(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// tree is every file under root but .git, with its bytes and mtime.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		b, _ := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b) + "@" + info.ModTime().String() + info.Mode().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func install(t *testing.T, root string, hosts ...hostconfig.Host) Plan {
	t.Helper()
	if len(hosts) == 0 {
		hosts = hostconfig.Hosts()
	}
	plan, err := Prepare(root, hosts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(plan); err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestInstallTwiceChangesNothing: the second run finds every entry there,
// plans no file and touches none (one hook, not two); the person's own
// file keeps its mode.
func TestInstallTwiceChangesNothing(t *testing.T) {
	t.Parallel()
	root := checkout(t)
	put(t, root, ".claude/settings.json", `{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`)
	first := install(t, root)
	if len(first.Files) != 10 {
		t.Errorf("first run wrote %d files, want 10", len(first.Files))
	}
	before := tree(t, root)
	time.Sleep(10 * time.Millisecond)
	second, err := Prepare(root, hostconfig.Hosts())
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Files) != 0 {
		t.Errorf("second run would write %d files", len(second.Files))
	}
	for _, e := range second.Entries {
		if e.State != hostconfig.Present {
			t.Errorf("second run: %s %s is %v", e.Host, e.Part, e.State)
		}
	}
	if _, err := Write(second); err != nil {
		t.Fatal(err)
	}
	after := tree(t, root)
	for p, v := range before {
		if after[p] != v {
			t.Errorf("the second run touched %s", p)
		}
	}
	settings, _ := os.ReadFile(filepath.Join(root, ".claude/settings.json"))
	if n := strings.Count(string(settings), "aayu hook claude-code"); n != 1 {
		t.Errorf("%d hooks after two runs, want 1:\n%s", n, settings)
	}
	if !strings.Contains(string(settings), "./guard.sh") || !strings.Contains(string(settings), `"model": "opus"`) {
		t.Errorf("the person's own settings were not kept:\n%s", settings)
	}
	info, _ := os.Stat(filepath.Join(root, ".claude/settings.json"))
	if info.Mode().Perm() != 0o600 {
		t.Errorf("the person's file became %v, want its own 0600", info.Mode().Perm())
	}
}

// TestInstallRefusesASymlinkAndWritesNothing: a host's file, or a folder
// on its way, that is a symbolic link is refused by name, and no file of
// any host is written, inside the project or where the link points.
func TestInstallRefusesASymlinkAndWritesNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, link, want string }{
		{"a folder", ".claude", ".claude is a symbolic link"},
		{"a file", ".cursor/mcp.json", ".cursor/mcp.json is a symbolic link"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := checkout(t)
			elsewhere := t.TempDir()
			target := filepath.Join(elsewhere, "target")
			if c.name == "a folder" {
				if err := os.Mkdir(target, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				put(t, elsewhere, "target", "{}")
				if err := os.MkdirAll(filepath.Join(root, ".cursor"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(c.link))); err != nil {
				t.Fatal(err)
			}
			before, beforeElsewhere := tree(t, root), tree(t, elsewhere)
			_, err := Prepare(root, hostconfig.Hosts())
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Prepare: %v, want a refusal saying %q", err, c.want)
			}
			if got := tree(t, root); len(got) != len(before) {
				t.Errorf("files were written: %v", keys(got))
			}
			if got := tree(t, elsewhere); len(got) != len(beforeElsewhere) || got["target"] != beforeElsewhere["target"] {
				t.Errorf("the link's target was written: %v", got)
			}
		})
	}
}

// TestInstallRefusesAnUnparsableFileAndWritesNothing: one host's file
// that does not parse stops the whole install before any file is
// written, and the refusal names it and why.
func TestInstallRefusesAnUnparsableFileAndWritesNothing(t *testing.T) {
	t.Parallel()
	root := checkout(t)
	put(t, root, ".gemini/settings.json", "{\n  // comments are not JSON\n  \"theme\": \"x\"\n}\n")
	put(t, root, ".codex/config.toml", "model = \"x\"\n")
	before := tree(t, root)
	_, err := Prepare(root, hostconfig.Hosts())
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("Prepare: %v, want a refusal", err)
	}
	if len(refused.Refusals) != 1 || refused.Refusals[0].Path != ".gemini/settings.json" || !strings.Contains(refused.Refusals[0].Reason, "not valid JSON") {
		t.Errorf("refusals: %+v", refused.Refusals)
	}
	after := tree(t, root)
	if len(after) != len(before) || after[".codex/config.toml"] != before[".codex/config.toml"] {
		t.Errorf("files were written: %v", keys(after))
	}
	// The hosts not refused install when named alone.
	install(t, root, hostconfig.ClaudeCode)
	if _, err := os.Stat(filepath.Join(root, ".mcp.json")); err != nil {
		t.Errorf("claude-code alone: %v", err)
	}
}

// TestInstallRefusesAFileThatIsNotRegularOrTooLarge: a folder where a
// settings file goes, or a file over the cap, is refused.
func TestInstallRefusesAFileThatIsNotRegularOrTooLarge(t *testing.T) {
	t.Parallel()
	root := checkout(t)
	if err := os.MkdirAll(filepath.Join(root, ".mcp.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, root, ".cursor/mcp.json", "{\"x\": \""+strings.Repeat("a", MaxFileBytes)+"\"}")
	_, err := Prepare(root, hostconfig.Hosts())
	for _, want := range []string{".mcp.json: it is not a regular file", ".cursor/mcp.json: it is larger than"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Prepare: %v, want it to say %q", err, want)
		}
	}
}

// TestWriteRefusesAFileChangedSinceItWasRead: a file that changed between
// the plan and the write is not overwritten.
func TestWriteRefusesAFileChangedSinceItWasRead(t *testing.T) {
	t.Parallel()
	root := checkout(t)
	put(t, root, ".mcp.json", `{"mcpServers": {}}`)
	plan, err := Prepare(root, []hostconfig.Host{hostconfig.ClaudeCode})
	if err != nil {
		t.Fatal(err)
	}
	put(t, root, ".mcp.json", `{"mcpServers": {"mine": {"command": "x"}}}`)
	if _, err := Write(plan); err == nil || !strings.Contains(err.Error(), "changed while aayu was writing") {
		t.Errorf("Write: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".mcp.json")); !strings.Contains(string(b), "mine") {
		t.Errorf("the newer file was overwritten: %s", b)
	}
}

// TestStatusSaysWhichHostsAreSetUp: after installing one host, status
// says that host is set up and the others are not; a server named
// aayudha that runs something else makes it partly set up.
func TestStatusSaysWhichHostsAreSetUp(t *testing.T) {
	t.Parallel()
	root := checkout(t)
	for _, hs := range ByHost(Status(root)) {
		if hs.SetUp() || hs.Touched() {
			t.Errorf("empty project: %s set up %v, touched %v", hs.Host, hs.SetUp(), hs.Touched())
		}
	}
	install(t, root, hostconfig.ClaudeCode, hostconfig.Gemini)
	got := map[hostconfig.Host]bool{}
	for _, hs := range ByHost(Status(root)) {
		got[hs.Host] = hs.SetUp()
	}
	if !got[hostconfig.ClaudeCode] || !got[hostconfig.Gemini] || got[hostconfig.Codex] || got[hostconfig.Cursor] {
		t.Errorf("set up: %v, want claude-code and gemini only", got)
	}
	put(t, root, ".mcp.json", `{"mcpServers": {"aayudha": {"command": "node", "args": ["evil.js"]}}}`)
	put(t, root, ".gemini/settings.json", `{"hooks": `)
	for _, hs := range ByHost(Status(root)) {
		switch hs.Host {
		case hostconfig.ClaudeCode:
			if hs.SetUp() || !hs.Touched() {
				t.Errorf("claude-code with another server named aayudha: set up %v, touched %v", hs.SetUp(), hs.Touched())
			}
		case hostconfig.Gemini:
			if hs.SetUp() {
				t.Errorf("gemini with an unparsable settings file counts as set up")
			}
			if !strings.Contains(hs.Entries[0].Note, "cannot be read") {
				t.Errorf("gemini's note: %q", hs.Entries[0].Note)
			}
		}
	}
}

func TestFindRoot(t *testing.T) {
	t.Parallel()
	root := checkout(t)
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := FindRoot(deep); err != nil || got != root {
		t.Errorf("FindRoot(deep) = %q, %v; want %q", got, err, root)
	}
	wt := t.TempDir() // a worktree: .git is a file
	put(t, wt, ".git", "gitdir: /elsewhere\n")
	if got, err := FindRoot(wt); err != nil || got != wt {
		t.Errorf("worktree: %q, %v", got, err)
	}
	if _, err := FindRoot(filepath.Dir(os.TempDir())); err == nil {
		t.Skip("the temporary folder's parent is inside a git checkout here")
	}
}

func TestOnPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if OnPath(dir) {
		t.Error("an empty folder holds aayu")
	}
	put(t, dir, "aayu", "#!/bin/sh\n")
	if OnPath(dir) {
		t.Error("a file without the run bit counts")
	}
	if err := os.Chmod(filepath.Join(dir, "aayu"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !OnPath("/nonexistent" + string(filepath.ListSeparator) + dir) {
		t.Error("aayu on the PATH not found")
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
