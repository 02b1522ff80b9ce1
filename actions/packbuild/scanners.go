package packbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// The scanner floors: each scanner the base branch's [verify] scanners
// names runs as its own program (never linked into aayu, whose every start
// would pay its packages' inits), at the version aayu pins, on the pull
// request's checkout; its JSON report goes into the pack as
// reports/NAME.json and its floor is the count proof.ReadScannerReport
// reads from those bytes, the same count verification recomputes.

// scannerTool is one scanner as aayu runs it.
type scannerTool struct {
	name, module, version string
	// pin is what `NAME -version` prints for the pinned version.
	pin string
}

// pinnedScanner is the scanner aayu runs for floor. The versions are the
// ones .ci/run installs.
func pinnedScanner(floor string) (scannerTool, bool) {
	switch floor {
	case proof.ScannerGovulncheck:
		return scannerTool{name: floor, module: "golang.org/x/vuln/cmd/govulncheck", version: "v1.9.0", pin: "govulncheck@v1.9.0"}, true
	case proof.ScannerStaticcheck:
		return scannerTool{name: floor, module: "honnef.co/go/tools/cmd/staticcheck", version: "v0.8.2", pin: "(0.8.2)"}, true
	}
	return scannerTool{}, false
}

func (s scannerTool) String() string { return s.name + " " + s.version }

// args are the scanner's arguments: JSON out, the whole module; db is
// govulncheck's database ("" is its own, https://vuln.go.dev).
func (s scannerTool) args(db string) []string {
	if s.name == proof.ScannerGovulncheck {
		a := []string{"-format", "json"}
		if db != "" {
			a = append(a, "-db", db)
		}
		return append(a, "./...")
	}
	return []string{"-f", "json", "./..."}
}

// needsNetwork says whether the scanner reads the network: govulncheck
// with a database that is not a file:// folder.
func (s scannerTool) needsNetwork(db string) bool {
	return s.name == proof.ScannerGovulncheck && !strings.HasPrefix(db, "file://")
}

// scanRun is what one scanner run said.
type scanRun struct {
	report  []byte // standard output: the JSON report
	exit    int
	stderr  string
	err     string // why the scanner did not run at all
	network string
}

// maxScanOutput caps a scanner's report kept in memory.
const maxScanOutput = 32 << 20

// scan runs one scanner in dir. Behind prefix (the network namespace)
// unless it needs the network, when it runs as it is and says so.
func (t Tools) scan(ctx context.Context, dir string, s scannerTool, db string, prefix []string, network string) scanRun {
	bin, err := t.scannerBin(ctx, s)
	if err != nil {
		return scanRun{err: err.Error(), network: network}
	}
	if s.needsNetwork(db) {
		prefix, network = nil, proof.NetworkNotIsolated
	}
	argv := append(append(append([]string{}, prefix...), bin), s.args(db)...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = t.goEnv()
	var out, errBuf bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &out, max: maxScanOutput}
	cmd.Stderr = &limitedBuffer{buf: &errBuf, max: 1 << 20}
	err = cmd.Run()
	r := scanRun{report: out.Bytes(), stderr: errBuf.String(), network: network}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.err = ctx.Err().Error()
	case errors.As(err, &exit):
		r.exit = exit.ExitCode()
	case err != nil:
		r.err = fmt.Sprintf("starting %s: %v", s, err)
	}
	return r
}

// scannerBin finds the pinned scanner: on PATH, in GOPATH/bin or in aayu's
// cache, each asked for its version; else it installs the pinned version
// into the cache with go install (through the Go module proxy, in a folder
// of its own, so nothing of the checkout takes part).
func (t Tools) scannerBin(ctx context.Context, s scannerTool) (string, error) {
	cache, err := t.scannerCache(s)
	if err != nil {
		return "", err
	}
	var candidates []string
	for _, dir := range filepath.SplitList(t.getenv("PATH")) {
		if dir != "" {
			candidates = append(candidates, filepath.Join(dir, s.name))
		}
	}
	gopath := exec.CommandContext(ctx, t.goBin(), "env", "GOPATH")
	gopath.Env = t.environ()
	if out, err := gopath.Output(); err == nil {
		for _, gp := range filepath.SplitList(strings.TrimSpace(string(out))) {
			candidates = append(candidates, filepath.Join(gp, "bin", s.name))
		}
	}
	candidates = append(candidates, filepath.Join(cache, s.name))
	for _, c := range candidates {
		if t.isPinned(ctx, c, s) {
			return c, nil
		}
	}
	cmd := exec.CommandContext(ctx, t.goBin(), "install", s.module+"@"+s.version)
	cmd.Dir = cache
	cmd.Env = append(t.installEnv(), "GOBIN="+cache)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s is not installed and go install %s@%s failed: %v%s", s, s.module, s.version, err, quoteStderr(out))
	}
	bin := filepath.Join(cache, s.name)
	if !t.isPinned(ctx, bin, s) {
		return "", fmt.Errorf("go install %s@%s did not give %s", s.module, s.version, s)
	}
	return bin, nil
}

// getenv reads one variable of the environment commands start from.
func (t Tools) getenv(key string) string {
	v := ""
	for _, kv := range t.environ() {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val // the last one wins, as for a process
		}
	}
	return v
}

// isPinned says whether bin is the pinned scanner.
func (t Tools) isPinned(ctx context.Context, bin string, s scannerTool) bool {
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		return false
	}
	cmd := exec.CommandContext(ctx, bin, "-version")
	cmd.Env = t.goEnv()
	out, err := cmd.Output()
	return err == nil && strings.Contains(string(out), s.pin)
}

// installEnv is go install's environment: the module proxy as the
// environment sets it (go's default when unset), no workspace, no flags.
func (t Tools) installEnv() []string {
	env := make([]string, 0, len(t.environ())+3)
	for _, kv := range t.environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOFLAGS", "GOWORK", "GOBIN":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOWORK=off")
}

// scannerCache is where aayu installs a pinned scanner it did not find:
// aayu's folder in the user's cache (XDG_CACHE_HOME, else ~/.cache), as
// the environment commands start from names it.
func (t Tools) scannerCache(s scannerTool) (string, error) {
	base := t.getenv("XDG_CACHE_HOME")
	if base == "" && t.getenv("HOME") != "" {
		base = filepath.Join(t.getenv("HOME"), ".cache")
	}
	if base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "aayu", "scanners", s.name+"@"+s.version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("a folder for %s: %w", s, err)
	}
	return dir, nil
}

// scannerCheck is a scanner's floor, judged from its report's bytes by
// proof.ReadScannerReport, the count verification recomputes. checkout is
// the folder whose paths the report names, dropped from the words.
func scannerCheck(floor string, run scanRun, checkout string) proof.Check {
	s, _ := pinnedScanner(floor)
	zero := proof.ScannerThreshold
	c := proof.Check{Floor: floor, Tool: s.name + " (" + s.module + ")", Version: s.version, Network: run.network, Threshold: &zero}
	if run.err != "" {
		c.Result, c.Detail = proof.ResultFail, s.name+" did not run: "+run.err
		return c
	}
	res, err := proof.ReadScannerReport(floor, run.report)
	switch {
	case err != nil && run.exit != 0:
		c.Result, c.Detail = proof.ResultFail, fmt.Sprintf("%s exited with status %d%s", s.name, run.exit, quoteStderr([]byte(run.stderr)))
		return c
	case err != nil:
		c.Result, c.Detail = proof.ResultFail, fmt.Sprintf("%s's report cannot be read: %v", s.name, err)
		return c
	case run.exit != 0 && res.Failing == 0:
		c.Result, c.Detail = proof.ResultFail, fmt.Sprintf("%s exited with status %d and reported nothing%s", s.name, run.exit, quoteStderr([]byte(run.stderr)))
		return c
	}
	n := float64(res.Failing)
	c.Value = &n
	c.Result = proof.ResultPass
	if n > proof.ScannerThreshold {
		c.Result = proof.ResultFail
	}
	c.Detail = proof.ScannerWords(floor, res)
	if checkout != "" {
		c.Detail = strings.ReplaceAll(c.Detail, checkout+string(os.PathSeparator), "")
	}
	return c
}

// scanners runs the scanners the settings name (or reads what the tests
// job recorded of them) and returns their checks; their reports become
// the pack's report artifacts.
func (r *runner) scanners(ctx context.Context) []proof.Check {
	var checks []proof.Check
	for _, floor := range r.set.scanners {
		s, _ := pinnedScanner(floor)
		r.start(floor, r.recorded(s.name+" "+strings.Join(s.args(r.set.vulndb), " ")))
		var run scanRun
		checkout := r.req.Dir
		if r.raw == nil {
			run = r.t.scan(ctx, r.req.Dir, s, r.set.vulndb, r.prefix, r.network)
		} else {
			run = r.raw.scan(floor)
			checkout = r.raw.m.Dir
		}
		c := scannerCheck(floor, run, checkout)
		if run.err == "" {
			// An empty report (staticcheck found nothing) is a report too:
			// verification recounts 0 from its hashed bytes.
			if r.scanReports == nil {
				r.scanReports = map[string][]byte{}
			}
			r.scanReports[proof.ScannerReportPath(floor)] = append([]byte{}, run.report...)
		}
		checks = append(checks, c)
		r.end(c.Result, c.Detail)
	}
	return checks
}

// rawScanFile is the raw-output file of a scanner's report.
func rawScanFile(floor string) string { return "scan-" + floor + ".json" }

// rawScan is what the tests job recorded of one scanner run.
type rawScan struct {
	Exit    int    `json:"exit"`
	Stderr  string `json:"stderr"`
	Error   string `json:"error,omitempty"`
	Network string `json:"network"`
}

// scan reads what the tests job recorded of floor's scanner.
func (o *rawOutputs) scan(floor string) scanRun {
	rec, ok := o.m.Scans[floor]
	if !ok {
		return scanRun{err: "the tests job recorded no run of it; the base branch names it in [verify] scanners, so the tests job runs it", network: o.m.Network}
	}
	if rec.Network != proof.NetworkIsolated && rec.Network != proof.NetworkNotIsolated {
		return scanRun{err: "the tests job's record of it names no network isolation aayu knows", network: proof.NetworkNotIsolated}
	}
	run := scanRun{exit: rec.Exit, stderr: rec.Stderr, err: rec.Error, network: rec.Network}
	if run.err != "" {
		return run
	}
	b, err := proof.ReadFileCapped(filepath.Join(o.dir, rawScanFile(floor)), maxScanOutput)
	if err != nil {
		run.err = fmt.Sprintf("its report in the raw outputs cannot be read: %v", err)
		return run
	}
	run.report = b
	return run
}

// rawScanners runs the scanners the base branch names, for the tests job,
// and records them in m and out.
func (t Tools) rawScanners(ctx context.Context, dir, out string, set settings, prefix []string, network string, emit func(Event), m *rawManifest) error {
	for _, floor := range set.scanners {
		s, _ := pinnedScanner(floor)
		emit(StepStarted{Step: floor, What: s.name + " " + strings.Join(s.args(set.vulndb), " ") + ", raw"})
		run := t.scan(ctx, dir, s, set.vulndb, prefix, network)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if m.Scans == nil {
			m.Scans = map[string]rawScan{}
		}
		m.Scans[floor] = rawScan{Exit: run.exit, Stderr: run.stderr, Error: run.err, Network: run.network}
		if run.err == "" {
			if err := os.WriteFile(filepath.Join(out, rawScanFile(floor)), run.report, 0o644); err != nil {
				return err
			}
		}
		emit(StepEnded{Step: floor, Result: proof.ResultPass, Detail: "recorded, judged when the pack is assembled"})
	}
	return nil
}
