package proof

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/model/untrusted"
)

// Scanner floors (seed 000: "every scanner adds its report"): each scanner
// the base branch's [verify] scanners names runs on the pull request's
// code, its report goes in the pack as a report artifact, and its floor is
// a count of findings that must be 0. Like coverage and tests, the count is
// recomputed here from the report's hashed bytes (measure), never taken on
// the check's word.
const (
	ScannerGovulncheck = "govulncheck"
	ScannerStaticcheck = "staticcheck"
)

// ScannerThreshold is the most findings a scanner floor allows. No setting
// loosens it: a repository that names a scanner wants none of its findings.
const ScannerThreshold = 0.0

// Scanners are the scanner floors aayu knows, in the order verify runs
// them; [verify] scanners may name only these.
func Scanners() []string { return []string{ScannerGovulncheck, ScannerStaticcheck} }

// IsScanner says whether floor is a scanner floor.
func IsScanner(floor string) bool { return slices.Contains(Scanners(), floor) }

// ScannerReportPath is the report artifact a scanner floor is recomputed
// from: the tool's own JSON output, byte for byte.
func ScannerReportPath(floor string) string { return "reports/" + floor + ".json" }

// maxScannerReport caps the report read; govulncheck's stream on a large
// module is a few megabytes.
const maxScannerReport = 32 << 20

// maxNamedFindings is how many findings a floor's words name.
const maxNamedFindings = 3

// ScanResult is what one scanner report says, counted by aayu.
type ScanResult struct {
	// Failing counts what fails the floor: the reachable vulnerabilities
	// (distinct IDs with a call path into a vulnerable symbol) for
	// govulncheck, every finding for staticcheck.
	Failing int
	// Named are the first few failing findings in words, neutralised.
	Named []string
	// Listed are govulncheck's vulnerabilities found only at module or
	// package level (required or imported, never called): shown, never
	// failing.
	Listed []string
}

// ReadScannerReport counts a scanner's report. A report aayu cannot read
// whole is an error, never a count of what it could read.
func ReadScannerReport(floor string, b []byte) (ScanResult, error) {
	if len(b) > maxScannerReport {
		return ScanResult{}, fmt.Errorf("it is %d bytes, more than the %d aayu reads", len(b), maxScannerReport)
	}
	switch floor {
	case ScannerGovulncheck:
		return readGovulncheck(b)
	case ScannerStaticcheck:
		return readStaticcheck(b)
	}
	return ScanResult{}, fmt.Errorf("%q is not a scanner aayu knows", clipText(floor))
}

// ScannerWords is a scanner floor's detail: the count and the findings
// named, then the ones only listed.
func ScannerWords(floor string, r ScanResult) string {
	var s string
	switch floor {
	case ScannerGovulncheck:
		s = fmt.Sprintf("%d reachable %s", r.Failing, plural(r.Failing, "vulnerability", "vulnerabilities"))
	default:
		s = fmt.Sprintf("%d %s", r.Failing, plural(r.Failing, "finding", "findings"))
	}
	if len(r.Named) > 0 {
		s += ": " + strings.Join(r.Named, "; ")
		if more := r.Failing - len(r.Named); more > 0 {
			s += fmt.Sprintf("; and %d more", more)
		}
	}
	if len(r.Listed) > 0 {
		s += fmt.Sprintf("; %d imported or required but never called (listed, not failing): %s", len(r.Listed), strings.Join(r.Listed, ", "))
	}
	return s
}

// govulnMessage is one message of govulncheck -json's stream
// (golang.org/x/vuln/internal/govulncheck, protocol v1.0.0). Only the
// fields aayu judges by are read.
type govulnMessage struct {
	Config *struct {
		ProtocolVersion string `json:"protocol_version"`
		ScannerName     string `json:"scanner_name"`
		ScanLevel       string `json:"scan_level"`
		ScanMode        string `json:"scan_mode"`
	} `json:"config"`
	Finding *struct {
		OSV   string        `json:"osv"`
		Trace []govulnFrame `json:"trace"`
	} `json:"finding"`
}

type govulnFrame struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Receiver string `json:"receiver"`
	Position *struct {
		Filename string `json:"filename"`
		Line     int    `json:"line"`
	} `json:"position"`
}

// readGovulncheck judges govulncheck's stream. A finding whose first frame
// names a function is reachable: govulncheck found a call path from the
// module's code to the vulnerable symbol (the frames run from that symbol
// to the entry point). A finding with no function is a module or package
// that is required or imported, never called. Only a symbol-level source
// scan can tell the two apart, so a report of any other level is refused.
func readGovulncheck(b []byte) (ScanResult, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	g := govulnTally{paths: map[string]string{}, seen: map[string]bool{}}
	for i := 1; ; i++ {
		var m govulnMessage
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return ScanResult{}, fmt.Errorf("message %d is not govulncheck JSON: %v", i, err)
		}
		if err := g.take(i, m); err != nil {
			return ScanResult{}, err
		}
	}
	if !g.configured {
		return ScanResult{}, errors.New("it has no config message, so what was scanned is not known")
	}
	return g.result(), nil
}

// govulnTally reads govulncheck's messages in order.
type govulnTally struct {
	configured bool
	paths      map[string]string // ID → call path of its first reachable finding
	reachable  []string          // IDs with a call path, in order
	ids        []string          // every ID found, in order
	seen       map[string]bool
}

func (g *govulnTally) take(i int, m govulnMessage) error {
	switch {
	case m.Config != nil:
		c := m.Config
		if c.ScannerName != "" && c.ScannerName != ScannerGovulncheck {
			return fmt.Errorf("it was written by %q, not govulncheck", clipText(c.ScannerName))
		}
		if c.ScanLevel != "symbol" || c.ScanMode != "source" {
			return fmt.Errorf("it is a %q scan at %q level; only a source scan at symbol level tells a called vulnerability from an imported one",
				clipText(c.ScanMode), clipText(c.ScanLevel))
		}
		g.configured = true
	case m.Finding != nil:
		if !g.configured {
			return errors.New("a finding comes before the scan's config message")
		}
		id := untrusted.RecordLine(m.Finding.OSV)
		if id == "" || len(m.Finding.Trace) == 0 {
			return fmt.Errorf("message %d is a finding with no vulnerability ID or no trace", i)
		}
		if !g.seen[id] {
			g.seen[id] = true
			g.ids = append(g.ids, id)
		}
		if _, known := g.paths[id]; !known && m.Finding.Trace[0].Function != "" {
			g.reachable = append(g.reachable, id)
			g.paths[id] = callPath(m.Finding.Trace)
		}
	}
	return nil
}

func (g *govulnTally) result() ScanResult {
	r := ScanResult{Failing: len(g.reachable)}
	for _, id := range g.reachable {
		if len(r.Named) < maxNamedFindings {
			r.Named = append(r.Named, id+" called through "+g.paths[id])
		}
	}
	for _, id := range g.ids {
		if _, called := g.paths[id]; !called {
			r.Listed = append(r.Listed, id)
		}
	}
	return r
}

// callPath reads a trace from the entry point to the vulnerable symbol.
func callPath(trace []govulnFrame) string {
	steps := make([]string, 0, len(trace))
	for i := len(trace) - 1; i >= 0; i-- {
		f := trace[i]
		sym := f.Package
		if f.Receiver != "" {
			sym += "." + strings.TrimPrefix(f.Receiver, "*")
		}
		if f.Function != "" {
			sym += "." + f.Function
		}
		if f.Position != nil && f.Position.Filename != "" && f.Position.Line > 0 {
			sym += " (" + f.Position.Filename + ":" + strconv.Itoa(f.Position.Line) + ")"
		}
		steps = append(steps, untrusted.RecordLine(sym))
	}
	return strings.Join(steps, " → ")
}

// staticcheckFinding is one line of staticcheck -f json.
type staticcheckFinding struct {
	Code     string `json:"code"`
	Location struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	} `json:"location"`
	Message string `json:"message"`
}

// readStaticcheck counts staticcheck -f json's lines, one finding each
// (a package that does not build is a finding too, code "compile").
func readStaticcheck(b []byte) (ScanResult, error) {
	var r ScanResult
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxScannerReport)
	for i := 1; sc.Scan(); i++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var f staticcheckFinding
		if err := json.Unmarshal(line, &f); err != nil || f.Code == "" {
			return ScanResult{}, fmt.Errorf("line %d is not a staticcheck -f json finding", i)
		}
		r.Failing++
		if len(r.Named) < maxNamedFindings {
			where := f.Location.File
			if f.Location.Line > 0 {
				where += ":" + strconv.Itoa(f.Location.Line)
			}
			r.Named = append(r.Named, untrusted.RecordLine(fmt.Sprintf("%s %s %s", f.Code, where, clipText(f.Message))))
		}
	}
	if err := sc.Err(); err != nil {
		return ScanResult{}, fmt.Errorf("it cannot be read: %v", err)
	}
	return r, nil
}

// scannerFault says what is wrong with a scanner check's numbers, judged
// against its report's bytes, or "".
func scannerFault(c Check, m Measured) string {
	var why []string
	switch {
	case c.Value == nil:
		why = append(why, "it has no value; a "+c.Floor+" floor without its count of findings does not hold")
	case !isCount(*c.Value):
		why = append(why, fmt.Sprintf("its value %s is not a count of findings", num(c.Value)))
	}
	if c.Threshold == nil {
		why = append(why, "it has no threshold; a "+c.Floor+" floor without one was not written by aayu verify")
	}
	s, ok := m.Scans[c.Floor]
	switch {
	case !ok || !s.Known:
		w := "the pack holds no " + c.Floor + " report (" + ScannerReportPath(c.Floor) + ") whose bytes were hashed here, so its count is not taken on its word"
		if ok && s.Why != "" {
			w = s.Why + ", so its count is not taken on its word"
		}
		why = append(why, w)
	case c.Value != nil && *c.Value != float64(s.Result.Failing):
		why = append(why, fmt.Sprintf("it claims %s but its report counts %s", num(c.Value), ScannerWords(c.Floor, s.Result)))
	case c.Result == ResultPass && float64(s.Result.Failing) > ScannerThreshold:
		why = append(why, "its report counts "+ScannerWords(c.Floor, s.Result))
	}
	return strings.Join(why, "; ")
}

// ScanMeasure is one scanner report as measure read it.
type ScanMeasure struct {
	// Known says the report was hashed here and read; Why says why not.
	Known  bool
	Why    string
	Result ScanResult
}

// measureScan reads one scanner report artifact the verifier hashed.
func (v *verifier) measureScan(a Artifact, floor string) ScanMeasure {
	data, ok := v.content[a.Path]
	switch {
	case !v.hashed[a.Path]:
		return ScanMeasure{Why: fmt.Sprintf("its %s report %s %s", floor, a.Path, whyNotHashed(a))}
	case !ok:
		return ScanMeasure{Why: fmt.Sprintf("its %s report %s is larger than aayu reads", floor, a.Path)}
	}
	r, err := ReadScannerReport(floor, data)
	if err != nil {
		return ScanMeasure{Why: fmt.Sprintf("its %s report %s cannot be read: %v", floor, a.Path, err)}
	}
	return ScanMeasure{Known: true, Result: r}
}

// scannerOfReport names the scanner whose report path p is, or "".
func scannerOfReport(p string) string {
	for _, s := range Scanners() {
		if p == ScannerReportPath(s) {
			return s
		}
	}
	return ""
}
