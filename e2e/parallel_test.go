package e2e

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// serialTests are the Test functions of this package allowed not to call
// t.Parallel(), each with the reason. Every other one must: the package's
// end-to-end tests mostly wait (on the sandbox's latency, a device code, a
// tmux pane), so run one after another they took half an hour on the
// shared two-core machine. A test that truly cannot run beside others
// (it times itself, or races a timeout with heavy work; or it changes
// the process's environment or working folder, which t.Setenv and
// os.Chdir forbid with t.Parallel anyway) is listed here.
var serialTests = map[string]string{
	// Times whole processes (only with AAYU_SPEED=1): beside other tests
	// its figures would measure the neighbours.
	"TestSpeedOfStartup": "times whole processes",
	// A wall-clock bound (500 ms to refuse the file): beside 8 end-to-end
	// tests under -race it took 690 ms. Serial tests run before the
	// parallel ones start, so it is timed alone.
	"TestHostileUserConfigRefusedFast": "times itself",
	// Streams 600 MB over loopback until aayu's 32 MiB cap; under -race
	// beside 8 other tests, GET /user ran past aayu's 2-minute timeout
	// before the cap was reached.
	"TestHugeAnswerRefusedThroughTheBinary": "streams 600 MB against a timeout",
	// proof push reads the pack of the checkout it runs in, the process's
	// working folder, which t.Chdir sets for the whole process.
	"TestProofPushCLI": "changes the working folder",
}

// e2eWait is how long an end-to-end test waits for aayu's output, a pane
// or a process before it fails. A passing test never waits it out; it is
// long because up to 8 of these tests run at once under -race on two
// cores that other work shares, where 20 s was seen to run out before a
// sandbox had seeded.
const e2eWait = 2 * time.Minute

// TestMain runs this package's tests, several at once, and removes the
// shared aayu binary afterwards.
//
// go test runs at most GOMAXPROCS parallel tests at a time unless told
// otherwise: two on the two-core machine. These tests spend most of their
// time waiting (the sandbox's latency, tmux panes, device codes), not
// computing, so unless -parallel is given they run 4 per core.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", fmt.Sprint(4*runtime.GOMAXPROCS(0))); err != nil {
			fmt.Fprintln(os.Stderr, "setting -test.parallel:", err)
			os.Exit(2)
		}
	}
	code := m.Run()
	if builtAayu.dir != "" {
		_ = os.RemoveAll(builtAayu.dir)
	}
	os.Exit(code)
}

// TestEveryE2ETestCallsParallel fails when a Test function in this
// package's test files does not call t.Parallel() at its top level and is
// not in serialTests: a new serial end-to-end test would quietly add its
// whole duration to the suite. Each test must also take its state (HOME,
// the sandbox's folder, caches) from t.TempDir and its environment through
// cli.Env, never from the process.
func TestEveryE2ETestCallsParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var serial []string
	seen := map[string]bool{}
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", file, err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isTestFunc(fn) {
				continue
			}
			seen[fn.Name.Name] = true
			if _, allowed := serialTests[fn.Name.Name]; allowed {
				continue
			}
			if !callsParallel(fn) {
				serial = append(serial, fset.Position(fn.Pos()).String()+": "+fn.Name.Name)
			}
		}
	}
	sort.Strings(serial)
	if len(serial) > 0 {
		t.Errorf("these tests do not call t.Parallel() (add it as their first line, with state from t.TempDir, or list them in serialTests with the reason):\n%s",
			strings.Join(serial, "\n"))
	}
	for name := range serialTests {
		if !seen[name] {
			t.Errorf("serialTests lists %s, which is no test of this package; remove it", name)
		}
	}
}

// isTestFunc reports whether fn is a test go test runs: TestXxx(t *testing.T).
func isTestFunc(fn *ast.FuncDecl) bool {
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

// callsParallel reports whether one of fn's top-level statements is
// <its *testing.T>.Parallel(): a call inside a branch or a subtest does
// not make the test itself parallel.
func callsParallel(fn *ast.FuncDecl) bool {
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
