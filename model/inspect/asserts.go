package inspect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// failureCalls are the methods of *testing.T, *testing.B, *testing.F and
// testing.TB that make a test fail.
var failureCalls = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// Asserts finds the top-level function name in one Go test file's source
// and says whether it can fail: it calls a failure method (Error, Fatal,
// Fail and their kin) on anything, hands one of its testing parameters to
// another function (a helper that asserts, t.Run's subtests), panics, or —
// for an Example — declares its output. found is false when the file does
// not parse or declares no such function. It parses only: nothing of the
// file runs.
func Asserts(src []byte, name string) (found, asserts bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, parser.ParseComments)
	if err != nil {
		return false, false
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != name || fn.Body == nil {
			continue
		}
		if strings.HasPrefix(name, "Example") {
			return true, exampleHasOutput(f, fn)
		}
		return true, bodyCanFail(fn)
	}
	return false, false
}

// bodyCanFail walks the function, its closures included, for a failure
// path.
func bodyCanFail(fn *ast.FuncDecl) bool {
	params := testingParams(fn.Type)
	can := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if can {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			for p := range testingParams(x.Type) {
				params[p] = true
			}
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "panic" {
				can = true
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && failureCalls[sel.Sel.Name] {
				can = true
			}
			for _, a := range x.Args {
				if id, ok := a.(*ast.Ident); ok && params[id.Name] {
					can = true
				}
			}
		}
		return true
	})
	return can
}

// testingParams names a function's parameters of a testing type.
func testingParams(ft *ast.FuncType) map[string]bool {
	out := map[string]bool{}
	if ft == nil || ft.Params == nil {
		return out
	}
	for _, field := range ft.Params.List {
		t := field.Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		sel, ok := t.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "testing" {
			continue
		}
		for _, n := range field.Names {
			out[n.Name] = true
		}
	}
	return out
}

// exampleHasOutput says an Example declares its output, the only way go
// test can fail it.
func exampleHasOutput(f *ast.File, fn *ast.FuncDecl) bool {
	for _, cg := range f.Comments {
		if cg.Pos() < fn.Body.Lbrace || cg.End() > fn.Body.Rbrace {
			continue
		}
		for _, c := range cg.List {
			text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			if strings.HasPrefix(text, "Output:") || strings.HasPrefix(text, "Unordered output:") {
				return true
			}
		}
	}
	return false
}

// funcSource is FuncSource: the bytes of the declaration, doc comment
// aside.
func funcSource(src []byte, name string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.ParseComments)
	if err != nil {
		return ""
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != name {
			continue
		}
		start, end := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
		if start < 0 || end > len(src) || start >= end {
			return ""
		}
		return string(src[start:end])
	}
	return ""
}
