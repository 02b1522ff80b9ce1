package packbuild

import (
	"strings"
	"time"

	"github.com/aayudha/aayu/proof"
)

// PackageStarted: go test began running a package's tests.
type PackageStarted struct {
	Step    string
	Package string
}

// PackageEnded: go test finished a package, as `go test -json` reported it
// the moment it did, so a screen can show progress package by package.
// Result is a check result word (pass, fail, skipped); Passed and Failed
// count its top-level tests; Why says in words why a package failed or was
// skipped without tests ("no test files", "does not build").
type PackageEnded struct {
	Step           string
	Package        string
	Result         string
	Passed, Failed int
	Elapsed        time.Duration
	Why            string
}

// TestEnded: a top-level test passed, failed or was skipped.
type TestEnded struct {
	Step          string
	Package, Test string
	Result        string
}

func (PackageStarted) isEvent() {}
func (PackageEnded) isEvent()   {}
func (TestEnded) isEvent()      {}

// testResults maps go test's actions to check result words.
var testResults = map[string]string{"pass": proof.ResultPass, "fail": proof.ResultFail, "skip": proof.ResultSkipped}

// packageEnded builds the event for a package-level pass, fail or skip.
func (r *testRun) packageEnded(e testEvent, step string) PackageEnded {
	ev := PackageEnded{Step: step, Package: e.Package, Elapsed: time.Duration(e.Elapsed * float64(time.Second))}
	prefix := e.Package + " "
	for k := range r.passed {
		if strings.HasPrefix(k, prefix) {
			ev.Passed++
		}
	}
	for k := range r.failed {
		if strings.HasPrefix(k, prefix) {
			ev.Failed++
		}
	}
	switch e.Action {
	case "pass":
		ev.Result = proof.ResultPass
	case "skip":
		ev.Result, ev.Why = proof.ResultSkipped, "no test files"
	default:
		ev.Result, ev.Why = proof.ResultFail, r.badPkgs[e.Package]
	}
	return ev
}
