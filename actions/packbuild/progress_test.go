package packbuild

import (
	"testing"
	"time"

	"github.com/aayudha/aayu/proof"
)

// TestGoTestStreamReportsEachPackageAsItEnds feeds go test -json lines one
// at a time and checks that a package's end is reported on the line that
// ends it, not when the run is over.
func TestGoTestStreamReportsEachPackageAsItEnds(t *testing.T) {
	t.Parallel()
	stream := []string{
		`{"Action":"start","Package":"ex.com/m/a"}`,
		`{"Action":"run","Package":"ex.com/m/a","Test":"TestOne"}`,
		`{"Action":"pass","Package":"ex.com/m/a","Test":"TestOne","Elapsed":0.01}`,
		`{"Action":"run","Package":"ex.com/m/a","Test":"TestTwo"}`,
		`{"Action":"pass","Package":"ex.com/m/a","Test":"TestTwo","Elapsed":0.01}`,
		`{"Action":"output","Package":"ex.com/m/a","Output":"ok  \tex.com/m/a\t0.25s\n"}`,
		`{"Action":"pass","Package":"ex.com/m/a","Elapsed":0.25}`,
		`{"Action":"start","Package":"ex.com/m/b"}`,
		`{"Action":"run","Package":"ex.com/m/b","Test":"TestBad"}`,
		`{"Action":"fail","Package":"ex.com/m/b","Test":"TestBad","Elapsed":0}`,
		`{"Action":"fail","Package":"ex.com/m/b","Elapsed":1.5}`,
		`{"Action":"start","Package":"ex.com/m/c"}`,
		`{"Action":"output","Package":"ex.com/m/c","Output":"?   \tex.com/m/c\t[no test files]\n"}`,
		`{"Action":"skip","Package":"ex.com/m/c","Elapsed":0}`,
	}
	run := newTestRun()
	var evs []Event
	ended := map[int]PackageEnded{} // line index → the package that ended on it
	for i, l := range stream {
		before := len(evs)
		run.read([]byte(l), func(e Event) { evs = append(evs, e) }, StepTests)
		for _, e := range evs[before:] {
			if pe, ok := e.(PackageEnded); ok {
				ended[i] = pe
			}
		}
	}
	want := map[int]PackageEnded{
		6:  {Step: StepTests, Package: "ex.com/m/a", Result: proof.ResultPass, Passed: 2, Elapsed: 250 * time.Millisecond},
		10: {Step: StepTests, Package: "ex.com/m/b", Result: proof.ResultFail, Failed: 1, Elapsed: 1500 * time.Millisecond},
		13: {Step: StepTests, Package: "ex.com/m/c", Result: proof.ResultSkipped, Why: "no test files"},
	}
	if len(ended) != len(want) {
		t.Fatalf("package ends = %+v, want %+v", ended, want)
	}
	for i, w := range want {
		if ended[i] != w {
			t.Errorf("line %d ended %+v, want %+v", i, ended[i], w)
		}
	}
	starts := 0
	for _, e := range evs {
		if _, ok := e.(PackageStarted); ok {
			starts++
		}
	}
	var tests []TestEnded
	for _, e := range evs {
		if te, ok := e.(TestEnded); ok {
			tests = append(tests, te)
		}
	}
	if len(tests) != 3 || tests[0].Test != "TestOne" || tests[2].Result != proof.ResultFail {
		t.Errorf("tests ended = %+v, want TestOne, TestTwo passed and TestBad failed", tests)
	}
	if starts != 3 {
		t.Errorf("%d PackageStarted events, want 3", starts)
	}
	// The package's last output line comes before its end.
	for i, e := range evs {
		if pe, ok := e.(PackageEnded); ok && pe.Package == "ex.com/m/a" {
			if o, ok := evs[i-1].(Output); !ok || o.Line != "ok  \tex.com/m/a\t0.25s" {
				t.Errorf("the event before a's end is %+v, want its ok line", evs[i-1])
			}
		}
	}
}
