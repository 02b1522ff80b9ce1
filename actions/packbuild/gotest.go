package packbuild

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// maxTestStream caps the go test -json stream kept in memory. The demo's is
// a few kilobytes; a large repository's tens of megabytes.
const maxTestStream = 256 << 20

// testEvent is the part of a go test -json event the runner reads.
type testEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
	ImportPath  string  // build-output and build-fail events
	Elapsed     float64 // seconds, on a pass, fail or skip
}

// testRun is what one go test -json run did.
type testRun struct {
	stream   []byte // the raw event stream, for TestEvidence
	passed   map[string]bool
	failed   map[string]bool // "pkg TestName"
	skipped  map[string]bool
	badPkgs  map[string]string // package import path → why it did not build or run
	output   []string          // the text output, line by line
	exitCode int
	stderr   string
}

func newTestRun() *testRun {
	return &testRun{passed: map[string]bool{}, failed: map[string]bool{}, skipped: map[string]bool{}, badPkgs: map[string]string{}}
}

func testKey(pkg, test string) string { return pkg + " " + test }

// read takes one line of the stream.
func (r *testRun) read(line []byte, emit func(Event), step string) {
	if len(r.stream)+len(line)+1 <= maxTestStream {
		r.stream = append(append(r.stream, line...), '\n')
	}
	var e testEvent
	if json.Unmarshal(line, &e) != nil {
		r.output = append(r.output, string(line))
		emit(Output{Step: step, Line: string(line)})
		return
	}
	top := e.Test != "" && !strings.Contains(e.Test, "/")
	switch e.Action {
	case "start":
		emit(PackageStarted{Step: step, Package: e.Package})
	case "run":
		if top {
			emit(TestRunning{Step: step, Package: e.Package, Test: e.Test})
		}
	case "pass", "fail", "skip":
		switch {
		case e.Test == "" && e.Action == "fail" && e.FailedBuild != "":
			r.badPkgs[e.Package] = "does not build"
		case e.Test == "" && e.Action == "fail" && !r.anyTestIn(e.Package):
			if _, ok := r.badPkgs[e.Package]; !ok {
				r.badPkgs[e.Package] = "failed before any test ran"
			}
		case top && e.Action == "pass":
			r.passed[testKey(e.Package, e.Test)] = true
		case top && e.Action == "fail":
			r.failed[testKey(e.Package, e.Test)] = true
		case top && e.Action == "skip":
			r.skipped[testKey(e.Package, e.Test)] = true
		}
		if e.Test == "" {
			defer emit(r.packageEnded(e, step)) // after the package's last output line
		} else if top {
			emit(TestEnded{Step: step, Package: e.Package, Test: e.Test, Result: testResults[e.Action]})
		}
	case "build-fail":
		r.badPkgs[e.ImportPath] = "does not build"
	}
	if e.Output != "" {
		for _, l := range strings.Split(strings.TrimRight(e.Output, "\n"), "\n") {
			r.output = append(r.output, l)
			emit(Output{Step: step, Line: l})
		}
	}
}

func (r *testRun) anyTestIn(pkg string) bool {
	for _, m := range []map[string]bool{r.passed, r.failed, r.skipped} {
		for k := range m {
			if strings.HasPrefix(k, pkg+" ") {
				return true
			}
		}
	}
	return false
}

// failures lists, sorted, every failed test ("deductible.TestX") and every
// package that did not build.
func (r *testRun) failures(modulePath string) []string {
	var out []string
	for k := range r.failed {
		pkg, test, _ := strings.Cut(k, " ")
		out = append(out, shortPkg(modulePath, pkg)+"."+test)
	}
	for pkg, why := range r.badPkgs {
		out = append(out, "package "+shortPkg(modulePath, pkg)+" "+why)
	}
	slices.Sort(out)
	return out
}

// shortPkg is a package's path inside the module, "." for the root.
func shortPkg(modulePath, pkg string) string {
	if pkg == modulePath {
		return "."
	}
	return strings.TrimPrefix(pkg, modulePath+"/")
}

// goTest runs go test -json -coverprofile over every package of the
// checkout, emitting each test as it starts.
func (t Tools) goTest(ctx context.Context, dir, coverProfile string, prefix []string, emit func(Event), step string) (*testRun, error) {
	run := newTestRun()
	args := []string{"test", "-json", "-count=1", "-covermode=set", "-coverprofile=" + coverProfile, "./..."}
	code, stderr, err := t.runGo(ctx, dir, prefix, args, func(l []byte) { run.read(l, emit, step) })
	if err != nil {
		return nil, err
	}
	run.exitCode, run.stderr = code, stderr
	if code != 0 && len(run.stream) == 0 {
		return nil, fmt.Errorf("go test did not run in %s (exit status %d)%s", filepath.Base(dir), code, quoteStderr([]byte(stderr)))
	}
	return run, nil
}

// readModulePath reads the module line of go.mod.
func readModulePath(gomod []byte) (string, error) {
	for _, line := range bytes.Split(gomod, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("go.mod has no module line")
}
