package proof

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseTestRef(t *testing.T) {
	tests := []struct {
		in    string
		want  TestRef
		words string // non-empty: refused, and the error says this
	}{
		{in: "examples/benefits-qa/answer:TestAnswerCitesPassage", want: TestRef{"examples/benefits-qa/answer", "TestAnswerCitesPassage"}},
		{in: ".:TestRoot", want: TestRef{".", "TestRoot"}},
		{in: "a:Test", want: TestRef{"a", "Test"}},
		{in: "a:Test_under", want: TestRef{"a", "Test_under"}},
		{in: "a:ExampleAnswer", want: TestRef{"a", "ExampleAnswer"}},
		{in: "a:FuzzParse", want: TestRef{"a", "FuzzParse"}},
		{in: "a/TestX", words: "not of the form"},
		{in: ":TestX", words: "names no package"},
		{in: "a:", words: "not a top-level Go test name"},
		{in: "a:Testlower", words: "not a top-level Go test name"},
		{in: "a:TestX/sub", words: "not a top-level Go test name"},
		{in: "a:helper", words: "not a top-level Go test name"},
		{in: "/abs/pkg:TestX", words: "relative to the module root"},
		{in: "a/../b:TestX", words: "not clean"},
		{in: "../a:TestX", words: "not clean"},
		{in: "./a:TestX", words: "not clean"},
		{in: "a//b:TestX", words: "not clean"},
		{in: "a/:TestX", words: "not clean"},
		{in: `a\b:TestX`, words: "backslash"},
		{in: "a b:TestX", words: "space"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseTestRef(tc.in)
			if tc.words != "" {
				if err == nil || !strings.Contains(err.Error(), tc.words) {
					t.Fatalf("ParseTestRef(%q) = %+v, %v; want an error saying %q", tc.in, got, err, tc.words)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseTestRef(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			if got.String() != tc.in {
				t.Errorf("String() = %q, want %q", got.String(), tc.in)
			}
		})
	}
}

func TestLoadEvidenceMap(t *testing.T) {
	story131 := `[[criterion]]
id = 1 # the dental question is answered from the dental-deductible passage
tests = ["examples/benefits-qa/answer:TestAnswerCitesPassage"]

[[criterion]]
id = 2 # refused before retrieval
tests = ["examples/benefits-qa/policy:TestScreenRefuses", "examples/benefits-qa/answer:TestRespondScreensFirst"]
`
	m, err := LoadEvidenceMap([]byte(story131))
	if err != nil {
		t.Fatalf("LoadEvidenceMap refused the seed's map: %v", err)
	}
	want := EvidenceMap{
		{ID: 1, Tests: []TestRef{{"examples/benefits-qa/answer", "TestAnswerCitesPassage"}}},
		{ID: 2, Tests: []TestRef{{"examples/benefits-qa/policy", "TestScreenRefuses"}, {"examples/benefits-qa/answer", "TestRespondScreensFirst"}}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %+v\nwant %+v", m, want)
	}

	refusals := []struct {
		name, toml, words string
	}{
		{"empty file", "", "names no criterion"},
		{"not TOML", "[[criterion]\nid = 1", "not valid TOML"},
		{"single table", "[criterion]\nid = 1\ntests = [\"a:TestX\"]\n", "[[criterion]] tables"},
		{"unknown top-level key", "story = 131\n[[criterion]]\nid = 1\ntests = [\"a:TestX\"]\n", `unknown key "story"`},
		{"typo in a table", "[[criterion]]\nid = 1\ntest = [\"a:TestX\"]\n", `unknown key "test"`},
		{"duplicate id", "[[criterion]]\nid = 1\ntests = [\"a:TestX\"]\n[[criterion]]\nid = 1\ntests = [\"a:TestY\"]\n", "lists criterion 1 twice"},
		{"missing id", "[[criterion]]\ntests = [\"a:TestX\"]\n", "needs id"},
		{"string id", "[[criterion]]\nid = \"1\"\ntests = [\"a:TestX\"]\n", "needs id"},
		{"zero id", "[[criterion]]\nid = 0\ntests = [\"a:TestX\"]\n", "needs id"},
		{"empty tests", "[[criterion]]\nid = 1\ntests = []\n", "criterion 1 needs tests"},
		{"missing tests", "[[criterion]]\nid = 1\n", "criterion 1 needs tests"},
		{"tests not a list", "[[criterion]]\nid = 1\ntests = \"a:TestX\"\n", "criterion 1 needs tests"},
		{"test not a string", "[[criterion]]\nid = 1\ntests = [1]\n", "not a string"},
		{"malformed ref", "[[criterion]]\nid = 1\ntests = [\"a/TestX\"]\n", "criterion 1: test \"a/TestX\" is not of the form"},
		{"same test twice", "[[criterion]]\nid = 1\ntests = [\"a:TestX\", \"a:TestX\"]\n", "lists a:TestX twice"},
		{"too large", "# " + strings.Repeat("x", MaxEvidenceMapBytes), "more than the"},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			m, err := LoadEvidenceMap([]byte(tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("LoadEvidenceMap = %+v, %v; want an error saying %q", m, err, tc.words)
			}
		})
	}
}

// The streams in testdata/evidence were captured with
// `go test -json -count=1 ./...` on a throwaway module example.com/qa
// (see testdata/evidence/README.md), twice, so Time, Elapsed and the
// interleaving of packages differ between them.
const evidenceModule = "example.com/qa"

func readStream(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "evidence", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func qaRef(pkg, test string) TestRef { return TestRef{"examples/benefits-qa/" + pkg, test} }

func TestTestEvidence(t *testing.T) {
	m := EvidenceMap{
		{ID: 1, Tests: []TestRef{qaRef("answer", "TestAnswerCitesPassage")}},
		{ID: 2, Tests: []TestRef{qaRef("answer", "TestRespondScreensFirst")}},                                      // with subtests
		{ID: 3, Tests: []TestRef{qaRef("answer", "TestAnswerCitesPassage"), qaRef("policy", "TestScreenRefuses")}}, // one fails
		{ID: 4, Tests: []TestRef{qaRef("policy", "TestScreenNeedsNetwork")}},                                       // skipped
		{ID: 5, Tests: []TestRef{qaRef("policy", "TestScreenCases")}},                                              // a subtest fails
		{ID: 6, Tests: []TestRef{qaRef("broken", "TestBroken")}},                                                   // package does not build
		{ID: 7, Tests: []TestRef{qaRef("answer", "TestNoSuchThing")}},                                              // never ran
		{ID: 8, Tests: []TestRef{qaRef("policy", "TestScreenAllowsPlanQuestions")}},                                // passes in a failing package
		{ID: 9, Tests: []TestRef{{"other/pkg", "TestX"}}},                                                          // package absent
	}
	run1 := readStream(t, "run1.jsonl")
	evidence, problems := TestEvidence(m, evidenceModule, bytes.NewReader(run1))

	got := map[int][]byte{}
	for _, e := range evidence {
		if e.Path != EvidencePath(e.ID) {
			t.Errorf("criterion %d evidence path %q", e.ID, e.Path)
		}
		got[e.ID] = e.Bytes
	}
	if ids := slices.Sorted(maps.Keys(got)); !reflect.DeepEqual(ids, []int{1, 2, 8}) {
		t.Fatalf("criteria with evidence %v, want [1 2 8]; problems: %v", ids, problems)
	}

	wantFirst := `{"Action":"run","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage"}`
	lines1 := strings.Split(strings.TrimSuffix(string(got[1]), "\n"), "\n")
	if len(lines1) != 5 || lines1[0] != wantFirst {
		t.Errorf("criterion 1 evidence has %d lines starting %q; want 5 starting %q", len(lines1), lines1[0], wantFirst)
	}
	if want := `{"Action":"output","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage","Output":"    answer_test.go:13: cited Plan A §4.2\n"}`; lines1[2] != want {
		t.Errorf("criterion 1 line 3 is\n%s\nwant\n%s", lines1[2], want)
	}
	lines2 := strings.Split(strings.TrimSuffix(string(got[2]), "\n"), "\n")
	subtests := 0
	for _, l := range lines2 {
		if strings.Contains(l, `"Test":"TestRespondScreensFirst/`) {
			subtests++
		}
	}
	if len(lines2) != 12 || subtests != 8 || !strings.HasPrefix(lines2[11], `{"Action":"pass",`) {
		t.Errorf("criterion 2 evidence: %d lines, %d of subtests, last %q; want 12, 8, the pass", len(lines2), subtests, lines2[len(lines2)-1])
	}
	for id, b := range got {
		if bytes.Contains(b, []byte(`"Time"`)) || bytes.Contains(b, []byte(`"Elapsed"`)) {
			t.Errorf("criterion %d evidence keeps Time or Elapsed", id)
		}
		if bytes.Contains(b, []byte("TestScreenRefuses")) || bytes.Contains(b, []byte(`"Test":""`)) {
			t.Errorf("criterion %d evidence holds events of another test", id)
		}
	}

	wantProblems := map[int]string{
		3: "criterion 3 gets no evidence: examples/benefits-qa/policy:TestScreenRefuses failed",
		4: "examples/benefits-qa/policy:TestScreenNeedsNetwork was skipped",
		5: "examples/benefits-qa/policy:TestScreenCases failed",
		6: "examples/benefits-qa/broken:TestBroken did not run because its package example.com/qa/examples/benefits-qa/broken failed to build",
		7: "examples/benefits-qa/answer:TestNoSuchThing did not run (no such test in example.com/qa/examples/benefits-qa/answer)",
		9: "other/pkg:TestX did not run: its package example.com/qa/other/pkg is not in the stream",
	}
	if len(problems) != len(wantProblems) {
		t.Errorf("%d problems, want %d: %v", len(problems), len(wantProblems), problems)
	}
	for _, p := range problems {
		words, ok := wantProblems[p.Criterion]
		if !ok || p.Code != CodeCriterionNoEvid || p.Path != EvidencePath(p.Criterion) || !strings.Contains(p.Message, words) {
			t.Errorf("problem %+v; want code %s saying %q", p, CodeCriterionNoEvid, words)
		}
	}

	t.Run("identical runs give identical bytes", func(t *testing.T) {
		run2 := readStream(t, "run2.jsonl")
		if bytes.Equal(run1, run2) {
			t.Fatal("the two captured runs are byte-identical; the test would prove nothing")
		}
		evidence2, problems2 := TestEvidence(m, evidenceModule, bytes.NewReader(run2))
		if len(evidence2) != len(evidence) || len(problems2) != len(problems) {
			t.Fatalf("run 2 gives %d evidence and %d problems, run 1 %d and %d", len(evidence2), len(problems2), len(evidence), len(problems))
		}
		for i := range evidence {
			h1, h2 := sha256.Sum256(evidence[i].Bytes), sha256.Sum256(evidence2[i].Bytes)
			if evidence2[i].ID != evidence[i].ID || h1 != h2 {
				t.Errorf("criterion %d: run 1 sha256 %x, run 2 criterion %d sha256 %x", evidence[i].ID, h1, evidence2[i].ID, h2)
			}
		}
	})
}

func TestTestEvidenceDamagedStreams(t *testing.T) {
	m := EvidenceMap{{ID: 1, Tests: []TestRef{qaRef("answer", "TestAnswerCitesPassage")}}}
	run1 := string(readStream(t, "run1.jsonl"))
	lines := strings.SplitAfter(run1, "\n")
	passLine := -1
	for i, l := range lines {
		if strings.Contains(l, `"Action":"pass"`) && strings.Contains(l, `"Test":"TestAnswerCitesPassage"`) {
			passLine = i
		}
	}
	if passLine < 0 {
		t.Fatal("run1.jsonl has no pass event for TestAnswerCitesPassage")
	}
	tests := []struct {
		name     string
		stream   string
		module   string
		evidence bool
		codes    []Code
		words    []string
	}{
		{"plain text mixed in", "FAIL something printed to stderr\n" + run1 + "not json\n", evidenceModule, true,
			[]Code{CodeMalformed, CodeMalformed}, []string{"line 1 is not a JSON test event", "line 60 is not a JSON test event"}},
		{"JSON that is not an event", `{"Action":7}` + "\n[1,2]\n" + run1, evidenceModule, true,
			[]Code{CodeMalformed, CodeMalformed}, []string{"line 1 is JSON but not a test2json event", "line 2 is not a JSON test event"}},
		{"overlong line", strings.Repeat("x", maxTestEventLine+10) + "\n" + run1, evidenceModule, true,
			[]Code{CodeMalformed}, []string{"line 1 is longer than"}},
		{"stream cut before the pass", strings.Join(lines[:passLine], ""), evidenceModule, false,
			[]Code{CodeCriterionNoEvid}, []string{"TestAnswerCitesPassage started but never finished"}},
		{"pass event damaged", strings.Join(lines[:passLine], "") + "{\"Action\":\"pa\n" + strings.Join(lines[passLine+1:], ""), evidenceModule, false,
			[]Code{CodeMalformed, CodeCriterionNoEvid}, []string{"is not a JSON test event", "never finished"}},
		{"another module", run1, "example.com/other", false,
			[]Code{CodeCriterionNoEvid}, []string{"package example.com/other/examples/benefits-qa/answer is not in the stream"}},
		{"empty stream", "", evidenceModule, false,
			[]Code{CodeCriterionNoEvid}, []string{"is not in the stream"}},
		{"too many bad lines", strings.Repeat("junk\n", maxStreamProblems+5) + run1, evidenceModule, true,
			nil, []string{"25 malformed lines in all"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evidence, problems := TestEvidence(m, tc.module, strings.NewReader(tc.stream))
			if got := len(evidence) == 1; got != tc.evidence {
				t.Fatalf("evidence given: %v, want %v; problems %v", got, tc.evidence, problems)
			}
			if tc.codes != nil {
				var codes []Code
				for _, p := range problems {
					codes = append(codes, p.Code)
				}
				if !reflect.DeepEqual(codes, tc.codes) {
					t.Errorf("problem codes %v, want %v: %v", codes, tc.codes, problems)
				}
			}
			all := ""
			for _, p := range problems {
				all += p.Message + "\n"
			}
			for _, w := range tc.words {
				if !strings.Contains(all, w) {
					t.Errorf("problems do not say %q:\n%s", w, all)
				}
			}
		})
	}
}

// FuzzTestEvidence checks that no stream makes TestEvidence panic and that
// evidence is only ever given for a test whose own pass event is in the
// stream.
func FuzzTestEvidence(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "evidence", "run1.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"Action":"run","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage"}` + "\n" +
		`{"Action":"pass","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage"}`))
	// Issue 24's refusals: a repeated key and an action go test never writes.
	f.Add([]byte(`{"Action":"run","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage"}` + "\n" +
		`{"Action":"fail","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage","Action":"pass"}`))
	f.Add([]byte(`{"Action":"run","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage"}` + "\n" +
		`{"Action":"passed","Package":"example.com/qa/examples/benefits-qa/answer","Test":"TestAnswerCitesPassage"}`))
	m := EvidenceMap{{ID: 1, Tests: []TestRef{qaRef("answer", "TestAnswerCitesPassage")}}}
	f.Fuzz(func(t *testing.T, stream []byte) {
		evidence, _ := TestEvidence(m, evidenceModule, bytes.NewReader(stream))
		if len(evidence) == 0 {
			return
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(evidence[0].Bytes, []byte("\n")), []byte("\n")) {
			var e struct{ Action, Package, Test string }
			if json.Unmarshal(line, &e) == nil && e.Action == "pass" && e.Test == "TestAnswerCitesPassage" &&
				e.Package == "example.com/qa/examples/benefits-qa/answer" {
				return
			}
		}
		t.Fatalf("evidence without the test's pass event:\n%s", evidence[0].Bytes)
	})
}

// greenEvents is a passing go test -json stream for example.com/m/api's TestA,
// with the package-level events go test writes around it.
const greenEvents = `{"Action":"start","Package":"example.com/m/api"}
{"Action":"run","Package":"example.com/m/api","Test":"TestA"}
{"Action":"output","Package":"example.com/m/api","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"example.com/m/api","Test":"TestA"}
{"Action":"output","Package":"example.com/m/api","Output":"PASS\n"}
{"Action":"pass","Package":"example.com/m/api"}
`

// TestEventsFailAPackageOnlyOnItsOwnFailEvent: a package's start, output
// and pass events are not failures; its fail event or a build failure is.
func TestEventsFailAPackageOnlyOnItsOwnFailEvent(t *testing.T) {
	for _, c := range []struct {
		name, events string
		want         []string
	}{
		{"green run", greenEvents, nil},
		{"package fail", greenEvents + `{"Action":"fail","Package":"example.com/m/api"}` + "\n", []string{"package example.com/m/api"}},
		{"build failure", `{"Action":"build-fail","Package":"example.com/m/api","ImportPath":"example.com/m/api"}` + "\n", []string{"package example.com/m/api"}},
	} {
		tl := newEventTally()
		if why := tl.read([]byte(c.events)); why != "" {
			t.Fatalf("%s: read refused the events: %s", c.name, why)
		}
		if got := tl.failures(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: failures = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEventsWithoutModulePathProveOnlyTheNamedTestInTheNamedPackage: with
// no module path, a mapped test is proven only by a pass of that test's own
// name, in a package whose import path is the mapped package or ends in
// "/" + it; "." names the test in any package.
func TestEventsWithoutModulePathProveOnlyTheNamedTestInTheNamedPackage(t *testing.T) {
	tl := newEventTally()
	if why := tl.read([]byte(greenEvents)); why != "" {
		t.Fatalf("read refused the events: %s", why)
	}
	for ref, want := range map[TestRef]bool{
		{Package: "api", Test: "TestA"}:               true,
		{Package: "example.com/m/api", Test: "TestA"}: true,
		{Package: ".", Test: "TestA"}:                 true,
		{Package: "api", Test: "TestB"}:               false,
		{Package: ".", Test: "TestB"}:                 false,
		{Package: "pi", Test: "TestA"}:                false,
		{Package: "other", Test: "TestA"}:             false,
	} {
		if got := tl.passes(ref, ""); got != want {
			t.Errorf("passes(%s) = %v, want %v", ref, got, want)
		}
	}
	// A pass with no run of the test before it is no go test stream: the
	// reader refuses it, so passes never meets a pass without its run.
	noRun := strings.Replace(greenEvents, `{"Action":"run","Package":"example.com/m/api","Test":"TestA"}`+"\n", "", 1)
	if why := newEventTally().read([]byte(noRun)); !strings.Contains(why, "records a pass for TestA in example.com/m/api with no run of it before") {
		t.Errorf("a pass with no run was read: %q", why)
	}
}
