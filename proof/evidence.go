package proof

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/config"
	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/rawbytes"
	"github.com/knadh/koanf/v2"
)

// The evidence map, .aayudha/evidence/STORY.toml, says which tests prove
// which Ready criterion. The builder chooses the tests; TestEvidence then
// keeps only what those tests did in one go test -json run.

// MaxEvidenceMapBytes caps the evidence map; a real one is under a kilobyte.
const MaxEvidenceMapBytes = 1 << 20

// TestRef names one top-level test: Package is the directory relative to
// the module root ("." for the root package), as in
// "examples/benefits-qa/answer:TestAnswerCitesPassage".
type TestRef struct {
	Package string
	Test    string
}

func (r TestRef) String() string { return r.Package + ":" + r.Test }

// importPath is the package's full import path under modulePath.
func (r TestRef) importPath(modulePath string) string {
	modulePath = strings.TrimSuffix(modulePath, "/")
	if r.Package == "." {
		return modulePath
	}
	return modulePath + "/" + r.Package
}

// ModulePathOf reads the module line of go.mod; "" when it has none.
func ModulePathOf(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// MappedCriterion is one [[criterion]] table of the evidence map.
type MappedCriterion struct {
	ID    int
	Tests []TestRef
	// Screenshot, when set, is the URL path of the app ([verify] app) the
	// web floor opens for this criterion and captures as screens/ID.png;
	// Element, when set, is a CSS selector that must be on that page.
	Screenshot string
	Element    string
	// Transcript asks for a screen-reader transcript of the screenshot's
	// page, read from its accessibility tree (sr-transcript = true).
	Transcript bool
	// Recording asks for a recording of the screenshot's page from the
	// moment it is opened until the element is found and the page
	// captured (recording = true), kept as recordings/ID.webm.
	Recording bool
}

// EvidenceMap is the parsed evidence map, in file order.
type EvidenceMap []MappedCriterion

// A top-level test name as go test runs it: Test, Example or Fuzz, then
// nothing or a character that is not a lower-case letter.
var evidenceTestName = lazyre.New(`^(?:Test|Example|Fuzz)(?:[^\p{Ll}/\s:][^/\s:]*)?$`)

// ParseTestRef reads "pkg/path:TestName". It refuses rather than repairs: an
// unclean or absolute package path, a missing test name or a subtest.
func ParseTestRef(s string) (TestRef, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return TestRef{}, fmt.Errorf("test %q is not of the form \"pkg/path:TestName\"", clipText(s))
	}
	ref := TestRef{Package: s[:i], Test: s[i+1:]}
	switch p := ref.Package; {
	case p == "":
		return TestRef{}, fmt.Errorf("test %q names no package; write \".\" for the module root", clipText(s))
	case p == ".":
	case strings.ContainsAny(p, "\\: \t\n\r"):
		return TestRef{}, fmt.Errorf("test %q: package path %q may not hold a backslash, colon or space", clipText(s), clipText(p))
	case strings.HasPrefix(p, "/"):
		return TestRef{}, fmt.Errorf("test %q: package path %q must be relative to the module root", clipText(s), clipText(p))
	case path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "./"):
		return TestRef{}, fmt.Errorf("test %q: package path %q is not clean (it should read %q inside the module)", clipText(s), clipText(p), clipText(path.Clean(p)))
	}
	if !evidenceTestName().MatchString(ref.Test) {
		return TestRef{}, fmt.Errorf("test %q: %q is not a top-level Go test name such as TestAnswerCitesPassage", clipText(s), clipText(ref.Test))
	}
	return ref, nil
}

// LoadEvidenceMap reads .aayudha/evidence/STORY.toml:
//
//	[[criterion]]
//	id = 1
//	tests = ["examples/benefits-qa/answer:TestAnswerCitesPassage"]
//
// It refuses unknown keys (a typo would silently drop evidence), duplicate
// or non-positive ids, empty test lists and malformed test names.
func LoadEvidenceMap(b []byte) (EvidenceMap, error) {
	if len(b) > MaxEvidenceMapBytes {
		return nil, fmt.Errorf("evidence map is %d bytes, more than the %d-byte limit", len(b), MaxEvidenceMapBytes)
	}
	if err := config.CheckTOML(b); err != nil { // agent-written: nesting costs memory before any key is checked
		return nil, fmt.Errorf("evidence map refused: %w", err)
	}
	k := koanf.New(".")
	if err := k.Load(rawbytes.Provider(b), toml.Parser()); err != nil {
		return nil, fmt.Errorf("evidence map is not valid TOML: %w", err)
	}
	raw := k.Raw()
	for key := range raw {
		if key != "criterion" {
			return nil, fmt.Errorf("evidence map has an unknown key %q; it holds only [[criterion]] tables", clipText(key))
		}
	}
	tables, ok := raw["criterion"].([]any)
	if !ok {
		if _, present := raw["criterion"]; present {
			return nil, fmt.Errorf("evidence map's criterion must be written as [[criterion]] tables")
		}
		return nil, fmt.Errorf("evidence map names no criterion; add a [[criterion]] table with id and tests")
	}
	var m EvidenceMap
	seen := map[int]bool{}
	for i, t := range tables {
		c, err := evidenceCriterion(i+1, t)
		if err != nil {
			return nil, err
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("evidence map lists criterion %d twice", c.ID)
		}
		seen[c.ID] = true
		m = append(m, c)
	}
	return m, nil
}

// evidenceCriterion reads the nth [[criterion]] table.
func evidenceCriterion(n int, t any) (MappedCriterion, error) {
	table, ok := t.(map[string]any)
	if !ok {
		return MappedCriterion{}, fmt.Errorf("evidence map: [[criterion]] table %d is not a table", n)
	}
	keys := make([]string, 0, len(table))
	for key := range table {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if !slices.Contains(CriterionKeys, key) {
			return MappedCriterion{}, fmt.Errorf("evidence map: [[criterion]] table %d has an unknown key %q (only %s)", n, clipText(key), strings.Join(CriterionKeys, ", "))
		}
	}
	id, ok := table["id"].(int64)
	if !ok || id <= 0 || id > 1<<20 {
		return MappedCriterion{}, fmt.Errorf("evidence map: [[criterion]] table %d needs id, a positive whole number", n)
	}
	list, ok := table["tests"].([]any)
	if !ok || len(list) == 0 {
		return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d needs tests, a non-empty list of \"pkg/path:TestName\"", id)
	}
	c := MappedCriterion{ID: int(id)}
	seen := map[TestRef]bool{}
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d lists a test that is not a string", id)
		}
		ref, err := ParseTestRef(s)
		if err != nil {
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d: %w", id, err)
		}
		if seen[ref] {
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d lists %s twice", id, ref)
		}
		seen[ref] = true
		c.Tests = append(c.Tests, ref)
	}
	return webCriterion(c, table)
}

// TestsEventsPath is the artifact holding the run and outcome events of
// every top-level test of the run (RunEvents), from which verification
// recounts the tests floor.
const TestsEventsPath = "evidence/tests.jsonl"

// RunEvents keeps, from one go test -json stream, the run, pass, fail and
// skip events of every top-level test, re-encoded as TestEvidence's lines
// are (no Time, Elapsed or Output), so the tests floor's count can be
// recounted from the pack's bytes. Each test's events stay in stream order,
// the tests sorted by package and name, so parallel tests finishing in
// another order still give the same bytes. Lines TestEvidence would refuse
// are left out; it reports them.
func RunEvents(events io.Reader) []byte {
	byTest := map[testKey][][]byte{}
	size := 0
	r := bufio.NewReaderSize(events, 64<<10)
	for {
		line, tooLong, err := readCappedLine(r, maxTestEventLine)
		if !tooLong && len(bytes.TrimSpace(line)) > 0 {
			var fields map[string]json.RawMessage
			var ev struct{ Action, Package, Test string }
			if json.Unmarshal(line, &fields) == nil && json.Unmarshal(line, &ev) == nil && scanJSON(line, "it", -1) == nil && misspeltEventKey(fields) == "" &&
				ev.Test != "" && !strings.Contains(ev.Test, "/") {
				switch ev.Action {
				case "run", "pass", "fail", "skip":
					delete(fields, "Output")
					if c := canonicalTestEvent(fields); size+len(c) <= maxTestEvidenceBytes {
						k := testKey{ev.Package, ev.Test}
						byTest[k] = append(byTest[k], c)
						size += len(c)
					}
				}
			}
		}
		if err != nil {
			break
		}
	}
	keys := slices.SortedFunc(maps.Keys(byTest), func(a, b testKey) int {
		if c := strings.Compare(a.importPath, b.importPath); c != 0 {
			return c
		}
		return strings.Compare(a.test, b.test)
	})
	var b bytes.Buffer
	for _, k := range keys {
		for _, l := range byTest[k] {
			b.Write(l)
		}
	}
	return b.Bytes()
}

// EvidencePath is the artifact path of criterion id's test evidence.
func EvidencePath(id int) string { return fmt.Sprintf("evidence/criterion-%d.jsonl", id) }

// CriterionEvidence is the test evidence of one criterion, ready to be an
// artifact of kind api-trace at Path.
type CriterionEvidence struct {
	ID    int
	Path  string // evidence/criterion-N.jsonl
	Bytes []byte
}

// Caps on what TestEvidence reads and keeps. test2json splits long output,
// so a real event line is a few kilobytes; the caps only stop abuse.
const (
	maxTestEventLine     = 1 << 20
	maxTestEvidenceBytes = 64 << 20 // all kept events together
	maxStreamProblems    = 20       // malformed lines reported one by one
)

// testEventFieldRank orders the fields of an evidence line: the ones
// test2json writes, in its order, then any other in name order so nothing
// else the stream said is lost. Time and Elapsed (rank -1) are dropped so
// two identical runs give identical bytes.
func testEventFieldRank(name string) int {
	switch name {
	case "Time", "Elapsed":
		return -1
	case "Action":
		return 0
	case "Package":
		return 1
	case "ImportPath":
		return 2
	case "Test":
		return 3
	case "Output":
		return 4
	case "FailedBuild":
		return 5
	case "Key":
		return 6
	case "Value":
		return 7
	case "Path":
		return 8
	}
	return 9
}

// testKey identifies a top-level test by full import path and name.
type testKey struct{ importPath, test string }

// testOutcome is what the stream said about one mapped test.
type testOutcome struct {
	runs, passes, fails, skips int
	overflow                   bool
}

// keptEvent is one event line of a mapped test, in stream order.
type keptEvent struct {
	key  testKey
	line []byte
}

// TestEvidence reads one go test -json stream and gives each criterion of m
// its evidence only when every mapped test ran and passed in this stream.
// The evidence lines are the events of those tests and their subtests in
// stream order, re-encoded without Time and Elapsed. A criterion that gets
// nothing has a Problem naming each test that did not run, failed or was
// skipped. A malformed line is a Problem, never a panic; it cannot make a
// test pass, because a test passes only on its own "pass" event.
func TestEvidence(m EvidenceMap, modulePath string, events io.Reader) ([]CriterionEvidence, []Problem) {
	outcomes := map[testKey]*testOutcome{}
	for _, c := range m {
		for _, ref := range c.Tests {
			outcomes[testKey{ref.importPath(modulePath), ref.Test}] = &testOutcome{}
		}
	}
	scan := testStreamScan{outcomes: outcomes, seenPackages: map[string]bool{}, failedBuilds: map[string]bool{}}
	problems := scan.read(events)

	var evidence []CriterionEvidence
	for _, c := range m {
		var missing []Problem
		want := map[testKey]bool{}
		for _, ref := range c.Tests {
			key := testKey{ref.importPath(modulePath), ref.Test}
			want[key] = true
			if why := scan.whyNot(key); why != "" {
				missing = append(missing, Problem{
					Code:      CodeCriterionNoEvid,
					Criterion: c.ID,
					Path:      EvidencePath(c.ID),
					Message:   fmt.Sprintf("criterion %d gets no evidence: %s %s in this go test -json run.", c.ID, ref, why),
				})
			}
		}
		if len(missing) > 0 {
			problems = append(problems, missing...)
			continue
		}
		var b bytes.Buffer
		for _, e := range scan.kept {
			if want[e.key] {
				b.Write(e.line)
			}
		}
		evidence = append(evidence, CriterionEvidence{ID: c.ID, Path: EvidencePath(c.ID), Bytes: b.Bytes()})
	}
	return evidence, problems
}

// testStreamScan is the state of one pass over a go test -json stream.
type testStreamScan struct {
	outcomes     map[testKey]*testOutcome
	kept         []keptEvent
	keptBytes    int
	seenPackages map[string]bool
	failedBuilds map[string]bool
	malformed    int
}

// read consumes the stream and returns its problems.
func (s *testStreamScan) read(events io.Reader) []Problem {
	var problems []Problem
	note := func(lineNo int, why string) {
		s.malformed++
		if s.malformed <= maxStreamProblems {
			problems = append(problems, Problem{Code: CodeMalformed, Message: fmt.Sprintf("go test -json line %d %s; it was ignored.", lineNo, why)})
		}
	}
	r := bufio.NewReaderSize(events, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readCappedLine(r, maxTestEventLine)
		if tooLong {
			note(lineNo, fmt.Sprintf("is longer than %d bytes", maxTestEventLine))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if why := s.event(line); why != "" {
				note(lineNo, why)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			problems = append(problems, Problem{Code: CodeMalformed, Message: fmt.Sprintf("reading the go test -json stream stopped at line %d: %v.", lineNo, err)})
			break
		}
	}
	if s.malformed > maxStreamProblems {
		problems = append(problems, Problem{Code: CodeMalformed, Message: fmt.Sprintf("go test -json stream has %d malformed lines in all; only the first %d are listed.", s.malformed, maxStreamProblems)})
	}
	return problems
}

// event takes one line; it returns why the line is not a test event, or "".
func (s *testStreamScan) event(line []byte) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return "is not a JSON test event (" + clipText(err.Error()) + ")"
	}
	// A repeated key is refused: encoding/json keeps the last, so
	// {"Action":"fail","Action":"pass"} would read as a pass.
	if derr := scanJSON(line, "it", -1); derr != nil {
		return "is refused: " + strings.TrimSuffix(clipText(derr.Msg), ".")
	}
	if why := misspeltEventKey(fields); why != "" {
		return "is refused: it " + why
	}
	str := func(name string) (string, bool) {
		raw, ok := fields[name]
		if !ok {
			return "", true
		}
		var v string
		return v, json.Unmarshal(raw, &v) == nil
	}
	action, ok1 := str("Action")
	pkg, ok2 := str("Package")
	test, ok3 := str("Test")
	failedBuild, ok4 := str("FailedBuild")
	importPath, ok5 := str("ImportPath")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || action == "" {
		return "is JSON but not a test2json event (Action, Package and Test must be strings)"
	}
	if !testActions[action] {
		return fmt.Sprintf("has the action %q, which go test -json never writes", clipText(action))
	}
	if pkg != "" {
		s.seenPackages[pkg] = true
	}
	if failedBuild != "" || action == "build-fail" {
		s.failedBuilds[pkg] = true
		if p, _, _ := strings.Cut(importPath, " "); p != "" {
			s.failedBuilds[p] = true
		}
	}
	if test == "" {
		return ""
	}
	top, _, _ := strings.Cut(test, "/")
	key := testKey{pkg, top}
	out, mapped := s.outcomes[key]
	if !mapped {
		return ""
	}
	if test == top {
		switch action {
		case "run":
			out.runs++
		case "pass":
			out.passes++
		case "fail":
			out.fails++
		case "skip":
			out.skips++
		}
	}
	canonical := canonicalTestEvent(fields)
	if s.keptBytes+len(canonical) > maxTestEvidenceBytes {
		out.overflow = true
		return ""
	}
	s.keptBytes += len(canonical)
	s.kept = append(s.kept, keptEvent{key: key, line: canonical})
	return ""
}

// whyNot says why a mapped test does not count as evidence, or "" when it
// ran and passed every time it ran.
func (s *testStreamScan) whyNot(key testKey) string {
	out := s.outcomes[key]
	switch {
	case out.fails > 0:
		return "failed"
	case out.skips > 0:
		return "was skipped"
	case out.runs == 0 && s.failedBuilds[key.importPath]:
		return "did not run because its package " + key.importPath + " failed to build"
	case out.runs == 0 && !s.seenPackages[key.importPath]:
		return "did not run: its package " + key.importPath + " is not in the stream"
	case out.runs == 0:
		return "did not run (no such test in " + key.importPath + ")"
	case out.passes < out.runs:
		return "started but never finished (the test binary may have crashed or timed out)"
	case out.overflow:
		return fmt.Sprintf("printed more than the %d bytes of events evidence may hold", maxTestEvidenceBytes)
	}
	return ""
}

// canonicalTestEvent re-encodes an event without Time and Elapsed, fields in
// a fixed order, so identical runs give identical bytes. It ends in LF.
func canonicalTestEvent(fields map[string]json.RawMessage) []byte {
	names := make([]string, 0, len(fields))
	for name := range fields {
		if testEventFieldRank(name) >= 0 {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if r := testEventFieldRank(a) - testEventFieldRank(b); r != 0 {
			return r
		}
		return strings.Compare(a, b)
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(name) // a string always marshals
		b.Write(key)
		b.WriteByte(':')
		if err := json.Compact(&b, fields[name]); err != nil {
			b.WriteString("null") // unreachable: the value came from a successful Unmarshal
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// readCappedLine reads one line without its LF. A line longer than max is
// consumed and reported as tooLong rather than held in memory.
func readCappedLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+1 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		return bytes.TrimSuffix(buf, []byte("\n")), false, err
	}
}
