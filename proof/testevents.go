package proof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// An evidence file of kind api-trace holds go test -json events (with Time
// and Elapsed dropped). The verifier reads them again rather than trusting
// that the file came from TestEvidence: a criterion is proven only when the
// events themselves show its tests passing.

// maxEvidenceRead caps the bytes of one evidence file kept in memory to
// read its events; TestEvidence never writes more than this.
const maxEvidenceRead = maxTestEvidenceBytes

// eventTally is what one evidence file's events say about each top-level
// test, by package import path and test name.
type eventTally struct {
	ran    map[testKey]bool
	passed map[testKey]bool
	failed map[testKey]bool
	// pkgFailed lists packages with a package-level fail or build failure.
	pkgFailed map[string]bool
}

func newEventTally() *eventTally {
	return &eventTally{ran: map[testKey]bool{}, passed: map[testKey]bool{}, failed: map[testKey]bool{}, pkgFailed: map[string]bool{}}
}

// testActions are the actions go test -json (test2json and the go
// command's build events) writes. Any other action is refused rather than
// ignored: a "FAIL" or "crash" the reader skipped could hide a failure.
var testActions = map[string]bool{
	"start": true, "run": true, "pause": true, "cont": true, "pass": true, "bench": true,
	"fail": true, "output": true, "skip": true, "build-output": true, "build-fail": true,
	"attr": true, "artifacts": true,
}

// read adds the events of one evidence file to t. It returns why the file
// is not go test -json events, or "": every non-empty line must be one JSON
// object with no key repeated (encoding/json would keep the last, so
// {"Action":"fail","Action":"pass"} would read as a pass), a non-empty
// string Action go test writes, and string Package and Test when present;
// a test's pass must follow its own run in the same package, as go test
// always writes them; and the file must hold at least one event.
func (t *eventTally) read(data []byte) string {
	n := 0
	started := map[testKey]bool{} // every test name, subtests too, that has a run event so far
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		where := fmt.Sprintf("line %d", i+1)
		if derr := scanJSON(line, where, -1); derr != nil {
			return strings.TrimSuffix(derr.Msg, ".")
		}
		if why := eventKeyMisspelt(line); why != "" {
			return fmt.Sprintf("line %d %s", i+1, why)
		}
		var ev struct {
			Action, Package, Test, FailedBuild *string
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		if err := dec.Decode(&ev); err != nil || dec.More() {
			return fmt.Sprintf("line %d is not a JSON test event", i+1)
		}
		if ev.Action == nil || *ev.Action == "" {
			return fmt.Sprintf("line %d has no Action, so it is not a go test -json event", i+1)
		}
		if !testActions[*ev.Action] {
			return fmt.Sprintf("line %d has the action %q, which go test -json never writes", i+1, clipText(*ev.Action))
		}
		n++
		pkg, test := deref(ev.Package), deref(ev.Test)
		top, _, _ := strings.Cut(test, "/")
		if test != "" {
			switch *ev.Action {
			case "run":
				started[testKey{pkg, test}] = true
			case "pass":
				if !started[testKey{pkg, test}] {
					return fmt.Sprintf("line %d records a pass for %s in %s with no run of it before; go test writes run first", i+1, clipText(test), clipText(pkg))
				}
			}
		}
		switch action := *ev.Action; {
		case action == "build-fail" || deref(ev.FailedBuild) != "":
			t.pkgFailed[pkg] = true
		case action == "fail" && test == "":
			t.pkgFailed[pkg] = true
		case action == "fail":
			t.failed[testKey{pkg, top}] = true
		case action == "run" && test == top && test != "":
			t.ran[testKey{pkg, top}] = true
		case action == "pass" && test == top && test != "":
			t.passed[testKey{pkg, top}] = true
		}
	}
	if n == 0 {
		return "it holds no go test -json event"
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// failures names every test or package the events record as failing, in a
// stable order.
func (t *eventTally) failures() []string {
	var out []string
	for k := range t.failed {
		out = append(out, k.test+" in "+k.importPath)
	}
	for p := range t.pkgFailed {
		out = append(out, "package "+p)
	}
	sort.Strings(out)
	return out
}

// passes reports whether a mapped test has a run and a pass event, as
// TestEvidence keeps for every test it counts. With no module
// path the package is matched by its path inside the module: the event's
// import path must end in "/"+Package (or be it); "." then matches the
// test name in any package.
func (t *eventTally) passes(ref TestRef, modulePath string) bool {
	if modulePath != "" {
		k := testKey{ref.importPath(modulePath), ref.Test}
		return t.ran[k] && t.passed[k]
	}
	for k := range t.passed {
		if k.test != ref.Test || !t.ran[k] {
			continue
		}
		if ref.Package == "." || k.importPath == ref.Package || strings.HasSuffix(k.importPath, "/"+ref.Package) {
			return true
		}
	}
	return false
}

// anyPass reports whether any top-level test passed.
func (t *eventTally) anyPass() bool { return len(t.passed) > 0 }

// passedCount is how many distinct top-level tests ran and passed with no
// fail recorded for them.
func (t *eventTally) passedCount() int {
	n := 0
	for k := range t.passed {
		if t.ran[k] && !t.failed[k] {
			n++
		}
	}
	return n
}

// eventFields are the keys of a test event that decide what it says.
var eventFields = [...]string{"Action", "Package", "Test", "FailedBuild"}

// eventKeyMisspelt says why line, one well-formed JSON object, cannot be
// read as one event (misspeltEventKey); "" when it can.
func eventKeyMisspelt(line []byte) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return ""
	}
	return misspeltEventKey(fields)
}

// misspeltEventKey is the one rule on an event's keys: none may be one of
// eventFields in another case. encoding/json matches keys
// case-insensitively, the last one winning, so {"Action":"pass",
// "AcTion":"fail"} reads as a fail through a struct and as a pass through
// a map; go test writes each key exactly, so such a line is refused rather
// than read one way by the builder and another by the verifier. "" when
// every key is spelt as go test spells it.
func misspeltEventKey(fields map[string]json.RawMessage) string {
	for k := range fields {
		for _, f := range eventFields {
			if k != f && strings.EqualFold(k, f) {
				return fmt.Sprintf("spells the key %q, which go test -json writes as %q", clipText(k), f)
			}
		}
	}
	return ""
}
