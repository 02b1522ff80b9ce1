package cli

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// notCommands are "aayu WORD" strings that name no command on purpose: the
// hidden marker another tool's counsel comment starts with (model/inbox),
// the tool name a red-on-base check records, a cache key's namespace, and
// "run aayu again".
var notCommands = []string{"counsel", "red-on-base", "http", "again"}

// commandRef finds "aayu WORD" written as a command a person would type:
// after "run", a backtick or an opening bracket, or followed by an
// argument (a number, a flag, #N, or a placeholder: PR, STORY, DIR, N, ID).
// "aayu reads at most…" and the like are prose about aayu, not commands.
var commandRef = regexp.MustCompile("(?:(?:\\b[Rr]un |`|\\()aayu ([a-z][a-z-]*)|\\baayu ([a-z][a-z-]*)(?: (?:--|-[a-z]|#|[0-9]|%d|(?:PR|STORY|DIR|N|ID)\\b)|[`)]))")

// TestMessagesNameOnlyCommandsThatExist: every string literal in the
// program (tests and testdata aside) that tells a person to run "aayu
// WORD" names a command aayu has, so no message sends anyone to a command
// that is not there (as "aayu self-update" once did).
func TestMessagesNameOnlyCommandsThatExist(t *testing.T) {
	t.Parallel()
	var known []string
	for _, d := range commandDefs() {
		known = append(known, strings.Fields(d.Name)[0]) // "proof push" is typed "aayu proof …"
	}
	known = append(known, notCommands...)
	var bad []string
	found := 0
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && d.Name() != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := goparser.ParseFile(fset, p, nil, goparser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range commandRef.FindAllStringSubmatch(s, -1) {
				word := m[1] + m[2]
				found++
				if !slices.Contains(known, word) {
					bad = append(bad, fmt.Sprintf("%s: %q names aayu %s", fset.Position(lit.Pos()), s, word))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 50 {
		t.Fatalf("only %d command references found: the scan no longer reads the program's messages", found)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// TestCommandRefTellsCommandsFromProse pins what the scan counts.
func TestCommandRefTellsCommandsFromProse(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]string{
		"run aayu self-update to fix it": "self-update",
		"Freeze it with `aayu ready 3`":  "ready",
		"try aayu plan 4 --solo-bypass":  "plan",
		"(aayu proof push)":              "proof",
		"aayu reads at most 8 MiB":       "",
		"aayu could not read it":         "",
		"the most aayu reads.":           "",
		"aayu ship PR":                   "ship",
		"then aayu verify %d":            "verify",
	} {
		got := ""
		if m := commandRef.FindStringSubmatch(s); m != nil {
			got = m[1] + m[2]
		}
		if got != want {
			t.Errorf("%q: found %q, want %q", s, got, want)
		}
	}
}
