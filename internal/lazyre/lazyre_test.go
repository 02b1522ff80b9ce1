package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestNewCompilesOnceAndReturnsTheSameRegexp(t *testing.T) {
	t.Parallel()
	re := New(`^a+$`)
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = re() }()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatalf("calls returned different *regexp.Regexp: %p and %p", g, got[0])
		}
	}
	if !got[0].MatchString("aaa") || got[0].MatchString("ab") {
		t.Errorf("New(`^a+$`) does not match as the pattern says")
	}
}

func TestNewPanicsOnABadPatternAtFirstUseNotBefore(t *testing.T) {
	t.Parallel()
	re := New(`(`) // must not panic here
	defer func() {
		if recover() == nil {
			t.Errorf("a pattern that does not compile did not panic at its first use")
		}
	}()
	re()
}

// productionFiles parses every non-test Go file of the module (the folder
// holding go.mod, two levels up), skipping testdata.
func productionFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[path] = f
		return nil
	})
	if err != nil {
		t.Fatalf("walking the module: %v", err)
	}
	if len(files) < 100 {
		t.Fatalf("found %d Go files under %s; that is not the module", len(files), root)
	}
	return fset, files
}

func isCallTo(call *ast.CallExpr, pkg string, names ...string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || id.Name != pkg {
		return false
	}
	for _, n := range names {
		if sel.Sel.Name == n {
			return true
		}
	}
	return false
}

// TestNoPackageLevelRegexpInProduction: no production package compiles a
// regular expression in a package-level var's initialiser, which runs at
// every start of aayu whatever the command; lazyre.New defers it.
func TestNoPackageLevelRegexpInProduction(t *testing.T) {
	t.Parallel()
	fset, files := productionFiles(t)
	for _, f := range files {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			ast.Inspect(gen, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false // compiled when the function runs, not at init
				}
				if call, ok := n.(*ast.CallExpr); ok && isCallTo(call, "regexp", "MustCompile", "Compile", "MustCompilePOSIX", "CompilePOSIX") {
					t.Errorf("%s: a package-level regexp compiles at every start; use lazyre.New", fset.Position(call.Pos()))
				}
				return true
			})
		}
	}
}

// TestEveryProductionPatternCompiles: every lazyre.New in production code
// is given a constant pattern that compiles, so the panic New defers to
// first use cannot reach a user on a rarely taken path.
func TestEveryProductionPatternCompiles(t *testing.T) {
	t.Parallel()
	fset, files := productionFiles(t)
	seen := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isCallTo(call, "lazyre", "New") {
				return true
			}
			seen++
			lit, ok := call.Args[0].(*ast.BasicLit)
			if len(call.Args) != 1 || !ok || lit.Kind != token.STRING {
				t.Errorf("%s: lazyre.New is given something other than one string literal, which this test cannot check", fset.Position(call.Pos()))
				return true
			}
			pattern, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			if _, err := regexp.Compile(pattern); err != nil {
				t.Errorf("%s: the pattern does not compile: %v", fset.Position(lit.Pos()), err)
			}
			return true
		})
	}
	if seen < 50 {
		t.Errorf("found %d lazyre.New calls in production code; the walk missed the module's patterns", seen)
	}
}
