package gatecomment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof"
)

// TestBodyListsScannerFloors: the gate's comment lists each scanner floor
// with the other floors, its threshold the policy's 0, and names a
// govulncheck floor that does not hold with the vulnerability's ID and call
// path, neutralised like every detail.
func TestBodyListsScannerFloors(t *testing.T) {
	t.Parallel()
	report, err := os.ReadFile(filepath.Join("..", "..", "proof", "testdata", "scanners", "govulncheck-called.json"))
	if err != nil {
		t.Fatal(err)
	}
	scan, err := proof.ReadScannerReport(proof.ScannerGovulncheck, report)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleReport()
	r.Pack.Checks[1].Value, r.Pack.Checks[1].Threshold = num(0), num(0) // vet holds, so govulncheck alone does not
	detail := proof.ScannerWords(proof.ScannerGovulncheck, scan)
	r.Pack.Checks = append(r.Pack.Checks,
		proof.Check{Floor: proof.ScannerGovulncheck, Result: proof.ResultFail, Value: num(1), Threshold: num(0), Tool: "govulncheck", Version: "v1.9.0", Detail: detail},
		proof.Check{Floor: proof.ScannerStaticcheck, Result: proof.ResultPass, Value: num(0), Threshold: num(0), Tool: "staticcheck", Version: "v0.8.2", Detail: "0 findings | `x` <b>"})
	policy := proof.FloorPolicy{Required: []string{proof.ScannerGovulncheck, proof.ScannerStaticcheck}}
	r.FloorsHold, r.FailedFloors = proof.JudgeFloors(r.Pack.Checks, policy, proof.Measured{
		CoverageKnown: true, Covered: 1, Changed: 1,
		Scans: map[string]proof.ScanMeasure{proof.ScannerGovulncheck: {Known: true, Result: scan}, proof.ScannerStaticcheck: {Known: true}},
	})
	body := Body(r, BodyOptions{Marker: Marker, Floors: &policy})
	for _, want := range []string{
		"| govulncheck | **fail** | 1 | 0 | govulncheck v1.9.0 | 1 reachable vulnerability: GO-2026-0001 called through example.com/app.main \\(main.go:5\\) → example.com/vulnlib.Parse \\(lib.go:4\\) |",
		"| staticcheck | pass | 0 | 0 | staticcheck v0.8.2 | 0 findings \\| ",
		"Floors that do not hold: govulncheck.",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<b>") {
		t.Errorf("a scanner's detail reached the comment as markup:\n%s", body)
	}
}
