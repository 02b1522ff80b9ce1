package proof

import (
	"context"
	"strings"
	"testing"
)

// Tests for the ways a pull request could make a pack say more than its
// bytes do (issue 24): each is named after the refusal it checks.

// TestStoreNoneNeverProves: an artifact marked store none keeps only its
// hash; bytes found beside it are checked, but a criterion that has only
// them is not proven.
func TestStoreNoneNeverProves(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	p.Artifacts[1].Store = StoreNone // criterion 2's events, bytes still in the folder
	dir := writeFixtureDir(t, p, files)
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verified() {
		t.Fatal("a pack whose criterion 2 cites only store-none events verified")
	}
	if r.Criteria[1].Proven {
		t.Errorf("criterion 2 proven by bytes the pack says it does not keep: %+v", r.Criteria[1])
	}
	if !strings.Contains(r.Criteria[1].Reason, "store none") {
		t.Errorf("criterion 2's reason %q does not say store none", r.Criteria[1].Reason)
	}
	if !r.Criteria[0].Proven {
		t.Errorf("criterion 1 (stored events) not proven: %+v", r.Criteria[0])
	}
}

// nfd is "é" as "e" plus a combining acute accent; nfc the precomposed one.
const (
	nfcE = "\u00e9"
	nfdE = "e\u0301"
)

// TestPathsDuplicateUnderNFC: two artifact paths that differ only in
// Unicode normalisation are one file on macOS and look the same on screen;
// both are refused, so neither can prove anything.
func TestPathsDuplicateUnderNFC(t *testing.T) {
	for _, tc := range []struct{ name, first, second string }{
		{"NFC and NFD", "reports/r" + nfcE + "sum" + nfcE + ".txt", "reports/r" + nfdE + "sum" + nfdE + ".txt"},
		{"NFD and upper-case NFC", "reports/r" + nfdE + "sum.txt", "reports/R\u00c9SUM.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := fixtureFiles()
			files[tc.first] = []byte("one\n")
			files[tc.second] = []byte("two\n")
			p := fixturePack(files)
			p.Artifacts = append(p.Artifacts,
				fixtureArtifact(tc.first, KindReport, StoreGit, files[tc.first]),
				fixtureArtifact(tc.second, KindReport, StoreGit, files[tc.second]))
			p.Criteria[1].Evidence = append(p.Criteria[1].Evidence, tc.first)
			dir := writeFixtureDir(t, p, files)
			r, err := VerifyDir(context.Background(), dir, fixtureOptions())
			if err != nil {
				t.Fatal(err)
			}
			if r.Verified() {
				t.Fatal("a pack with two spellings of one path verified")
			}
			var found bool
			for _, pr := range r.Problems {
				found = found || pr.Code == CodeDuplicatePath && strings.Contains(pr.Message, "Unicode normalisation")
			}
			if !found {
				t.Errorf("no duplicate-path problem naming normalisation:%s", describeProblems(r))
			}
			for _, a := range r.Artifacts {
				if (a.Artifact.Path == tc.first || a.Artifact.Path == tc.second) && a.Verdict != VerdictFailed {
					t.Errorf("%q: verdict %q; both spellings must be refused", a.Artifact.Path, a.Verdict)
				}
			}
		})
	}
}

// TestZipRefusesPathsDuplicateUnderNFC: a run artifact zip holding both
// spellings would unpack into one file on some systems.
func TestZipRefusesPathsDuplicateUnderNFC(t *testing.T) {
	z := buildZip(t, zipEntry{name: "artifacts/" + nfcE + ".txt", body: "x"}, zipEntry{name: "artifacts/" + nfdE + ".txt", body: "y"})
	_, err := extract(t, z, ZipCaps{})
	if err == nil || !strings.Contains(err.Error(), "Unicode normalisation") {
		t.Fatalf("extractZip = %v, want a refusal naming Unicode normalisation", err)
	}
}

// TestWriteRefusesPathsDuplicateUnderNFC: aayu never writes a pack it
// would then refuse.
func TestWriteRefusesPathsDuplicateUnderNFC(t *testing.T) {
	files := fixtureFiles()
	a, b := "reports/"+nfcE+".txt", "reports/"+nfdE+".txt"
	files[a], files[b] = []byte("one\n"), []byte("two\n")
	p := fixturePack(files)
	p.Artifacts = append(p.Artifacts, fixtureArtifact(a, KindReport, StoreGit, files[a]), fixtureArtifact(b, KindReport, StoreGit, files[b]))
	err := checkPackFiles(p, files)
	if err == nil || !strings.Contains(err.Error(), "Unicode normalisation") {
		t.Fatalf("checkPackFiles = %v, want a refusal naming Unicode normalisation", err)
	}
}

// TestEvidenceRefusesPassWithoutRun: go test always writes a test's run
// before its pass, in the same package; a pass with no run before it (or a
// run only in another package) is not go test's output, with or without an
// evidence map.
func TestEvidenceRefusesPassWithoutRun(t *testing.T) {
	for name, events := range map[string]string{
		"pass alone":                `{"Action":"pass","Package":"example.com/x","Test":"TestTwo"}`,
		"pass before its run":       `{"Action":"pass","Package":"example.com/x","Test":"TestTwo"}` + "\n" + `{"Action":"run","Package":"example.com/x","Test":"TestTwo"}`,
		"run in another package":    `{"Action":"run","Package":"example.com/y","Test":"TestTwo"}` + "\n" + `{"Action":"pass","Package":"example.com/x","Test":"TestTwo"}`,
		"subtest passed, never run": `{"Action":"run","Package":"example.com/x","Test":"TestTwo"}` + "\n" + `{"Action":"pass","Package":"example.com/x","Test":"TestTwo/sub"}` + "\n" + `{"Action":"pass","Package":"example.com/x","Test":"TestTwo"}`,
	} {
		t.Run(name, func(t *testing.T) {
			r := verifyEdited(t, fixtureOptions(), func(_ *Pack, files map[string][]byte) {
				files["evidence/criterion-2.jsonl"] = []byte(events + "\n")
			})
			if r.Verified() || r.Criteria[1].Proven || !hasCode(r, CodeEvidenceNotEvents) {
				t.Fatalf("criterion 2 proven by a pass with no run before it:%s", describeProblems(r))
			}
			if !strings.Contains(describeProblems(r), "no run of it before") {
				t.Errorf("the problem does not say the run is missing:%s", describeProblems(r))
			}
		})
	}
}

// TestEvidenceRefusesDuplicateKeys: encoding/json keeps a repeated key's
// last value, so {"Action":"fail","Action":"pass"} would read as a pass;
// like pack.json, an event line may name each key once.
func TestEvidenceRefusesDuplicateKeys(t *testing.T) {
	r := verifyEdited(t, fixtureMappedOptions(t), func(_ *Pack, files map[string][]byte) {
		files["evidence/criterion-1.jsonl"] = []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"fail","Package":"example.com/x","Test":"TestOne","Action":"pass"}` + "\n")
	})
	if r.Verified() || r.Criteria[0].Proven || !hasCode(r, CodeEvidenceNotEvents) {
		t.Fatalf("criterion 1 proven by a line that says fail and pass:%s", describeProblems(r))
	}
	if !strings.Contains(describeProblems(r), `repeats the key "Action"`) {
		t.Errorf("the problem does not name the repeated key:%s", describeProblems(r))
	}
}

// TestEvidenceRefusesAKeySpeltInAnotherCase: encoding/json matches keys
// case-insensitively, the last winning, so {"Action":"pass","AcTion":"fail"}
// reads as a fail here and as a pass to a reader matching keys exactly;
// go test spells each key one way, so the line is refused (found by
// FuzzTestEvidence).
func TestEvidenceRefusesAKeySpeltInAnotherCase(t *testing.T) {
	r := verifyEdited(t, fixtureMappedOptions(t), func(_ *Pack, files map[string][]byte) {
		files["evidence/criterion-1.jsonl"] = []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"pass","Package":"example.com/x","Test":"TestOne","AcTion":"fail"}` + "\n")
	})
	if r.Verified() || r.Criteria[0].Proven || !hasCode(r, CodeEvidenceNotEvents) {
		t.Fatalf("criterion 1 proven by a line that reads as pass one way and fail another:%s", describeProblems(r))
	}
	if !strings.Contains(describeProblems(r), `spells the key "AcTion"`) {
		t.Errorf("the problem does not name the key:%s", describeProblems(r))
	}
}

// TestEvidenceRefusesUnknownAction: an action go test never writes (a
// "FAIL" in capitals, a "crash") is refused, not skipped: skipping it could
// hide a failure.
func TestEvidenceRefusesUnknownAction(t *testing.T) {
	r := verifyEdited(t, fixtureMappedOptions(t), func(_ *Pack, files map[string][]byte) {
		files["evidence/criterion-1.jsonl"] = []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"FAIL","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n")
	})
	if r.Verified() || r.Criteria[0].Proven || !hasCode(r, CodeEvidenceNotEvents) {
		t.Fatalf("criterion 1 proven beside an unknown FAIL action:%s", describeProblems(r))
	}
	if !strings.Contains(describeProblems(r), `"FAIL"`) {
		t.Errorf("the problem does not name the action:%s", describeProblems(r))
	}
}

// TestTestEvidenceRefusesDuplicateKeysAndUnknownActions: the builder reads
// the go test -json stream as strictly as the verifier reads evidence, so
// it never writes evidence the verifier would refuse.
func TestTestEvidenceRefusesDuplicateKeysAndUnknownActions(t *testing.T) {
	const pkg = "example.com/qa/examples/benefits-qa/answer"
	m := EvidenceMap{{ID: 1, Tests: []TestRef{qaRef("answer", "TestAnswerCitesPassage")}}}
	for name, bad := range map[string]string{
		"repeated key":        `{"Action":"fail","Package":"` + pkg + `","Test":"TestAnswerCitesPassage","Action":"pass"}`,
		"unknown action":      `{"Action":"passed","Package":"` + pkg + `","Test":"TestAnswerCitesPassage"}`,
		"key in another case": `{"Action":"pass","Package":"` + pkg + `","Test":"TestAnswerCitesPassage","AcTion":"fail"}`,
	} {
		t.Run(name, func(t *testing.T) {
			stream := `{"Action":"run","Package":"` + pkg + `","Test":"TestAnswerCitesPassage"}` + "\n" + bad + "\n"
			evidence, problems := TestEvidence(m, evidenceModule, strings.NewReader(stream))
			if len(evidence) != 0 {
				t.Fatalf("evidence given for a test whose only outcome line is refused: %s", evidence[0].Bytes)
			}
			var malformed bool
			for _, p := range problems {
				malformed = malformed || p.Code == CodeMalformed
			}
			if !malformed {
				t.Errorf("no malformed-line problem: %+v", problems)
			}
		})
	}
}

// verifyFloors builds the fixture pack, lets edit change its checks and
// files (hashes recomputed, as a forger would), and verifies it under opts.
func verifyFloors(t *testing.T, opts Options, edit func(p *Pack, files map[string][]byte)) *Report {
	t.Helper()
	r := verifyEdited(t, opts, edit)
	if !r.Verified() {
		t.Fatalf("the edited pack does not verify, so its floors were never judged:%s", describeProblems(r))
	}
	return r
}

func checkOf(p *Pack, floor string) *Check {
	for i := range p.Checks {
		if p.Checks[i].Floor == floor {
			return &p.Checks[i]
		}
	}
	return nil
}

// assertFloorFails checks that floor does not hold and that its detail
// says words.
func assertFloorFails(t *testing.T, r *Report, floor, words string) {
	t.Helper()
	if r.FloorsHold {
		t.Fatalf("floors hold; want %s refused", floor)
	}
	c := failedNamed(r.FailedFloors, floor)
	if c == nil {
		t.Fatalf("failed floors %+v do not name %s", r.FailedFloors, floor)
	}
	if !strings.Contains(c.Detail, words) {
		t.Errorf("%s detail %q does not say %q", floor, c.Detail, words)
	}
}

func TestFloorHoldsWhenItsNumbersAreThePacksOwn(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(*Pack, map[string][]byte) {})
	if !r.FloorsHold {
		t.Fatalf("the sound fixture's floors do not hold: %+v", r.FailedFloors)
	}
}

func TestFloorRefusesCoverageWithoutThreshold(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "coverage").Threshold = nil })
	assertFloorFails(t, r, "coverage", "no threshold")
}

func TestFloorRefusesCoverageWithoutValue(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "coverage").Value = nil })
	assertFloorFails(t, r, "coverage", "no value")
}

// TestFloorRefusesThresholdThePackLoosened: the pack's own threshold is
// never the one judged by; the base branch's is.
func TestFloorRefusesThresholdThePackLoosened(t *testing.T) {
	for _, thr := range []float64{0, -5} {
		r := verifyFloors(t, fixtureOptions(), func(p *Pack, files map[string][]byte) {
			files[CoverageReportPath] = []byte("x.go: 1 of 10 changed executable lines covered\n")
			c := checkOf(p, "coverage")
			c.Value, c.Threshold = fnum(10), fnum(thr)
		})
		assertFloorFails(t, r, "coverage", "does not meet the threshold 90")
	}
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "coverage").Threshold = fnum(-5) })
	assertFloorFails(t, r, "coverage", "not a percentage")
}

// TestFloorJudgesByTheBasePolicy: the threshold comes from the base
// branch's [verify] coverage_threshold, whatever the pack says.
func TestFloorJudgesByTheBasePolicy(t *testing.T) {
	edit := func(p *Pack, files map[string][]byte) {
		files[CoverageReportPath] = []byte("x.go: 23 of 25 changed executable lines covered\n") // 92
		checkOf(p, "coverage").Value = fnum(92)
	}
	opts := fixtureOptions()
	opts.CoverageThreshold = CoverageThresholdSetting("95")
	assertFloorFails(t, verifyFloors(t, opts, edit), "coverage", "does not meet the threshold 95")
	opts.CoverageThreshold = CoverageThresholdSetting("80")
	if r := verifyFloors(t, opts, func(p *Pack, files map[string][]byte) {
		edit(p, files)
		checkOf(p, "coverage").Threshold = fnum(99) // built under a stricter policy: shown, not used
	}); !r.FloorsHold {
		t.Errorf("92 against the base's 80 does not hold: %+v", r.FailedFloors)
	}
}

func TestFloorRefusesVetThresholdOfHundred(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) {
		c := checkOf(p, "vet")
		c.Value, c.Threshold = fnum(5), fnum(100)
	})
	assertFloorFails(t, r, "vet", "5 does not meet the threshold 0")
}

func TestFloorRefusesVetWithoutValue(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "vet").Value = nil })
	assertFloorFails(t, r, "vet", "no value")
}

// TestFloorRefusesCoverageTheReportContradicts: "0 of 9 lines covered" in
// the pack's own report beside a claimed 100.
func TestFloorRefusesCoverageTheReportContradicts(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(_ *Pack, files map[string][]byte) {
		files[CoverageReportPath] = []byte("answer/answer.go: 0 of 5 changed lines covered\npolicy/policy.go: 0 of 4 changed lines covered\n")
	})
	assertFloorFails(t, r, "coverage", "counts 0 of 9 changed executable lines covered")
}

func TestFloorRefusesCoverageWithoutReport(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, files map[string][]byte) {
		delete(files, CoverageReportPath)
		p.Artifacts = append(p.Artifacts[:2], p.Artifacts[3:]...)
	})
	assertFloorFails(t, r, "coverage", "no coverage report")
	r = verifyFloors(t, fixtureOptions(), func(_ *Pack, files map[string][]byte) {
		files[CoverageReportPath] = []byte("all good, trust me\n")
	})
	assertFloorFails(t, r, "coverage", "cannot be read")
}

// TestFloorRefusesTestsCountTheEventsDoNotShow: a claimed 300 tests when
// the pack's events show 2.
func TestFloorRefusesTestsCountTheEventsDoNotShow(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "tests").Value = fnum(300) })
	assertFloorFails(t, r, "tests", "claims 300 tests passed, but the pack's test events show 2")
	r = verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "tests").Value = nil })
	assertFloorFails(t, r, "tests", "no value")
}

// TestFloorRefusesTestsCountBelowTheEvents: a tests check recorded with
// value 0 while the pack's own events show 2 tests passing is refused: the
// number is recomputed from the events whichever way it lies.
func TestFloorRefusesTestsCountBelowTheEvents(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "tests").Value = fnum(0) })
	assertFloorFails(t, r, "tests", "claims 0 tests passed, but the pack's test events show 2")
	r = verifyFloors(t, fixtureOptions(), func(p *Pack, _ map[string][]byte) { checkOf(p, "tests").Value = fnum(1) })
	assertFloorFails(t, r, "tests", "claims 1 test passed, but the pack's test events show 2")
}

// TestPackWarningsDecode: a pack may carry named warnings (schema 1 still),
// a warning is name and detail only, and a pack without any encodes as
// before, so every older pack keeps its bytes and its hash.
func TestPackWarningsDecode(t *testing.T) {
	raw := string(mustReadTestdata(t, "packs/story131.json"))
	with := strings.Replace(raw, `"created_at"`, `"warnings": [{"name": "test-framing", "detail": "TestMain in a/main_test.go (added)"}], "created_at"`, 1)
	p, err := Decode([]byte(with))
	if err != nil {
		t.Fatalf("a pack with a warning is refused: %v", err)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Name != WarningTestFraming {
		t.Errorf("warnings %+v", p.Warnings)
	}
	if _, err := Decode([]byte(strings.Replace(with, `"detail"`, `"level": "low", "detail"`, 1))); err == nil {
		t.Error("a warning with a key the schema does not know was accepted")
	}
	old, err := Decode([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(old)
	if err != nil || strings.Contains(string(out), "warnings") {
		t.Errorf("a pack without warnings encodes a warnings key (err %v)", err)
	}
}

// TestFloorRefusesTestsPassBesideAFail: the pack's events (a test-events
// file no criterion cites, as evidence/tests.jsonl) record a fail, yet the
// tests check claims every test passed.
func TestFloorRefusesTestsPassBesideAFail(t *testing.T) {
	r := verifyFloors(t, fixtureOptions(), func(p *Pack, files map[string][]byte) {
		files[TestsEventsPath] = []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"run","Package":"example.com/x","Test":"TestThree"}` + "\n" +
			`{"Action":"fail","Package":"example.com/x","Test":"TestThree"}` + "\n")
		p.Artifacts = append(p.Artifacts, fixtureArtifact(TestsEventsPath, KindAPITrace, StoreGit, files[TestsEventsPath]))
	})
	assertFloorFails(t, r, "tests", "record a fail for TestThree in example.com/x")
}
