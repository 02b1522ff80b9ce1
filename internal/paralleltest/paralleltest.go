// Package paralleltest holds the rule that keeps a slow package's tests
// parallel: every TestXxx in the package's test files calls t.Parallel() as
// a top-level statement, or is listed, with the reason, among the tests
// allowed to run alone.
//
// The packages that start a sandbox, run git or go, or wait on a clock in
// most of their tests took minutes run one test at a time; a new test that
// forgets t.Parallel() adds its whole duration to the suite, so each such
// package checks itself with Check from a test of its own.
//
// It is imported only from _test.go files and keeps no state.
package paralleltest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Check fails t when a Test function in the *_test.go files of the
// current folder (the package under test) does not call t.Parallel() at its
// top level and is not a key of serial, or when serial names a test the
// package does not have. serial's values say why a test runs alone: it
// times itself, it races a timeout with heavy work, or it changes the
// process's environment or working folder (which t.Setenv and t.Chdir
// forbid beside t.Parallel anyway).
func Check(t *testing.T, serial map[string]string) {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var missing []string
	seen := map[string]bool{}
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", file, err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !IsTestFunc(fn) {
				continue
			}
			seen[fn.Name.Name] = true
			if _, allowed := serial[fn.Name.Name]; allowed {
				continue
			}
			if !CallsParallel(fn) {
				missing = append(missing, fset.Position(fn.Pos()).String()+": "+fn.Name.Name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("these tests do not call t.Parallel() (add it as their first line, with state from t.TempDir, or list them among the serial tests with the reason):\n%s",
			strings.Join(missing, "\n"))
	}
	for name, why := range serial {
		if !seen[name] {
			t.Errorf("the serial tests list %s, which is no test of this package; remove it", name)
		}
		if strings.TrimSpace(why) == "" {
			t.Errorf("the serial tests list %s without a reason", name)
		}
	}
}

// IsTestFunc reports whether fn is a test go test runs: TestXxx(t *testing.T).
func IsTestFunc(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(strings.TrimPrefix(name, "Test")); unicode.IsLower(r) {
		return false // Testify is not a test
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) != 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// CallsParallel reports whether one of fn's top-level statements is
// <its *testing.T>.Parallel(): a call inside a branch or a subtest does
// not make the test itself parallel.
func CallsParallel(fn *ast.FuncDecl) bool {
	tname := fn.Type.Params.List[0].Names[0].Name
	for _, st := range fn.Body.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Parallel" {
			continue
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == tname {
			return true
		}
	}
	return false
}
