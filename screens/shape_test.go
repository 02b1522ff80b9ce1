package screens

// These tests hold every screen to its shape: a screen is a root over
// components that own their state, so no struct of a screen carries more
// than maxFields fields (an embedded struct's promoted fields counted on it),
// and no function of a screen branches more than fifteen ways.

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

// maxFields is what the largest screen carries today: approve's Model,
// which embeds the tui.Flow it is run by (22 fields, ConfirmFlow's 19 among
// them) beside its code's wait. The inbox carries 19 (its components in
// named fields); with them embedded it carried 59.
const (
	maxFields     = 23
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

// TestScreensRefuseAModelOfTooManyFields: every struct in a screen
// (its Model and each component it owns) has at most maxFields fields,
// counted as the struct carries them: an embedded struct's fields are
// promoted onto it, so they count on it, recursively; a component kept in
// a named field counts as one.
func TestScreensRefuseAModelOfTooManyFields(t *testing.T) {
	fset, files := screenFiles(t)
	structs := declaredStructs(t)
	for _, f := range files {
		pkg := filepath.Base(filepath.Dir(fset.Position(f.Pos()).Filename))
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			if structs.keyMap(pkg, st) {
				return true // bindings, not state
			}
			c := structs.fieldCount(pkg, st, nil)
			if testing.Verbose() && ts.Name.Name == "Model" {
				t.Logf("%s.%s: %d fields", pkg, ts.Name.Name, c)
			}
			if c > maxFields {
				t.Errorf("%s: %s carries %d fields (its embedded structs' counted on it); a screen's model owns components in named fields instead (at most %d)", fset.Position(ts.Pos()), ts.Name.Name, c, maxFields)
			}
			return true
		})
	}
}

// structs are the struct types declared in screens/ and tui/, by package
// directory name and type name: what an embedded field can be resolved to.
type structs map[string]*ast.StructType

// declaredStructs parses the production files of screens/ and ../tui.
func declaredStructs(t *testing.T) structs {
	t.Helper()
	out := structs{}
	for _, root := range []string{".", filepath.Join("..", "tui")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return fmt.Errorf("parsing %s: %w", path, err)
			}
			pkg := filepath.Base(filepath.Dir(path))
			if root == "." && filepath.Dir(path) == "." {
				pkg = "screens"
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, s := range g.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						if st, ok := ts.Type.(*ast.StructType); ok {
							out[pkg+"."+ts.Name.Name] = st
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// fieldCount counts st's fields as they are promoted: an embedded struct
// declared in screens/ or tui/ (T, *T, tui.T) adds its own fields,
// recursively, instead of one; one from elsewhere counts as one. seen
// stops a cycle through pointers.
func (s structs) fieldCount(pkg string, st *ast.StructType, seen map[string]bool) int {
	n := 0
	for _, f := range st.Fields.List {
		if len(f.Names) > 0 {
			n += len(f.Names)
			continue
		}
		name := s.embedded(pkg, f.Type)
		inner, ok := s[name]
		if !ok || seen[name] || s.keyMap(name[:strings.Index(name, ".")], inner) {
			n++
			continue
		}
		next := map[string]bool{name: true}
		for k := range seen {
			next[k] = true
		}
		n += s.fieldCount(name[:strings.Index(name, ".")], inner, next)
	}
	return n
}

// keyMap says whether st is a key map: key.Binding fields and embedded key
// maps only. Its bindings are what the keys are, not state, so a key map
// embedded counts as one field and is not held to the limit itself.
func (s structs) keyMap(pkg string, st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			name := s.embedded(pkg, f.Type)
			inner, ok := s[name]
			if !ok || !s.keyMap(name[:strings.Index(name, ".")], inner) {
				return false
			}
			continue
		}
		sel, ok := f.Type.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Binding" {
			return false
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "key" {
			return false
		}
	}
	return true
}

// embedded is the package-qualified name of an embedded field's type.
func (s structs) embedded(pkg string, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return s.embedded(pkg, e.X)
	case *ast.IndexExpr: // a generic type, T[A]: its fields are T's
		return s.embedded(pkg, e.X)
	case *ast.IndexListExpr: // T[A, B]
		return s.embedded(pkg, e.X)
	case *ast.Ident:
		return pkg + "." + e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}

// TestFieldCountCountsPromotedFields: an embedded struct's fields count on
// the struct that embeds it, recursively; a named field counts as one.
func TestFieldCountCountsPromotedFields(t *testing.T) {
	src := `package p
type inner struct{ a, b int; c string }
type middle struct{ inner; d int }
type root struct{ middle; *inner; e, f int }
type named struct{ m middle; g int }
type generic struct{ *middle[int, string]; h int }`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := structs{}
	for _, d := range f.Decls {
		ts := d.(*ast.GenDecl).Specs[0].(*ast.TypeSpec)
		s["p."+ts.Name.Name] = ts.Type.(*ast.StructType)
	}
	for name, want := range map[string]int{"inner": 3, "middle": 4, "root": 9, "named": 2, "generic": 5} {
		if got := s.fieldCount("p", s["p."+name], nil); got != want {
			t.Errorf("%s: %d fields, want %d", name, got, want)
		}
	}
}

// TestScreensRefuseAFunctionOverComplexityFifteen: every function in a
// screen has a cyclomatic complexity (gocyclo's count) of at most
// maxCyclomatic. There are no exemptions: a function that branches more
// is split into the components or steps it is made of.
func TestScreensRefuseAFunctionOverComplexityFifteen(t *testing.T) {
	fset, files := screenFiles(t)
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if c := cyclomatic(fn); c > maxCyclomatic {
				t.Errorf("%s: %s has cyclomatic complexity %d (over %d); split it", fset.Position(fn.Pos()), fn.Name.Name, c, maxCyclomatic)
			}
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
