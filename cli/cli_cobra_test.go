package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// builtWithVCS is the binary built with the commit stamped in, shared by
// this package's tests that run it as a process: one link of the whole
// program per go test run, not one per test. TestMain (parallel_test.go)
// removes its folder.
var builtWithVCS struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildAayuWithVCS builds the binary with the commit stamped in, whatever
// GOFLAGS says (this machine sets -buildvcs=false), on the first call.
func buildAayuWithVCS(t *testing.T) string {
	t.Helper()
	builtWithVCS.once.Do(func() {
		dir, err := os.MkdirTemp("", "aayu-cli-test-bin-")
		if err != nil {
			builtWithVCS.err = err
			return
		}
		builtWithVCS.dir = dir
		bin := filepath.Join(dir, "aayu")
		if out, err := exec.Command("go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "..").CombinedOutput(); err != nil {
			builtWithVCS.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		builtWithVCS.bin = bin
	})
	if builtWithVCS.err != nil {
		t.Fatal(builtWithVCS.err)
	}
	return builtWithVCS.bin
}

// TestVersionNamesTheBuildAndItsCommit: --version prints the module version
// and the commit the binary was built from, read from the build, and exits 0.
func TestVersionNamesTheBuildAndItsCommit(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAayu(t, "--version")
	if code != tui.ExitOK || out != "aayu version "+tui.BuildVersion()+"\n" || errOut != "" {
		t.Fatalf("aayu --version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git checkout to compare the commit with: %v", err)
	}
	if fi, err := os.Stat(".git"); err != nil || !fi.IsDir() {
		// The go command stamps the commit only where .git is a folder:
		// a git worktree's .git is a file, and its builds say (devel).
		t.Skip("not a clone (a git worktree?): go build stamps no commit here")
	}
	bin := buildAayuWithVCS(t)
	got, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	if want := "(commit " + strings.TrimSpace(string(head))[:12]; !strings.HasPrefix(string(got), "aayu version ") || !strings.Contains(string(got), want) {
		t.Errorf("the built binary's --version = %q, want it to name %s)", got, want)
	}
}

// TestHelpShipShowsShipsOwnPage: `aayu help ship` and `aayu ship --help`
// print ship's page (its flag, its examples), not the list of commands.
func TestHelpShipShowsShipsOwnPage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help", "ship"}, {"ship", "--help"}, {"ship", "148", "-h"}} {
		code, out, errOut := runAayu(t, args...)
		if code != tui.ExitOK || errOut != "" {
			t.Fatalf("aayu %q: exit %d, stderr %q", args, code, errOut)
		}
		for _, want := range []string{"--solo-bypass", "aayu ship 148 --solo-bypass", "aayu ship PR", "--repo"} {
			if !strings.Contains(out, want) {
				t.Errorf("aayu %q does not show %q:\n%s", args, want, out)
			}
		}
		if strings.Contains(out, "MERGE GATE") || strings.Contains(out, "--reset") {
			t.Errorf("aayu %q shows the root page, not ship's:\n%s", args, out)
		}
	}
}

// TestMistypedCommandOrFlagSuggestsTheNearest: a typo is a one-line usage
// error (exit 2) that names the nearest command or flag.
func TestMistypedCommandOrFlagSuggestsTheNearest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"shp", "148"}, "aayu: unknown command \"shp\": did you mean aayu ship? Run aayu --help for usage.\n"},
		{[]string{"help", "shp"}, "aayu: no help for \"shp\": did you mean aayu ship? Run aayu --help for usage.\n"},
		{[]string{"inbox", "--lst"}, "aayu: unknown flag --lst: did you mean --list? Run aayu inbox --help for usage.\n"},
		{[]string{"ship", "148", "--solo-bypas"}, "aayu: unknown flag --solo-bypas: did you mean --solo-bypass? Run aayu ship --help for usage.\n"},
	} {
		code, out, errOut := runAayu(t, tc.args...)
		if code != tui.ExitUsage || out != "" || errOut != tc.want {
			t.Errorf("aayu %q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tui.ExitUsage, tc.want)
		}
	}
}

// TestCompletionScriptsAndManPage: each shell's completion script and the
// man page are printed by the binary itself.
func TestCompletionScriptsAndManPage(t *testing.T) {
	t.Parallel()
	for shell, want := range map[string]string{"bash": "__start_aayu", "zsh": "#compdef aayu", "fish": "complete -c aayu", "powershell": "Register-ArgumentCompleter"} {
		code, out, errOut := runAayu(t, "completion", shell)
		if code != tui.ExitOK || !strings.Contains(out, want) {
			t.Errorf("aayu completion %s: exit %d, stderr %q, no %q in the script", shell, code, errOut, want)
		}
	}
	code, out, _ := runAayu(t, "man")
	if code != tui.ExitOK || !strings.HasPrefix(out, ".TH AAYU 1") || !strings.Contains(out, "solo-bypass") || !strings.Contains(out, "config\\&.toml") {
		t.Errorf("aayu man: exit %d, want a roff page naming ship's flag and the config file:\n%.300s", code, out)
	}
}

// TestBashCompletionCompletesShip loads the bash completion script in bash
// and completes `aayu sh` to `ship`, as a shell does on tab.
func TestBashCompletionCompletesShip(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := buildAayuWithVCS(t)
	script := filepath.Join(t.TempDir(), "aayu.bash")
	out, err := exec.Command(bin, "completion", "bash").Output()
	if err != nil {
		t.Fatalf("aayu completion bash: %v", err)
	}
	if err := os.WriteFile(script, out, 0o600); err != nil {
		t.Fatal(err)
	}
	complete := func(line string) []string {
		t.Helper()
		// Without the bash-completion package, a stand-in for the one
		// function of it the script calls (it reads COMP_WORDS as is).
		cmd := exec.Command("bash", "--norc", "--noprofile", "-c", `source "$1"
[[ -r /usr/share/bash-completion/bash_completion ]] && source /usr/share/bash-completion/bash_completion
declare -F _get_comp_words_by_ref >/dev/null || _get_comp_words_by_ref() {
  cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"
  words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
}
compopt() { :; } # a builtin that works only inside a completion bash is running
COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}; read -r -a COMP_WORDS <<< "$2"
[[ "$2" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
__start_aayu aayu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"`, "bash", script, line)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
		var stderr strings.Builder
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("completing %q: %v\n%s", line, err, stderr.String())
		}
		return strings.Fields(string(got))
	}
	if got := complete("aayu sh"); !slices.Equal(got, []string{"ship"}) {
		t.Errorf("aayu sh<tab> = %q, want [ship]", got)
	}
	if got := complete("aayu ship 148 --solo"); !slices.Contains(got, "--solo-bypass") {
		t.Errorf("aayu ship 148 --solo<tab> = %q, want --solo-bypass", got)
	}
}

// TestInboxJSONPrintsTheFieldsAskedFor: --json FIELDS prints the cards of
// the --list read as a JSON array of objects with exactly those fields, in
// printable ASCII whatever the titles hold; --json alone names the fields.
func TestInboxJSONPrintsTheFieldsAskedFor(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAayu(t, "--sandbox", "inbox", "--list", "--json", "number,kind,title")
	if code != tui.ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	for i := range len(out) {
		if c := out[i]; c >= 0x7f || (c < 0x20 && c != '\n') {
			t.Fatalf("byte %#x at %d: the JSON is not printable ASCII:\n%s", c, i, out)
		}
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(items) == 0 {
		t.Fatal("no cards in the demo's JSON")
	}
	hostile := false
	for _, it := range items {
		keys := make([]string, 0, len(it))
		for k := range it {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"kind", "number", "title"}) {
			t.Errorf("an item has fields %q, want kind, number, title", keys)
		}
		hostile = hostile || strings.Contains(it["title"].(string), "\x1b[2J")
	}
	if !hostile {
		t.Error("the demo's hostile title did not come through as data (escaped in JSON, decoded intact)")
	}

	code, out, errOut = runAayu(t, "--sandbox", "inbox", "--json")
	if code != tui.ExitUsage || out != "" || !strings.Contains(errOut, "number, kind, group, title") {
		t.Errorf("--json alone: exit %d, stdout %q, stderr %q; want exit 2 naming the fields", code, out, errOut)
	}
	code, _, errOut = runAayu(t, "--sandbox", "inbox", "--json", "number,colour")
	if code != tui.ExitUsage || !strings.Contains(errOut, `"colour"`) {
		t.Errorf("--json with an unknown field: exit %d, stderr %q", code, errOut)
	}
}

// TestASCIIJSONKeepsEveryCharacter: the escaping that keeps --json output
// printable ASCII decodes to the very same text, astral runes and DEL too.
func TestASCIIJSONKeepsEveryCharacter(t *testing.T) {
	t.Parallel()
	want := "caf\u00e9 \U0001F600 \x7f \u202e \x1b[2J \"q\" <b>"
	b, err := json.Marshal([]string{want})
	if err != nil {
		t.Fatal(err)
	}
	out := asciiJSON(b)
	for i, c := range out {
		if c < 0x20 || c >= 0x7f {
			t.Fatalf("byte %#x at %d in %s", c, i, out)
		}
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != 1 || got[0] != want {
		t.Errorf("asciiJSON(%s) = %s, decodes to %q (%v)", b, out, got, err)
	}
}
