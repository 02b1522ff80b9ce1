package tui

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCommandTableIsConsistent: the test table is one the parser can
// build, and CheckTable names each way a table can fail to be one.
func TestCommandTableIsConsistent(t *testing.T) {
	if problems := CheckTable(testDefs()); len(problems) > 0 {
		t.Errorf("the test table: %q", problems)
	}
	bad := append(testDefs(),
		CommandDef{Name: "ship", Group: "daily", Short: "again", Example: "aayu ship 1"},
		CommandDef{Name: "tag", Group: "nowhere", Short: "x", Example: "aayu tag"},
		CommandDef{Name: "mark", Group: "daily", Short: "x", Example: "aayu mark", Default: true,
			Flags: []FlagDef{{Name: "repo", Usage: "shadows"}, {Name: "list", Value: "N", Usage: "a value here"}}},
		CommandDef{Name: "other", Group: "daily", Short: "x", Example: "aayu other", Of: "missing"},
	)
	got := strings.Join(CheckTable(bad), "\n")
	for _, want := range []string{"command ship is listed twice", "aayu tag lacks", "aayu mark --repo shadows", "--list takes a value for one command and none",
		"aayu other is another name for missing", "2 commands are the default"} {
		if !strings.Contains(got, want) {
			t.Errorf("CheckTable of a bad table does not say %q:\n%s", want, got)
		}
	}
}

// TestParseArgsFindsTheCommandAfterItsOwnFlags: a command's flag may come
// before the command name, and one given without its command is refused
// by name.
func TestParseArgsFindsTheCommandAfterItsOwnFlags(t *testing.T) {
	inv, err := ParseArgs([]string{"--ready", "ready.md", "pack", "./out"}, testDefs())
	if err != nil || inv.Command != "pack" || inv.Flags["ready"] != "ready.md" || len(inv.Args) != 1 {
		t.Errorf("--ready FILE pack DIR = %+v, %v", inv, err)
	}
	inv, err = ParseArgs([]string{"--again", "ready", "7"}, testDefs())
	if err != nil || inv.Command != "ready" || inv.Flags["again"] != "true" {
		t.Errorf("--again ready 7 = %+v, %v", inv, err)
	}
	_, err = ParseArgs([]string{"--again"}, testDefs())
	if err == nil || !strings.Contains(err.Error(), "--again belongs to aayu ready, not aayu inbox") {
		t.Errorf("--again alone: %v", err)
	}
	inv, err = ParseArgs([]string{"--json", "number,title"}, testDefs())
	if err != nil || inv.Command != "inbox" || inv.Flags["json"] != "number,title" || inv.Flags["list"] != "true" {
		t.Errorf("--json number,title = %+v, %v; want the inbox's list as JSON", inv, err)
	}
	inv, err = ParseArgs([]string{"sandbox", "--reset=false"}, testDefs())
	if err != nil || inv.Flags["reset"] != "" {
		t.Errorf("sandbox --reset=false = %+v, %v; want no reset", inv, err)
	}
}

// TestTwoWordCommandIsOneTableEntry: a verb such as `proof push STORY
// [--media]` is one entry; its parent word refuses a missing or mistyped
// subcommand as a usage error with a suggestion.
func TestTwoWordCommandIsOneTableEntry(t *testing.T) {
	p := &parser{defs: testDefs()}
	inv, err := p.parse([]string{"--media", "proof", "push", "131", "--plain"})
	if err != nil || inv.Command != "proof push" || !slices.Equal(inv.Args, []string{"131"}) || inv.Flags["media"] != "true" || !inv.Global.Plain {
		t.Errorf("--media proof push 131 --plain = %+v, %v", inv, err)
	}
	for args, want := range map[string]string{
		"proof":           "aayu proof needs a command: comment, push, verify",
		"proof pus 131":   "did you mean aayu proof push?",
		"proof push":      "aayu proof push needs one argument, STORY",
		"ship 4 --media":  "--media belongs to aayu proof push, not aayu ship",
		"proof push 1 -x": "unknown flag -x",
	} {
		_, err := (&parser{defs: p.defs}).parse(strings.Fields(args))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("aayu %s: %v, want %q", args, err, want)
		}
	}
}

// TestNoArgumentsIsTheInboxWhateverOsArgsHolds: cobra reads os.Args when
// given nil; run(ctx, nil, …) in a test must still mean the bare `aayu`.
func TestNoArgumentsIsTheInboxWhateverOsArgsHolds(t *testing.T) {
	saved := os.Args
	t.Cleanup(func() { os.Args = saved })
	os.Args = []string{"aayu", "ship", "4"}
	inv, err := ParseArgs(nil, testDefs())
	if err != nil || inv.Command != "inbox" || inv.Args != nil {
		t.Errorf("ParseArgs(nil) with os.Args %q = %+v, %v; want the inbox", os.Args, inv, err)
	}
	var out, errb bytes.Buffer
	inv, _, done := Execute(context.Background(), nil, testDefs(), CLI{Stdout: &out, Stderr: &errb})
	if done || inv.Command != "inbox" {
		t.Errorf("Execute(nil) with os.Args %q = %+v, done %v, stderr %q; want the inbox", os.Args, inv, done, errb.String())
	}
}

// execute runs Execute on args and returns what it printed and its code.
func execute(t *testing.T, args ...string) (stdout, stderr string, code int, inv Invocation, done bool) {
	t.Helper()
	var out, errb bytes.Buffer
	inv, code, done = Execute(context.Background(), args, testDefs(), CLI{Stdout: &out, Stderr: &errb, Version: "v9.9.9"})
	return out.String(), errb.String(), code, inv, done
}

// TestSeedNamesRunTheirCommands: the seeds write `aayu proof verify
// STORY`, `aayu proof comment PR` and `aayu auth status`; each runs the
// command it names (with that command's flags), and help lists it.
func TestSeedNamesRunTheirCommands(t *testing.T) {
	for args, want := range map[string]Invocation{
		"proof verify 131":        {Command: "pack", Args: []string{"131"}},
		"proof comment 148 --ci":  {Command: "comment", Args: []string{"148"}},
		"auth status":             {Command: "auth"},
		"auth":                    {Command: "auth"},
		"proof verify 131 --head": {},
	} {
		_, stderr, code, inv, done := execute(t, strings.Fields(args)...)
		if want.Command == "" {
			if code != ExitUsage {
				t.Errorf("%s: exit %d, want a usage error", args, code)
			}
			continue
		}
		if done || code != ExitOK || inv.Command != want.Command || !slices.Equal(inv.Args, want.Args) {
			t.Errorf("%s = %+v (done %v, exit %d, %q); want aayu %s %v", args, inv, done, code, stderr, want.Command, want.Args)
		}
	}
	help, _, _, _, _ := execute(t, "proof", "--help")
	for _, w := range []string{"verify STORY", "comment PR", "push STORY"} {
		if !strings.Contains(help, w) {
			t.Errorf("aayu proof --help does not list %q:\n%s", w, help)
		}
	}
}

// TestVersionCommandPrintsTheVersion: gh's users type `aayu version`.
func TestVersionCommandPrintsTheVersion(t *testing.T) {
	out, _, code, _, done := execute(t, "version")
	flag, _, _, _, _ := execute(t, "--version")
	if !done || code != ExitOK || !strings.Contains(out, "v9.9.9") || !strings.Contains(flag, "v9.9.9") {
		t.Errorf("aayu version = %q (exit %d), --version = %q; want the version", out, code, flag)
	}
}

// TestManPageHasEnvironmentFilesAndExitStatus: `aayu man` is listed in
// help, and its page has the sections a man reader looks for.
func TestManPageHasEnvironmentFilesAndExitStatus(t *testing.T) {
	page, _, code, _, _ := execute(t, "man")
	for _, sec := range []string{".SH ENVIRONMENT", ".SH FILES", ".SH \"EXIT STATUS\"", "AAYU_AGENT", ".aayudha/proof/"} {
		if code != ExitOK || !strings.Contains(strings.ReplaceAll(page, ".SH EXIT STATUS", ".SH \"EXIT STATUS\""), sec) {
			t.Errorf("aayu man (exit %d) lacks %s", code, sec)
		}
	}
	help, _, _, _, _ := execute(t, "--help")
	if !strings.Contains(help, "man") || !strings.Contains(help, "version") {
		t.Errorf("aayu --help does not list man and version:\n%s", help)
	}
}

// TestHelpToAFileHasNoTrailingSpaces: help's columns are padded on the
// terminal; written to a file, no line ends in spaces.
func TestHelpToAFileHasNoTrailingSpaces(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"ship", "--help"}, {"help", "proof"}} {
		out, _, _, _, _ := execute(t, args...)
		for i, l := range strings.Split(out, "\n") {
			if strings.TrimRight(l, " \t") != l {
				t.Errorf("aayu %s: line %d ends in spaces: %q", strings.Join(args, " "), i+1, l)
			}
		}
	}
}

// TestJSONFlagCompletesFieldNames: `inbox --json <TAB>` offers the
// fields, after the ones already typed, never file names; a number
// argument completes no file either.
func TestJSONFlagCompletesFieldNames(t *testing.T) {
	out, _, _, _, _ := execute(t, "__complete", "inbox", "--json", "number,")
	if !strings.Contains(out, "number,kind") || strings.Contains(out, "number,number") || !strings.Contains(out, ":6") {
		t.Errorf("inbox --json number,<TAB> = %q; want the other fields, no files (directive 6)", out)
	}
	out, _, _, _, _ = execute(t, "__complete", "ship", "")
	if !strings.Contains(out, ":4") {
		t.Errorf("ship <TAB> = %q; want no file names (directive 4)", out)
	}
}
