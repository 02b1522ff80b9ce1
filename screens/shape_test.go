package screens

// These tests hold every screen to the shape issue #21 asked for: a screen
// is a root over components, so no struct of a screen grows past about
// twenty fields, and no function of a screen branches more than fifteen
// ways unless its comment says why.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

const (
	maxFields     = 20
	maxCyclomatic = 15
)

// screenFiles parses every production Go file under screens/.
func screenFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", path, err)
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d screen files; the walk is not over screens/", len(files))
	}
	return fset, files
}

// TestScreensRefuseAModelOfMoreThanTwentyFields: every struct in a screen
// (its Model and each component it owns) has at most maxFields fields; an
// embedded component counts as one.
func TestScreensRefuseAModelOfMoreThanTwentyFields(t *testing.T) {
	fset, files := screenFiles(t)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			if c := fieldCount(st); c > maxFields {
				t.Errorf("%s: %s has %d fields; a screen's model owns components instead (at most %d fields)", fset.Position(ts.Pos()), ts.Name.Name, c, maxFields)
			}
			return true
		})
	}
}

func fieldCount(st *ast.StructType) int {
	n := 0
	for _, f := range st.Fields.List {
		n += max(1, len(f.Names))
	}
	return n
}

// TestScreensRefuseAFunctionOverComplexityFifteenWithoutAReason: every
// function in a screen has a cyclomatic complexity (gocyclo's count) of at
// most maxCyclomatic, or a doc comment that says "cyclomatic" and why.
func TestScreensRefuseAFunctionOverComplexityFifteenWithoutAReason(t *testing.T) {
	fset, files := screenFiles(t)
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			c := cyclomatic(fn)
			if c <= maxCyclomatic || strings.Contains(strings.ToLower(fn.Doc.Text()), "cyclomatic") {
				continue
			}
			t.Errorf("%s: %s has cyclomatic complexity %d (over %d) and no comment saying why", fset.Position(fn.Pos()), fn.Name.Name, c, maxCyclomatic)
		}
	}
}

// TestCyclomaticCountsAsGocycloDoes: the count above is gocyclo's: one,
// plus one per if, for, range, case, select case, && and ||.
func TestCyclomaticCountsAsGocycloDoes(t *testing.T) {
	src := `package p
func f(a, b bool, xs []int, c chan int) {
	if a && b || a {}
	for i := 0; i < 1; i++ {}
	for range xs {}
	switch { case a: ; case b: ; default: }
	select { case <-c: ; default: }
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c := cyclomatic(f.Decls[0].(*ast.FuncDecl)); c != 9 {
		t.Errorf("cyclomatic = %d, want 9", c)
	}
}

// cyclomatic is gocyclo's complexity of fn.
func cyclomatic(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
