package paralleltest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestEveryTestCallsParallel(t *testing.T) {
	t.Parallel()
	Check(t, nil)
}

// TestCallsParallelCountsOnlyATopLevelCall: the rule's own cases, so a test
// that calls Parallel only in a branch or a subtest, or on another T, is
// caught, and a helper taking no *testing.T is no test.
func TestCallsParallelCountsOnlyATopLevelCall(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src      string
		test     bool
		parallel bool
	}{
		{"func TestA(t *testing.T) { t.Parallel() }", true, true},
		{"func TestA(u *testing.T) { u.Helper(); u.Parallel() }", true, true},
		{"func TestA(t *testing.T) { if true { t.Parallel() } }", true, false},
		{"func TestA(t *testing.T) { t.Run(\"x\", func(t *testing.T) { t.Parallel() }) }", true, false},
		{"func TestA(t *testing.T) { other.Parallel() }", true, false},
		{"func TestA(t *testing.T) {}", true, false},
		{"func Testify(t *testing.T) {}", false, false},
		{"func TestMain(m *testing.M) {}", false, false},
		{"func TestB(b *testing.B) {}", false, false},
		{"func helper(t *testing.T) { t.Parallel() }", false, true},
	}
	for _, c := range cases {
		f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", "package x\n"+c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		fn := f.Decls[0].(*ast.FuncDecl)
		if got := IsTestFunc(fn); got != c.test {
			t.Errorf("%s: a test %v, want %v", c.src, got, c.test)
		}
		if c.test {
			if got := CallsParallel(fn); got != c.parallel {
				t.Errorf("%s: calls Parallel %v, want %v", c.src, got, c.parallel)
			}
		}
	}
}
