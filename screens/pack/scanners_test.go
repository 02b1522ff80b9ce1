package pack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// scannerDemo is the demo pack with the two scanner floors and their
// reports: staticcheck's empty (no finding) and govulncheck's the pinned
// tool's own report of a called vulnerable symbol, which the pack's
// govulncheck check claims is 0.
func scannerDemo(t *testing.T) Options {
	t.Helper()
	opts := demoCopy(t)
	vuln, err := os.ReadFile(filepath.Join("..", "..", "proof", "testdata", "scanners", "govulncheck-called.json"))
	if err != nil {
		t.Fatal(err)
	}
	reports := map[string][]byte{proof.ScannerReportPath(proof.ScannerGovulncheck): vuln, proof.ScannerReportPath(proof.ScannerStaticcheck): {}}
	for p, b := range reports {
		if err := os.WriteFile(filepath.Join(opts.Dir, "artifacts", filepath.FromSlash(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	editDemoPack(t, opts.Dir, func(p map[string]any) {
		for _, floor := range []string{proof.ScannerGovulncheck, proof.ScannerStaticcheck} {
			b := reports[proof.ScannerReportPath(floor)]
			sum := sha256.Sum256(b)
			p["artifacts"] = append(p["artifacts"].([]any), map[string]any{"path": proof.ScannerReportPath(floor), "kind": proof.KindReport,
				"sha256": hex.EncodeToString(sum[:]), "size": len(b), "store": proof.StoreGit})
			p["checks"] = append(p["checks"].([]any), map[string]any{"floor": floor, "result": proof.ResultPass, "value": 0, "threshold": 0,
				"tool": floor, "version": "pinned", "detail": "0 findings", "network": proof.NetworkIsolated})
		}
	})
	opts.RequiredFloors = []string{"tests", "coverage", "vet", proof.ScannerGovulncheck, proof.ScannerStaticcheck}
	return opts
}

// TestPackScreenShowsScannerFloors: the scanner floors are listed with the
// other floors, their reports with the artifacts, and a govulncheck check
// claiming 0 whose report counts a called vulnerability is shown not
// holding, naming the ID and the call path, on the full screen and in the
// plain twin.
func TestPackScreenShowsScannerFloors(t *testing.T) {
	opts := scannerDemo(t)
	var out bytes.Buffer
	m := New(context.Background(), tui.Common{Plain: true}, opts)
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	// The copy's temporary folder is named in the first line.
	tuitest.GoldenPlain(t, strings.ReplaceAll(out.String(), opts.Dir, "PACK"), code)
	for _, want := range []string{"check govulncheck: passed, value 0, threshold 0", "check staticcheck: passed, value 0, threshold 0",
		"floor govulncheck does not hold: ", "GO-2026-0001 called through example.com/app.main (main.go:5) → example.com/vulnlib.Parse (lib.go:4)",
		"artifact reports/govulncheck.json: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plain pack does not say %q", want)
		}
	}
	if code != tui.ExitFloor {
		t.Errorf("exit %d, want %d", code, tui.ExitFloor)
	}

	full := verified(t, tuitest.Common(120, 30), opts)
	full.Update(tuitest.Key("3"))
	found := false
	for i := 0; i < 8 && !found; i++ {
		found = strings.Contains(ansi.Strip(full.View().Content), "GO-2026-0001 called through")
		full.Update(tuitest.Key("down"))
	}
	if !found {
		t.Fatalf("no check's detail on the full screen names GO-2026-0001's call path:\n%s", ansi.Strip(full.View().Content))
	}
}
