package cli

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// TestCommandTableIsOneTuiCanBuild: aayu's table passes the parser's own
// rules (tui.CheckTable: each command once, a group, one line and an
// example each, one default, flags that agree), and each command's help
// page names its flags and the global ones.
func TestCommandTableIsOneTuiCanBuild(t *testing.T) {
	t.Parallel()
	if problems := tui.CheckTable(commandDefs()); len(problems) > 0 {
		t.Errorf("aayu's table: %q", problems)
	}
	for _, d := range commandDefs() {
		var out, errb bytes.Buffer
		_, code, done := tui.Execute(context.Background(), append(strings.Fields(d.Name), "--help"), commandDefs(), tui.CLI{Stdout: &out, Stderr: &errb})
		if !done || code != tui.ExitOK || errb.Len() > 0 {
			t.Errorf("aayu %s --help: done %v, exit %d, stderr %q", d.Name, done, code, errb.String())
		}
		for _, f := range append(d.Flags, tui.GlobalFlags()...) {
			if !strings.Contains(out.String(), "--"+f.Name) {
				t.Errorf("aayu %s --help does not mention --%s", d.Name, f.Name)
			}
		}
	}
}

// notANameOfACommand are the places a command's word is written as a
// string for something else: a folder under the cache (filepath.Join's
// arguments) and a token source's name (ghx.SourceStatus's Source).
var notANameOfACommand = map[string]string{"filepath.Join": "a folder's name", "Source": "a token source's name"}

// TestEachCommandIsNamedOnce: a command's name (and each other name for
// one) is written as a string once in cli's production code, in its table
// entry; everything else finds the command through the table (run's
// route, the lane check, the person's command line, the token prompt), so
// no switch on names can drift from the table. Break it once by writing
// case "ship": anywhere in cli and this test names the file and line.
func TestEachCommandIsNamedOnce(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for _, d := range commandDefs() {
		names[d.Name] = true
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string][]string{}
	files := 0
	for _, en := range entries {
		n := en.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for lit, pos := range commandLiterals(f, names) {
			for _, p := range pos {
				seen[lit] = append(seen[lit], fset.Position(p).String())
			}
		}
	}
	if files < 20 {
		t.Fatalf("read only %d files; the scan is not over cli's production code", files)
	}
	for name := range names {
		switch at := seen[name]; {
		case len(at) == 0:
			t.Errorf("%q is not written anywhere: the scan no longer finds the table's entries", name)
		case len(at) > 1:
			t.Errorf("the command %q is named as a string %d times, want once (its table entry): %s", name, len(at), strings.Join(at, ", "))
		}
	}
}

// commandLiterals finds the string literals in f that are a command's
// name, by the name, leaving out the places notANameOfACommand lists and
// flags (a table's []tui.FlagDef, an Invocation's Flags["ready"]), whose
// names are not commands' even where the word is the same.
func commandLiterals(f *ast.File, names map[string]bool) map[string][]token.Pos {
	out := map[string][]token.Pos{}
	skip := map[*ast.BasicLit]bool{}
	skipUnder := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok {
				skip[lit] = true
			}
			return true
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && notANameOfACommand[x.Name+"."+sel.Sel.Name] != "" {
					for _, a := range n.Args {
						skipUnder(a)
					}
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && notANameOfACommand[k.Name] != "" {
				skipUnder(n.Value)
			}
		case *ast.CompositeLit:
			if a, ok := n.Type.(*ast.ArrayType); ok {
				if sel, ok := a.Elt.(*ast.SelectorExpr); ok && sel.Sel.Name == "FlagDef" {
					skipUnder(n)
				}
			}
		case *ast.IndexExpr:
			if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Flags" {
				skipUnder(n.Index)
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING || skip[n] {
				return true
			}
			if s, err := strconv.Unquote(n.Value); err == nil && names[s] {
				out[s] = append(out[s], n.Pos())
			}
		}
		return true
	})
	return out
}

// TestAHostAgentsHumanOnlyStepRoutesToItsBatch: through the table, each
// command that makes a batch (ship, plan, ready, decide) routes a host
// agent's invocation (a marker, no terminal, its argument) to its batch,
// and every other invocation to its own run: a marked shell with a
// terminal (a person may be typing there), a CI run, --ci, --dry-run, no
// argument, a person's shell. No other command makes a batch, and every
// one that does is human-only (refused at once in aayu's own lane).
func TestAHostAgentsHumanOnlyStepRoutesToItsBatch(t *testing.T) {
	t.Parallel()
	host := map[string]string{"CLAUDECODE": "1"}
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for mk, mv := range m {
			out[mk] = mv
		}
		return out
	}
	var batching []string
	for _, c := range commands() {
		if c.batch == nil {
			continue
		}
		batching = append(batching, c.def.Name)
		if !c.humanOnly {
			t.Errorf("aayu %s makes a batch but is not human-only", c.def.Name)
		}
		for _, tc := range []struct {
			name     string
			env      map[string]string
			terminal bool
			global   tui.Global
			args     []string
			batch    bool
		}{
			{"a host agent's tool call", host, false, tui.Global{}, []string{"7"}, true},
			{"a marked shell with a terminal", host, true, tui.Global{}, []string{"7"}, false},
			{"a host agent in a CI run", with(host, "GITHUB_ACTIONS", "true"), false, tui.Global{}, []string{"7"}, false},
			{"a host agent with --ci", host, false, tui.Global{CI: true}, []string{"7"}, false},
			{"a host agent with --dry-run", host, false, tui.Global{DryRun: true}, []string{"7"}, false},
			{"a host agent with no argument", host, false, tui.Global{}, nil, false},
			{"aayu's own lane", map[string]string{identity.AgentVariable: "1"}, false, tui.Global{}, []string{"7"}, false},
			{"a person's shell", map[string]string{}, false, tui.Global{}, []string{"7"}, false},
		} {
			vars := tc.env
			w := wiring{inv: tui.Invocation{Command: c.def.Name, Args: tc.args, Global: tc.global},
				e: env{getenv: func(k string) string { return vars[k] }, stdinIsTerminal: tc.terminal}}
			want := c.run
			if tc.batch {
				want = c.batch
			}
			if got := c.route(w); reflect.ValueOf(got).Pointer() != reflect.ValueOf(want).Pointer() {
				t.Errorf("aayu %s, %s: routed to the %s", c.def.Name, tc.name, map[bool]string{true: "command's own run", false: "batch"}[tc.batch])
			}
		}
	}
	want := []string{shipCommand().def.Name, planCommand().def.Name, readyCommand().def.Name, decideCommand().def.Name}
	slices.Sort(batching)
	slices.Sort(want)
	if !slices.Equal(batching, want) {
		t.Errorf("the commands that make a batch are %q, want %q", batching, want)
	}
}
