package proof

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"
	"testing/fstest"
)

// FuzzEvidenceEvents: whatever events criterion 1's evidence holds (its
// hash recomputed, as a forger would), the criterion is proven only when the
// events show x:TestOne running and passing and record no fail.
func FuzzEvidenceEvents(f *testing.F) {
	f.Add(fixtureFiles()["evidence/criterion-1.jsonl"])
	f.Add([]byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" + `{"Action":"fail","Package":"example.com/x","Test":"TestOne"}` + "\n"))
	f.Add([]byte(`{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n"))
	f.Add([]byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n"))
	f.Add([]byte("not json\n"))
	f.Add([]byte{})
	// Issue 24's refusals: a repeated key, an action go test never writes,
	// a pass before its run or after a run in another package.
	f.Add([]byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" + `{"Action":"fail","Package":"example.com/x","Test":"TestOne","Action":"pass"}` + "\n"))
	f.Add([]byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" + `{"Action":"FAIL","Package":"example.com/x","Test":"TestOne"}` + "\n" + `{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n"))
	f.Add([]byte(`{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n" + `{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n"))
	f.Add([]byte(`{"Action":"run","Package":"example.com/y","Test":"TestOne"}` + "\n" + `{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n"))
	opts := fixtureMappedOptions(f)
	f.Fuzz(func(t *testing.T, events []byte) {
		files := fixtureFiles()
		files["evidence/criterion-1.jsonl"] = events
		p := fixturePack(files)
		p.Artifacts[0] = withBytes(p.Artifacts[0], events)
		raw, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{packFile: {Data: raw}}
		for name, b := range files {
			fsys[artifactsDir+"/"+name] = &fstest.MapFile{Data: b}
		}
		r, err := verifyFS(context.Background(), fsys, opts, false)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Criteria[0].Proven {
			if r.Verified() {
				t.Fatal("the pack verified with criterion 1 not proven")
			}
			return
		}
		var ran, passed bool
		for _, line := range bytes.Split(events, []byte("\n")) {
			var ev struct{ Action, Package, Test string }
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatalf("proven with a line that is not an event: %q", line)
			}
			if scanJSON(line, "line", -1) != nil {
				t.Fatalf("proven with a line that repeats a key: %q", line)
			}
			if !testActions[ev.Action] {
				t.Fatalf("proven with an action go test never writes: %q", line)
			}
			if ev.Action == "pass" && ev.Package == "example.com/x" && ev.Test == "TestOne" && !ran {
				t.Fatalf("proven with a pass before its run:\n%s", events)
			}
			if ev.Action == "fail" {
				t.Fatalf("proven with a fail event: %q", line)
			}
			if ev.Package == "example.com/x" && ev.Test == "TestOne" {
				ran = ran || ev.Action == "run"
				passed = passed || ev.Action == "pass"
			}
		}
		if !ran || !passed {
			t.Fatalf("proven without x:TestOne running and passing:\n%s", events)
		}
	})
}

// FuzzFloors: whatever one check says, the floors hold only when every
// required floor is present and passes, and a coverage check's value meets
// its threshold.
func FuzzFloors(f *testing.F) {
	f.Add("coverage", "pass", 100.0, 90.0, true)
	f.Add("coverage", "pass", 10.0, 90.0, true)
	f.Add("coverage", "fail", 95.0, 90.0, true)
	f.Add("tests", "skipped", 0.0, 0.0, false)
	f.Add("vet", "waived", 3.0, 0.0, true)
	f.Add("red-on-base", "blocked", 0.0, 0.0, false)
	// Issue 24: numbers missing, thresholds loosened or out of range, and
	// counts the pack's bytes do not show.
	f.Add("coverage", "pass", 100.0, 0.0, false)
	f.Add("coverage", "pass", 10.0, 0.0, true)
	f.Add("coverage", "pass", 100.0, -5.0, true)
	f.Add("coverage", "pass", 95.0, 90.0, true)
	f.Add("vet", "pass", 5.0, 100.0, true)
	f.Add("tests", "pass", 300.0, 0.0, true)
	f.Fuzz(func(t *testing.T, floor, result string, value, threshold float64, numbers bool) {
		checks := goodChecks()
		c := Check{Floor: floor, Result: result}
		if numbers {
			c.Value, c.Threshold = &value, &threshold
		}
		checks[1] = c // in place of the coverage check
		holds, failed := JudgeFloors(checks, FloorPolicy{}, goodMeasured())
		if !holds {
			if len(failed) == 0 {
				t.Fatal("the floors do not hold but none is named")
			}
			return
		}
		present := map[string]bool{}
		for _, c := range checks {
			if c.Result != ResultPass && (c.Result != ResultSkipped && c.Result != ResultWaived || isDefaultRequired(c.Floor)) {
				t.Fatalf("held with %s %q", c.Floor, c.Result)
			}
			if c.Result == ResultPass && (c.Floor == "coverage" || c.Floor == "vet") && (c.Value == nil || c.Threshold == nil) {
				t.Fatalf("held with a %s check missing its value or threshold", c.Floor)
			}
			if c.Result == ResultPass && c.Floor == "coverage" && (*c.Value < DefaultCoverageThreshold || *c.Threshold < 0 || *c.Threshold > 100 ||
				math.Abs(*c.Value-goodMeasured().CoveragePercent()) > 0.1+1e-9) {
				t.Fatalf("held with coverage %v (threshold %v) against the policy's %v and a report of 100", *c.Value, *c.Threshold, DefaultCoverageThreshold)
			}
			if c.Result == ResultPass && c.Floor == "vet" && *c.Value > VetThreshold {
				t.Fatalf("held with %v vet findings", *c.Value)
			}
			if c.Result == ResultPass && c.Floor == "tests" && (c.Value == nil || *c.Value > float64(goodMeasured().TestsPassed)) {
				t.Fatalf("held with a tests count the events do not show")
			}
			if c.Result == ResultPass {
				present[c.Floor] = true
			}
		}
		for _, req := range DefaultRequiredFloors {
			if !present[req] {
				t.Fatalf("held without a passing %s check", req)
			}
		}
	})
}

func isDefaultRequired(floor string) bool {
	for _, f := range DefaultRequiredFloors {
		if f == floor {
			return true
		}
	}
	return false
}
