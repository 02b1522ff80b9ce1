package packbuild

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// The coverage floor counts the lines the pull request added or changed in
// non-test Go files that hold a statement (a line inside a block of the
// coverprofile), and how many of those ran. A line runs when any block
// that spans it ran: line coverage means the line was executed.

// changedLines reads git diff -U0 output: for each file, the line numbers
// (in the new file) the diff adds.
func changedLines(diff []byte) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			cur = ""
			if name, ok := strings.CutPrefix(line, "+++ b/"); ok {
				cur = name
			}
		case strings.HasPrefix(line, "@@ ") && cur != "":
			start, count, ok := hunkNewRange(line)
			if !ok || count == 0 {
				continue
			}
			if out[cur] == nil {
				out[cur] = map[int]bool{}
			}
			for l := start; l < start+count; l++ {
				out[cur][l] = true
			}
		}
	}
	return out
}

// hunkNewRange reads "@@ -a,b +c,d @@": the new file's start and count
// (count 1 when omitted, 0 for a pure deletion).
func hunkNewRange(h string) (start, count int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	s, c, hasCount := strings.Cut(f[2][1:], ",")
	start, err := strconv.Atoi(s)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(c); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

// lineCoverage maps file (module-relative) → line → ran, from a coverprofile.
func lineCoverage(profile []byte, modulePath string) (map[string]map[int]bool, error) {
	out := map[string]map[int]bool{}
	sc := bufio.NewScanner(bytes.NewReader(profile))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if first {
			first = false
			if strings.HasPrefix(line, "mode:") {
				continue
			}
		}
		if line == "" {
			continue
		}
		// example.com/m/pkg/file.go:4.43,6.2 1 1
		colon := strings.LastIndexByte(line, ':')
		if colon < 0 {
			return nil, fmt.Errorf("coverprofile line %q is not file:range statements count", line)
		}
		file, rest := line[:colon], strings.Fields(line[colon+1:])
		if len(rest) != 3 {
			return nil, fmt.Errorf("coverprofile line %q is not file:range statements count", line)
		}
		from, to, ok := strings.Cut(rest[0], ",")
		startLine, err1 := strconv.Atoi(strings.SplitN(from, ".", 2)[0])
		endLine, err2 := strconv.Atoi(strings.SplitN(to, ".", 2)[0])
		count, err3 := strconv.Atoi(rest[2])
		if !ok || err1 != nil || err2 != nil || err3 != nil || endLine < startLine {
			return nil, fmt.Errorf("coverprofile line %q is not file:range statements count", line)
		}
		rel := shortPkg(modulePath, file)
		if out[rel] == nil {
			out[rel] = map[int]bool{}
		}
		for l := startLine; l <= endLine; l++ {
			out[rel][l] = out[rel][l] || count > 0
		}
	}
	return out, sc.Err()
}

// coverageResult is the floor's count.
type coverageResult struct {
	covered, total int
	uncovered      []string // "copay/copay.go:9", sorted, for the output view
	files          []fileCoverage
}

// fileCoverage is one changed file's count, for the pack's coverage report.
type fileCoverage struct {
	name           string
	covered, total int
}

// report is the pack's coverage report (proof.CoverageReportPath), one line
// per changed file with executable lines, from which verification recounts
// the floor's value.
func (r coverageResult) report() []byte {
	var b strings.Builder
	for _, f := range r.files {
		fmt.Fprintf(&b, "%s: %d of %d changed executable lines covered\n", f.name, f.covered, f.total)
	}
	if len(r.files) == 0 {
		b.WriteString("0 of 0 changed executable lines covered\n")
	}
	return []byte(b.String())
}

func measureCoverage(changed, lines map[string]map[int]bool) coverageResult {
	var r coverageResult
	files := make([]string, 0, len(changed))
	for f := range changed {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		nums := make([]int, 0, len(changed[f]))
		for l := range changed[f] {
			nums = append(nums, l)
		}
		sort.Ints(nums)
		fc := fileCoverage{name: f}
		for _, l := range nums {
			ran, executable := lines[f][l]
			if !executable {
				continue
			}
			r.total++
			fc.total++
			if ran {
				r.covered++
				fc.covered++
			} else {
				r.uncovered = append(r.uncovered, fmt.Sprintf("%s:%d", f, l))
			}
		}
		// A name with a control character (git quotes those) would not
		// read back as one line; its count still goes in under a plain name.
		if fc.total > 0 {
			if strings.ContainsFunc(fc.name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				fc.name = "(a file whose name holds a control character)"
			}
			r.files = append(r.files, fc)
		}
	}
	return r
}

// coverageCheck is the coverage floor's check. The value is floored to one
// decimal so a value shown as 90 never fails a threshold of 90.
func coverageCheck(r coverageResult, threshold float64, goVersion, network string) proof.Check {
	thr := threshold
	c := proof.Check{Floor: "coverage", Threshold: &thr, Tool: "aayudha diff coverage (go test -coverprofile)",
		Version: goVersion, Network: network}
	if r.total == 0 {
		v := 100.0
		c.Value, c.Result = &v, proof.ResultPass
		c.Detail = "no changed executable lines (go coverprofile)"
		return c
	}
	v := math.Floor(float64(r.covered)*1000/float64(r.total)) / 10
	c.Value = &v
	c.Detail = fmt.Sprintf("%d of %d changed executable lines covered (go coverprofile)", r.covered, r.total)
	// Judged on the value the pack records, which verification recomputes
	// against the threshold: a pass never shows a value below it.
	if float64(r.covered)*100 >= threshold*float64(r.total) && v >= threshold {
		c.Result = proof.ResultPass
	} else {
		c.Result = proof.ResultFail
		c.Detail += fmt.Sprintf("; below the threshold of %s%%", trimFloat(threshold))
	}
	return c
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
