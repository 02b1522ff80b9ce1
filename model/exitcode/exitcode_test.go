package exitcode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorstRanksAFailureAboveUsageRefusalAndFloor(t *testing.T) {
	for _, tc := range []struct {
		codes []int
		want  int
	}{
		{nil, OK},
		{[]int{OK, OK}, OK},
		{[]int{OK, Floor}, Floor},
		{[]int{Floor, Refused}, Refused},
		{[]int{Refused, Usage}, Usage},
		{[]int{Usage, Failed}, Failed},
		{[]int{Failed, Refused, Floor}, Failed},
		{[]int{Refused, 7}, 7}, // a code that is not aayu's counts as a failure
	} {
		if got := Worst(tc.codes...); got != tc.want {
			t.Errorf("Worst(%v) = %d, want %d", tc.codes, got, tc.want)
		}
	}
}

// An exit code declared as a number outside this package would be a second
// table that can drift from SPEC §3; every Exit… constant elsewhere must be
// named from this one.
func TestNoSecondExitCodeTable(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Exit") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						t.Errorf("%s: %s = %s is a second exit-code table; name it from model/exitcode", fset.Position(name.Pos()), name.Name, lit.Value)
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
