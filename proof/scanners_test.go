package proof

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/config"
)

// The reports under testdata/scanners are the pinned tools' own output
// (govulncheck v1.9.0 with a file:// database naming GO-2026-0001 in
// example.com/vulnlib's Parse; staticcheck v0.8.2 on a file with four
// findings).

// TestReadScannerReport: each report is counted by its rule, and a report
// aayu cannot read whole is refused, never counted in part.
func TestReadScannerReport(t *testing.T) {
	t.Parallel()
	called := mustReadTestdata(t, "scanners/govulncheck-called.json")
	imported := mustReadTestdata(t, "scanners/govulncheck-imported.json")
	static := mustReadTestdata(t, "scanners/staticcheck.json")
	tests := []struct {
		name    string
		floor   string
		report  []byte
		failing int
		words   []string // in ScannerWords
		listed  int
		err     string
	}{
		{name: "a called vulnerable symbol fails, naming its ID and the call path", floor: ScannerGovulncheck, report: called, failing: 1,
			words: []string{"1 reachable vulnerability", "GO-2026-0001 called through example.com/app.main (main.go:5) → example.com/vulnlib.Parse (lib.go:4)"}},
		{name: "an imported but never called vulnerability is listed, not failing", floor: ScannerGovulncheck, report: imported, listed: 1,
			words: []string{"0 reachable vulnerabilities", "1 imported or required but never called (listed, not failing): GO-2026-0001"}},
		{name: "a govulncheck report of another scan level is refused", floor: ScannerGovulncheck,
			report: []byte(strings.Replace(string(called), `"scan_level": "symbol"`, `"scan_level": "package"`, 1)), err: "only a source scan at symbol level"},
		{name: "a govulncheck report with no config is refused", floor: ScannerGovulncheck,
			report: []byte(`{"finding":{"osv":"GO-2026-0001","trace":[{"module":"m"}]}}`), err: "before the scan's config"},
		{name: "an empty govulncheck report is refused", floor: ScannerGovulncheck, report: nil, err: "no config message"},
		{name: "a govulncheck report cut short is refused", floor: ScannerGovulncheck, report: called[:len(called)/2], err: "not govulncheck JSON"},
		{name: "a finding with no trace is refused", floor: ScannerGovulncheck,
			report: []byte(`{"config":{"scan_level":"symbol","scan_mode":"source"}}{"finding":{"osv":"GO-1"}}`), err: "no vulnerability ID or no trace"},
		{name: "every staticcheck finding fails, the first few named", floor: ScannerStaticcheck, report: static, failing: 4,
			words: []string{"4 findings", "U1000 /tmp/vt/app/bad.go:5 func f is unused", "S1003 /tmp/vt/app/bad.go:6", "and 1 more"}},
		{name: "an empty staticcheck report is no finding", floor: ScannerStaticcheck, report: []byte(""), words: []string{"0 findings"}},
		{name: "a staticcheck line that is not a finding is refused", floor: ScannerStaticcheck, report: append(append([]byte{}, static...), "oops\n"...), err: "line 5 is not a staticcheck"},
		{name: "a finding's text from the pull request is neutralised", floor: ScannerStaticcheck,
			report: []byte(`{"code":"SA1000","location":{"file":"a.go","line":1},"message":"bad \u001b]52;c;aGk=\u0007 regexp\nline two"}` + "\n"), failing: 1,
			words: []string{"SA1000 a.go:1 bad ^[]52;c;aGk=^G regexp⏎line two"}},
		{name: "an unknown scanner is refused", floor: "trivy", report: static, err: "not a scanner aayu knows"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadScannerReport(tc.floor, tc.report)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Failing != tc.failing || len(r.Listed) != tc.listed {
				t.Errorf("failing %d, listed %v; want %d and %d listed", r.Failing, r.Listed, tc.failing, tc.listed)
			}
			words := ScannerWords(tc.floor, r)
			for _, w := range tc.words {
				if !strings.Contains(words, w) {
					t.Errorf("words %q do not say %q", words, w)
				}
			}
			if strings.ContainsAny(words, "\x1b\x07\n") {
				t.Errorf("words carry a control character: %q", words)
			}
		})
	}
}

// scannerPack is the fixture pack with a govulncheck floor claiming value
// and the report report in reports/govulncheck.json.
func scannerPack(value float64, result string, report []byte) (*Pack, map[string][]byte) {
	files := fixtureFiles()
	files[ScannerReportPath(ScannerGovulncheck)] = report
	p := fixturePack(files)
	p.Artifacts = append(p.Artifacts, fixtureArtifact(ScannerReportPath(ScannerGovulncheck), KindReport, StoreGit, report))
	p.Checks = append(p.Checks, Check{Floor: ScannerGovulncheck, Result: result, Value: fnum(value), Threshold: fnum(0)})
	return p, files
}

// TestScannerFloorsRecomputedFromTheirReports: a scanner floor's count is
// the one its report's hashed bytes give, never the check's own; a pack
// claiming a passing number its report contradicts does not hold, and a
// report whose bytes were changed fails verification.
func TestScannerFloorsRecomputedFromTheirReports(t *testing.T) {
	t.Parallel()
	called := mustReadTestdata(t, "scanners/govulncheck-called.json")
	imported := mustReadTestdata(t, "scanners/govulncheck-imported.json")
	tests := []struct {
		name     string
		value    float64
		result   string
		report   []byte
		tamper   bool
		verifies bool
		holds    bool
		words    string // in the failed floor's detail
	}{
		{name: "a report with nothing reachable holds at 0", value: 0, result: ResultPass, report: imported, verifies: true, holds: true},
		{name: "a pack claiming 0 that its report counts 1 is refused", value: 0, result: ResultPass, report: called, verifies: true,
			words: "it claims 0 but its report counts 1 reachable vulnerability: GO-2026-0001 called through example.com/app.main"},
		{name: "a reachable vulnerability recorded as fail does not hold", value: 1, result: ResultFail, report: called, verifies: true},
		{name: "a pass claiming the report's count of 1 does not hold", value: 1, result: ResultPass, report: called, verifies: true,
			words: "does not meet the threshold 0"},
		{name: "tampered report bytes fail verification and the floor", value: 0, result: ResultPass, report: imported, tamper: true,
			words: "so its count is not taken on its word"},
		{name: "a report that cannot be read does not hold", value: 0, result: ResultPass, report: []byte("{}\n"), verifies: true,
			words: "cannot be read: it has no config message"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, files := scannerPack(tc.value, tc.result, tc.report)
			dir := writeFixtureDir(t, p, files)
			if tc.tamper {
				flipFileByte(t, dir+"/artifacts/"+ScannerReportPath(ScannerGovulncheck), 10)
			}
			opts := fixtureOptions()
			opts.RequiredFloors = append(append([]string{}, DefaultRequiredFloors...), ScannerGovulncheck)
			r, err := VerifyDir(context.Background(), dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verified() != tc.verifies {
				t.Fatalf("verified = %v, want %v:%s", r.Verified(), tc.verifies, describeProblems(r))
			}
			if tc.tamper && !sameCodes(problemCodes(r), []Code{CodeHashMismatch}) {
				t.Errorf("problems = %v, want the hash mismatch", problemCodes(r))
			}
			if r.FloorsHold != tc.holds {
				t.Fatalf("FloorsHold = %v, want %v (failed %v)", r.FloorsHold, tc.holds, r.FailedFloors)
			}
			if tc.holds {
				return
			}
			f := failedNamed(r.FailedFloors, ScannerGovulncheck)
			if f == nil {
				t.Fatalf("the govulncheck floor is not named among %v", r.FailedFloors)
			}
			if !strings.Contains(f.Detail, tc.words) {
				t.Errorf("detail %q does not say %q", f.Detail, tc.words)
			}
		})
	}
}

// TestScannersNamedInPolicyAreRequired: [verify] scanners makes each
// scanner a required floor, so a pack without it does not hold.
func TestScannersNamedInPolicyAreRequired(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(config.Sources{Repo: []byte("[verify]\nscanners = [\"govulncheck\", \"staticcheck\"]\n")})
	if err != nil {
		t.Fatal(err)
	}
	policy := FloorsFrom(cfg)
	for _, want := range []string{"tests", "coverage", "vet", ScannerGovulncheck, ScannerStaticcheck} {
		if !strings.Contains(strings.Join(policy.Required, " "), want) {
			t.Errorf("required %v lacks %s", policy.Required, want)
		}
	}
	holds, failed := JudgeFloors(goodChecks(), policy, goodMeasured())
	if holds || failedNamed(failed, ScannerStaticcheck) == nil || failedNamed(failed, ScannerStaticcheck).Result != ResultMissing {
		t.Errorf("a pack without the staticcheck floor held (%v): %v", holds, failed)
	}
	if th := policy.Threshold(ScannerGovulncheck); th == nil || *th != 0 {
		t.Errorf("the govulncheck threshold is %v, want 0", th)
	}
}

// FuzzReadScannerReport: whatever bytes a scanner report holds, reading it
// never panics, never counts below zero, and its words carry no control
// character to a terminal or a comment.
func FuzzReadScannerReport(f *testing.F) {
	for _, name := range []string{"govulncheck-called.json", "govulncheck-imported.json", "staticcheck.json"} {
		b := mustReadTestdata(f, "scanners/"+name)
		f.Add(strings.HasPrefix(name, "govulncheck"), b)
	}
	f.Add(false, []byte(`{"code":"X","message":"\u001b[2J\u202e"}`))
	f.Fuzz(func(t *testing.T, vuln bool, b []byte) {
		floor := ScannerStaticcheck
		if vuln {
			floor = ScannerGovulncheck
		}
		r, err := ReadScannerReport(floor, b)
		if err != nil {
			return
		}
		if r.Failing < 0 || len(r.Named) > r.Failing {
			t.Fatalf("counted %d failing with %d named", r.Failing, len(r.Named))
		}
		for _, c := range ScannerWords(floor, r) {
			if c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) {
				t.Fatalf("words carry %U: %q", c, ScannerWords(floor, r))
			}
		}
	})
}
