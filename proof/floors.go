package proof

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// DefaultRequiredFloors are the floors aayu verify writes for every Go
// story, so a pack without one of them was not built by a full verify run.
// [verify] required_floors replaces the list; red-on-base is added there
// for a repository that wants it required.
var DefaultRequiredFloors = []string{"tests", "coverage", "vet"}

// DefaultCoverageThreshold is [verify] coverage_threshold's built-in
// default (SPEC §9), used when no base policy is given.
const DefaultCoverageThreshold = 90.0

// VetThreshold is the most go vet findings the vet floor allows. No setting
// loosens it, so a pack's own vet threshold is shown, never used.
const VetThreshold = 0.0

// RequiredFloorsSetting turns [verify] required_floors as read from config
// into Options.RequiredFloors: a list set empty requires nothing, which is
// not the nil that means the defaults.
func RequiredFloorsSetting(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// CoverageThresholdSetting turns [verify] coverage_threshold as read from
// config (Config.String) into Options.CoverageThreshold. Nil (the built-in
// default) when it is unset; a value that is not a percentage from 0 to 100
// is 100, the strictest, because config.Load refuses one and a caller that
// got one anyway must not loosen the floor.
func CoverageThresholdSetting(v string) *float64 {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 100 {
		f = 100
	}
	return &f
}

// Settings reads configuration values; *config.Config satisfies it.
type Settings interface {
	String(key string) string
	Strings(key string) []string
}

// FloorsFrom is the one mapping of [verify] required_floors and
// coverage_threshold to what the floors are judged by: the base policy's
// Floors, the gate's comment and the pack viewer all read them here, so a
// setting cannot mean one thing in one place and another elsewhere.
//
// Each scanner [verify] scanners names is required too: a pack from a
// repository that turned govulncheck on holds only with a govulncheck floor
// that passes, whatever required_floors lists.
func FloorsFrom(c Settings) FloorPolicy {
	required := RequiredFloorsSetting(c.Strings("verify.required_floors"))
	for _, s := range c.Strings("verify.scanners") {
		if !slices.Contains(required, s) {
			required = append(required, s)
		}
	}
	return FloorPolicy{
		Required:          required,
		CoverageThreshold: CoverageThresholdSetting(c.String("verify.coverage_threshold")),
	}
}

// FloorPolicy is what the floors are judged by: the base branch's [verify]
// settings, never the pack's own thresholds.
type FloorPolicy struct {
	// Required are [verify] required_floors; nil means DefaultRequiredFloors.
	Required []string
	// CoverageThreshold is [verify] coverage_threshold; nil means
	// DefaultCoverageThreshold.
	CoverageThreshold *float64
}

func (p FloorPolicy) coverageThreshold() float64 {
	if p.CoverageThreshold == nil {
		return DefaultCoverageThreshold
	}
	return *p.CoverageThreshold
}

// Measured is what the verifier counted in the pack's own hashed bytes, to
// set beside what its checks claim.
type Measured struct {
	// CoverageKnown says the pack's coverage report (CoverageReportPath)
	// was hashed here and read: Covered of Changed changed executable
	// lines. CoverageWhy says why not.
	CoverageKnown    bool
	Covered, Changed int
	CoverageWhy      string
	// TestsKnown says the pack's test events were read: TestsPassed
	// distinct top-level tests ran and passed in them. TestsWhy says why
	// not.
	TestsKnown  bool
	TestsPassed int
	TestsWhy    string
	// TestsFailed names every test or package the events record failing.
	TestsFailed []string
	// Scans are the scanner reports (ScannerReportPath) the pack holds,
	// by floor, as read from their hashed bytes.
	Scans map[string]ScanMeasure
}

// CoveragePercent is Covered of Changed as the coverage floor writes it:
// floored to one decimal, 100 when nothing changed.
func (m Measured) CoveragePercent() float64 {
	if m.Changed == 0 {
		return 100
	}
	return math.Floor(float64(m.Covered)*1000/float64(m.Changed)) / 10
}

// ResultMissing is the Result of the Check JudgeFloors reports for a
// required floor the pack does not have.
const ResultMissing = "missing"

// JudgeFloors recomputes whether every floor holds rather than believing
// each check, and lists the checks that do not hold, each Detail led by
// why.
//
//   - A required floor must be in the pack and pass: skipped, waived or
//     blocked does not hold for it, and a missing one is reported as a Check
//     with Result "missing".
//   - Any other floor holds when it passed, was waived or was skipped.
//   - A coverage or vet check that passes must carry its value and its
//     threshold, both in range; a tests check its value. Missing numbers do
//     not hold.
//   - Thresholds are the policy's: coverage must reach the base branch's
//     [verify] coverage_threshold, vet stay within VetThreshold findings.
//     The pack's own threshold is only shown.
//   - The coverage value must be the one the pack's coverage report counts,
//     and the tests value exactly the tests its events show passing, a
//     count that lies low as much as one that lies high: the number shown
//     is always the one recomputed from the events. A pack without those
//     bytes does not hold its coverage or tests floor.
//   - A result that disagrees with its own numbers does not hold and says
//     so. An empty list never holds: no checks prove nothing.
func JudgeFloors(checks []Check, policy FloorPolicy, m Measured) (bool, []Check) {
	required := policy.Required
	if required == nil {
		required = DefaultRequiredFloors
	}
	isRequired := map[string]bool{}
	for _, f := range required {
		isRequired[f] = true
	}
	var failed []Check
	seen := map[string]bool{}
	for _, c := range checks {
		seen[c.Floor] = true
		if why := floorFault(c, isRequired[c.Floor], policy, m); why != "" {
			if why != failedAsRecorded {
				c.Detail = joinDetail(why, c.Detail)
			}
			failed = append(failed, c)
		}
	}
	for _, f := range required {
		if !seen[f] {
			failed = append(failed, Check{Floor: f, Result: ResultMissing,
				Detail: "required by [verify] required_floors, but the pack has no " + f + " check"})
			seen[f] = true
		}
	}
	return len(checks) > 0 && len(failed) == 0, failed
}

// failedAsRecorded is floorFault's word for a check that failed and says so
// consistently: its own detail already says why.
const failedAsRecorded = "failed"

// floorFault says why one check does not hold, or "".
func floorFault(c Check, required bool, policy FloorPolicy, m Measured) string {
	switch c.Result {
	case ResultPass:
	case ResultWaived, ResultSkipped, ResultBlocked:
		if required {
			return fmt.Sprintf("a required floor %s does not hold", wordsForResult(c.Result))
		}
		if c.Result == ResultBlocked {
			return "blocked"
		}
		return ""
	case ResultFail:
		if numbersFault(c, policy, m) == "" && meetsThreshold(c, policy) == yes {
			return fmt.Sprintf("recorded as fail although %s meets %s; the check disagrees with its own numbers", num(c.Value), num(thresholdFor(c.Floor, policy)))
		}
		return failedAsRecorded
	default:
		return fmt.Sprintf("result %q is not one aayu knows", clipText(c.Result))
	}
	var why []string
	if meetsThreshold(c, policy) == no {
		why = append(why, fmt.Sprintf("recorded as pass although %s does not meet the threshold %s; recomputed, it fails", num(c.Value), num(thresholdFor(c.Floor, policy))))
	}
	if w := numbersFault(c, policy, m); w != "" {
		why = append(why, w)
	}
	return strings.Join(why, "; ")
}

// numbersFault says what is wrong with a check's numbers, judged against
// the policy and the pack's own bytes, or "".
func numbersFault(c Check, policy FloorPolicy, m Measured) string {
	switch c.Floor {
	case "coverage":
		return coverageFault(c, policy, m)
	case "vet":
		return vetFault(c)
	case "tests":
		return testsFault(c, m)
	}
	if IsScanner(c.Floor) {
		return scannerFault(c, m)
	}
	return ""
}

func coverageFault(c Check, policy FloorPolicy, m Measured) string {
	var why []string
	switch {
	case c.Value == nil:
		why = append(why, "it has no value; a coverage floor without its number does not hold")
	case !inRange(*c.Value, 0, 100):
		why = append(why, fmt.Sprintf("its value %s is not a percentage from 0 to 100", num(c.Value)))
	}
	switch {
	case c.Threshold == nil:
		why = append(why, "it has no threshold; a coverage floor without one was not written by aayu verify")
	case !inRange(*c.Threshold, 0, 100):
		why = append(why, fmt.Sprintf("its threshold %s is not a percentage from 0 to 100", num(c.Threshold)))
	}
	switch {
	case !m.CoverageKnown:
		w := "the pack holds no coverage report (" + CoverageReportPath + ") whose bytes were hashed here, so its value is not taken on its word"
		if m.CoverageWhy != "" {
			w = m.CoverageWhy + ", so its value is not taken on its word"
		}
		why = append(why, w)
	case c.Value != nil && !sameCoverage(*c.Value, m):
		why = append(why, fmt.Sprintf("it claims %s but its coverage report counts %d of %d changed executable lines covered (%s)",
			num(c.Value), m.Covered, m.Changed, trimNum(m.CoveragePercent())))
	case c.Result == ResultPass && float64(m.Covered)*100 < policy.coverageThreshold()*float64(m.Changed):
		why = append(why, fmt.Sprintf("its coverage report counts %d of %d changed executable lines covered, below the threshold %s",
			m.Covered, m.Changed, trimNum(policy.coverageThreshold())))
	}
	return strings.Join(why, "; ")
}

// sameCoverage accepts a value within a tenth of a point of the report's
// exact ratio, as rounding it to one decimal either way gives.
func sameCoverage(v float64, m Measured) bool {
	exact := 100.0
	if m.Changed > 0 {
		exact = float64(m.Covered) * 100 / float64(m.Changed)
	}
	return math.Abs(v-exact) <= 0.1+1e-9
}

func vetFault(c Check) string {
	var why []string
	switch {
	case c.Value == nil:
		why = append(why, "it has no value; a vet floor without its count of findings does not hold")
	case !isCount(*c.Value):
		why = append(why, fmt.Sprintf("its value %s is not a count of findings", num(c.Value)))
	}
	switch {
	case c.Threshold == nil:
		why = append(why, "it has no threshold; a vet floor without one was not written by aayu verify")
	case !isCount(*c.Threshold):
		why = append(why, fmt.Sprintf("its threshold %s is not a count of findings", num(c.Threshold)))
	}
	return strings.Join(why, "; ")
}

func testsFault(c Check, m Measured) string {
	switch {
	case c.Value == nil:
		return "it has no value; a tests floor without its count of tests does not hold"
	case !isCount(*c.Value):
		return fmt.Sprintf("its value %s is not a count of tests", num(c.Value))
	case !m.TestsKnown:
		w := "the pack holds no test events whose bytes were hashed here, so its count is not taken on its word"
		if m.TestsWhy != "" {
			w = m.TestsWhy + ", so its count is not taken on its word"
		}
		return w
	case *c.Value != float64(m.TestsPassed):
		// Either way the check lies about its own events: a low count
		// (0 beside 3 passing) hides as much as a high one invents.
		return fmt.Sprintf("it claims %s %s passed, but the pack's test events show %d", num(c.Value), plural(int(min(*c.Value, 2)), "test", "tests"), m.TestsPassed)
	case c.Result == ResultPass && len(m.TestsFailed) > 0:
		return "it claims every test passed, but the pack's test events record a fail for " + clipText(strings.Join(m.TestsFailed, ", "))
	}
	return ""
}

func inRange(f, lo, hi float64) bool { return !math.IsNaN(f) && f >= lo && f <= hi }

func isCount(f float64) bool { return f >= 0 && f == math.Trunc(f) && f < 1<<53 }

func wordsForResult(r string) string {
	switch r {
	case ResultSkipped:
		return "that was skipped"
	case ResultWaived:
		return "that was waived"
	}
	return "that was blocked"
}

type tri int

const (
	unknown tri = iota
	yes
	no
)

// thresholdFor is the policy's threshold for the floors whose numbers aayu
// judges, nil for the others.
func thresholdFor(floor string, policy FloorPolicy) *float64 {
	switch floor {
	case "coverage":
		t := policy.coverageThreshold()
		return &t
	case "vet":
		t := VetThreshold
		return &t
	}
	if IsScanner(floor) {
		t := ScannerThreshold
		return &t
	}
	return nil
}

// Threshold is the threshold p judges floor's value by: the base
// branch's coverage_threshold for coverage, VetThreshold for vet; nil for
// a floor whose numbers aayu does not judge. A pack's own threshold is
// never it, so a refusal naming a threshold names this one.
func (p FloorPolicy) Threshold(floor string) *float64 { return thresholdFor(floor, p) }

// meetsThreshold compares a check's value with the policy's threshold, for
// the floors whose numbers aayu knows: coverage must reach it (a
// percentage), vet stay within it (a count of findings).
func meetsThreshold(c Check, policy FloorPolicy) tri {
	t := thresholdFor(c.Floor, policy)
	if t == nil || c.Value == nil || math.IsNaN(*c.Value) {
		return unknown
	}
	ok := *c.Value >= *t
	if c.Floor == "vet" || IsScanner(c.Floor) {
		ok = *c.Value <= *t
	}
	if ok {
		return yes
	}
	return no
}

func num(f *float64) string { return trimNum(*f) }

func trimNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func joinDetail(why, detail string) string {
	if detail == "" {
		return why
	}
	return why + "; " + detail
}

// CoverageReportPath is the artifact the coverage floor is recomputed
// from: one line per changed file, "FILE: C of T changed executable lines
// covered" (the "FILE: " is optional, and so is "executable").
const CoverageReportPath = "reports/coverage.txt"

// maxCoverageReport caps the coverage report read; one line per changed
// file is far less.
const maxCoverageReport = 4 << 20

var coverageLine = lazyre.New(`^(?:[^\x00-\x1f]+: )?([0-9]{1,9}) of ([0-9]{1,9}) changed (?:executable )?lines covered(?: \(go coverprofile\))?$`)

// ReadCoverageReport counts the covered and changed lines a coverage report
// lists. Any line it cannot read is an error: a report read in part would
// let a line that says nothing hide the lines that fail.
func ReadCoverageReport(b []byte) (covered, changed int, err error) {
	if len(b) > maxCoverageReport {
		return 0, 0, fmt.Errorf("it is %d bytes, more than the %d aayu reads", len(b), maxCoverageReport)
	}
	lines := 0
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		sub := coverageLine().FindStringSubmatch(line)
		if sub == nil {
			return 0, 0, fmt.Errorf("line %d is not \"FILE: C of T changed executable lines covered\"", i+1)
		}
		c, _ := strconv.Atoi(sub[1])
		t, _ := strconv.Atoi(sub[2])
		if c > t {
			return 0, 0, fmt.Errorf("line %d counts more lines covered than changed", i+1)
		}
		covered, changed, lines = covered+c, changed+t, lines+1
	}
	if lines == 0 {
		return 0, 0, fmt.Errorf("it counts no lines")
	}
	return covered, changed, nil
}
