package packbuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/proof"
)

// vendorVulnlib makes the checkout depend on the made-up
// example.com/vulnlib v1.0.0 (testdata/scanners/vulnlib), vendored so no
// module download is needed, and adds code that uses it. It also removes
// the demo's web app (package web, net/http): no scanner case's claim is
// about it, and govulncheck loads every package the module imports,
// standard library included, from source, so net/http's tree was two
// thirds of each govulncheck run (10.5 CPU-seconds, 3.6 without it), run
// five times here.
func vendorVulnlib(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, "web")); err != nil {
		t.Fatal(err)
	}
	lib, err := os.ReadFile(filepath.Join("testdata", "scanners", "vulnlib", "lib.go"))
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{
		"go.mod":                             "module example.com/benefits\n\ngo 1.22\n\nrequire example.com/vulnlib v1.0.0\n",
		"vendor/modules.txt":                 "# example.com/vulnlib v1.0.0\n## explicit; go 1.22\nexample.com/vulnlib\n",
		"vendor/example.com/vulnlib/lib.go":  string(lib),
		"vendor/example.com/vulnlib/LICENSE": "made up for aayu's tests\n",
	}
	for k, v := range files {
		all[k] = v
	}
	for name, text := range all {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitCommit(t, dir)
}

// fixtureVulnDB is the vendored vulnerability database as govulncheck's
// -db reads it: a file:// URL, no network.
func fixtureVulnDB(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", "scanners", "vulndb"))
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// needGo skips, loudly, only when go itself is missing: the scanners are
// found or installed at their pinned versions by the run under test.
func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIPPED LOUDLY: go is not on PATH, so no scanner can run; the scanner floors are untested here")
	}
}

const (
	callsParse   = "package deductible\n\nimport \"example.com/vulnlib\"\n\n// Normalize cleans a plan name.\nfunc Normalize(s string) string { return vulnlib.Parse(s) }\n"
	importsParse = "package deductible\n\nimport \"example.com/vulnlib\"\n\n// One is one.\nfunc One() int { return vulnlib.Safe() }\n"
	staticFinds  = "package deductible\n\nimport \"strings\"\n\n// HasX says whether s holds an x.\nfunc HasX(s string) bool { return strings.Index(s, \"x\") != -1 }\n"
)

// TestScannerFloors: each scanner [verify] scanners names runs on the
// pull request's code and adds its report and floor to the pack. A
// dependency whose vulnerable symbol is called fails the govulncheck floor
// naming the ID and the call path; one imported but never called passes
// with the ID listed; a staticcheck finding fails its floor naming it. The
// merge gate's split (RunRaw in the tests job, the pack built from its raw
// outputs) gives the same floor.
func TestScannerFloors(t *testing.T) {
	t.Parallel()
	needGo(t)
	db := fixtureVulnDB(t)
	type floorWant struct {
		floor  string
		result string
		value  float64
		words  []string
	}
	// The imported-but-never-called case and the staticcheck-finds-nothing
	// case read the same code (importsParse) with govulncheck in both, so
	// they are one run with both floors judged: the same govulncheck floor,
	// one pack, go test and go vet run and one govulncheck run fewer.
	tests := []struct {
		name     string
		scanners string
		file     string
		floors   []floorWant
		raw      bool
	}{
		{name: "a called vulnerable symbol fails the govulncheck floor naming it", scanners: `["govulncheck"]`, file: callsParse, raw: true,
			floors: []floorWant{{floor: proof.ScannerGovulncheck, result: proof.ResultFail, value: 1,
				words: []string{"1 reachable vulnerability: GO-2026-0001 called through example.com/benefits/deductible.Normalize (deductible/normalize.go:6) → example.com/vulnlib.Parse (lib.go:7)"}}}},
		{name: "an imported but never called vulnerability passes, listed; a module staticcheck finds nothing in passes, its empty report in the pack",
			scanners: `["govulncheck", "staticcheck"]`, file: importsParse, raw: true,
			floors: []floorWant{
				{floor: proof.ScannerGovulncheck, result: proof.ResultPass, value: 0,
					words: []string{"0 reachable vulnerabilities", "1 imported or required but never called (listed, not failing): GO-2026-0001"}},
				{floor: proof.ScannerStaticcheck, result: proof.ResultPass, value: 0, words: []string{"0 findings"}},
			}},
		{name: "a staticcheck finding fails its floor naming it", scanners: `["staticcheck"]`, file: staticFinds,
			floors: []floorWant{{floor: proof.ScannerStaticcheck, result: proof.ResultFail, value: 1,
				words: []string{"1 finding: S1003 deductible/normalize.go:6 should use strings.Contains"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDemo(t)
			req := d.request(t, 3, beforeBlock)
			vendorVulnlib(t, req.Dir, map[string]string{"deductible/normalize.go": tc.file})
			req.Config = config.Sources{Set: []string{"verify.scanners=" + tc.scanners, "verify.vulndb=" + db}}
			out, ev := run(t, req)
			if !out.Report.Verified() {
				t.Fatalf("the pack does not verify: %v", out.Report.Problems)
			}
			direct := map[string]proof.Check{}
			for _, want := range tc.floors {
				c := checkOf(t, out.Pack, want.floor)
				direct[want.floor] = c
				t.Logf("%s %s (%s): %s", want.floor, c.Result, c.Network, c.Detail)
				if c.Result != want.result || c.Value == nil || *c.Value != want.value || c.Threshold == nil || *c.Threshold != 0 {
					t.Fatalf("%s check %+v, want %s with %v", want.floor, c, want.result, want.value)
				}
				for _, w := range want.words {
					if !strings.Contains(c.Detail, w) {
						t.Errorf("detail %q does not say %q", c.Detail, w)
					}
				}
				if got := ev.ended()[want.floor]; got.Result != want.result {
					t.Errorf("the %s step ended %+v", want.floor, got)
				}
				// The report is in the pack, hashed, and the floor verification
				// recomputes from it agrees.
				report := readFile(t, filepath.Join(out.Dir, "artifacts", "reports", want.floor+".json"))
				if _, err := proof.ReadScannerReport(want.floor, report); err != nil {
					t.Errorf("the pack's %s report: %v", want.floor, err)
				}
				failed := false
				for _, f := range out.Report.FailedFloors {
					failed = failed || f.Floor == want.floor
				}
				if failed != (want.result == proof.ResultFail) || (want.result == proof.ResultFail && out.ExitCode == ExitOK) {
					t.Errorf("verification judged %s failed=%v (exit %d); want %v", want.floor, failed, out.ExitCode, want.result == proof.ResultFail)
				}
			}
			if !tc.raw {
				return
			}
			raw := filepath.Join(t.TempDir(), "raw")
			if err := RunRaw(context.Background(), Tools{}, RawRequest{Dir: req.Dir, Story: 3, BaseBranch: "dev", Out: raw, Config: req.Config}, nil); err != nil {
				t.Fatalf("RunRaw: %v", err)
			}
			req.FromRaw, req.PackOut = raw, filepath.Join(t.TempDir(), "pack")
			fromRaw, _ := run(t, req)
			for floor, c := range direct {
				if r := checkOf(t, fromRaw.Pack, floor); r.Result != c.Result || r.Detail != c.Detail {
					t.Errorf("from raw: %s %s %q; direct: %s %q", floor, r.Result, r.Detail, c.Result, c.Detail)
				}
			}
		})
	}
}

// TestScannerSettingsRefusals: [verify] scanners names only scanners aayu
// runs, and vulndb is a file:// folder or an https:// URL.
func TestScannerSettingsRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, set, words string
	}{
		{"an unknown scanner is refused", `verify.scanners=["trivy"]`, `verify.scanners names "trivy", which is not a scanner aayu runs (govulncheck, staticcheck)`},
		{"a vulndb that is no database URL is refused", `verify.vulndb=ftp://db`, `verify.vulndb "ftp://db" is neither a file:// folder nor an https:// URL`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := loadSettings(config.Sources{Set: []string{tc.set}}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("err = %v, want one saying %q", err, tc.words)
			}
		})
	}
}

// TestCIRunInstallsThePinnedScanners: .ci/run installs each scanner at
// the version verify pins, so the tests run what the gate runs.
func TestCIRunInstallsThePinnedScanners(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for _, floor := range proof.Scanners() {
		s, ok := pinnedScanner(floor)
		if !ok {
			t.Fatalf("no pinned scanner for %s", floor)
		}
		if want := s.module + "@" + s.version; !strings.Contains(string(script), want) {
			t.Errorf(".ci/run does not install %s", want)
		}
	}
}

// TestScannerOfAnotherVersionIsPassedOverAndThePinInstalled: a scanner on
// PATH that is not the pinned version is not run; the pinned one is
// installed into aayu's cache with go install (from the module cache here;
// on a clean machine through the Go module proxy) and found there next time.
func TestScannerOfAnotherVersionIsPassedOverAndThePinInstalled(t *testing.T) {
	t.Parallel()
	needGo(t)
	goBin, _ := exec.LookPath("go")
	tmp := t.TempDir()
	fakeDir := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(fakeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fakeDir, "govulncheck"), []byte("#!/bin/sh\necho 'Scanner: govulncheck@v1.0.0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "PATH", "HOME", "XDG_CACHE_HOME", "GOPATH", "GOBIN":
			continue
		}
		env = append(env, kv)
	}
	for _, k := range []string{"GOMODCACHE", "GOCACHE"} {
		out, err := exec.Command(goBin, "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	env = append(env, "PATH="+fakeDir+string(os.PathListSeparator)+filepath.Dir(goBin), "HOME="+filepath.Join(tmp, "home"),
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"), "GOPATH="+filepath.Join(tmp, "gopath"))
	tools := Tools{Go: goBin, Environ: env}
	s, _ := pinnedScanner(proof.ScannerGovulncheck)
	bin, err := tools.scannerBin(context.Background(), s)
	if err != nil {
		t.Fatalf("scannerBin: %v", err)
	}
	want := filepath.Join(tmp, "cache", "aayu", "scanners", "govulncheck@v1.9.0", "govulncheck")
	if bin != want {
		t.Fatalf("ran %s, want the pinned install %s (the one on PATH is v1.0.0)", bin, want)
	}
	if again, err := tools.scannerBin(context.Background(), s); err != nil || again != want {
		t.Errorf("the second time: %s, %v; want the cached %s", again, err, want)
	}
}
