package packbuild

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// testsCheck is the "tests" floor: every test of the module passed.
func (r *runner) testsCheck(run *testRun) proof.Check {
	passed := float64(len(run.passed))
	c := proof.Check{Floor: StepTests, Value: &passed, Tool: "go test -json", Version: r.goVersion, Network: r.network}
	failures := run.failures(r.modulePath)
	switch {
	case len(failures) > 0:
		c.Result = proof.ResultFail
		c.Detail = fmt.Sprintf("%d %s failed: %s", len(failures), plural(len(failures), "test or package", "tests or packages"), strings.Join(failures, ", "))
	case run.exitCode != 0:
		c.Result = proof.ResultFail
		c.Detail = fmt.Sprintf("go test exited with status %d%s", run.exitCode, quoteStderr([]byte(run.stderr)))
	default:
		c.Result = proof.ResultPass
		c.Detail = fmt.Sprintf("%d %s passed", len(run.passed), plural(len(run.passed), "test", "tests"))
	}
	return c
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// evidenceResult sums up the evidence step for the screen.
func evidenceResult(criteria, proven int, problems []proof.Problem) (string, string) {
	if len(problems) == 0 && proven == criteria {
		return proof.ResultPass, fmt.Sprintf("%d of %d criteria have evidence from this run", proven, criteria)
	}
	words := make([]string, 0, len(problems))
	for _, p := range problems {
		words = append(words, p.Message)
	}
	return proof.ResultFail, fmt.Sprintf("%d of %d criteria have evidence; %s", proven, criteria, strings.Join(words, " "))
}

// coverage is the coverage floor on the lines the pull request changed in
// non-test Go files.
func (r *runner) coverage(ctx context.Context, profilePath string) (proof.Check, error) {
	diff, err := r.t.git(ctx, r.req.Dir, "diff", "-U0", "--no-color", "--no-ext-diff", "--find-renames", r.base, r.head, "--", "*.go", ":(exclude)*_test.go")
	if err != nil {
		return proof.Check{}, err
	}
	profile, err := os.ReadFile(profilePath)
	if err != nil {
		// go test writes no profile when no package has Go files or the
		// build failed everywhere: nothing ran, so nothing is covered.
		profile = nil
	}
	lines, err := lineCoverage(profile, r.modulePath)
	if err != nil {
		return proof.Check{}, err
	}
	measured := measureCoverage(changedLines(diff), lines)
	r.coverageReport = measured.report()
	return coverageCheck(measured, r.set.coverageThreshold, r.goVersion, r.network), nil
}

// vet is the "vet" floor: go vet reports nothing.
func (r *runner) vet(ctx context.Context) (proof.Check, error) {
	code, stderr, err := r.runVet(ctx)
	if err != nil {
		return proof.Check{}, err
	}
	c := proof.Check{Floor: StepVet, Tool: "go vet", Version: r.goVersion, Network: r.network}
	var findings []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l != "" {
			r.emit(Output{Step: StepVet, Line: l})
		}
		if l != "" && !strings.HasPrefix(l, "#") {
			findings = append(findings, strings.ReplaceAll(l, r.req.Dir+string(os.PathSeparator), ""))
		}
	}
	n := float64(len(findings))
	zero := 0.0
	c.Value, c.Threshold = &n, &zero
	if code == 0 {
		c.Result, c.Value = proof.ResultPass, &zero
		c.Detail = "go vet reported nothing"
		return c, nil
	}
	c.Result = proof.ResultFail
	if len(findings) == 0 {
		c.Detail = fmt.Sprintf("go vet exited with status %d", code)
		return c, nil
	}
	first := findings[0]
	if len(first) > 200 {
		first = first[:200] + "…"
	}
	c.Detail = fmt.Sprintf("go vet reported %d %s, first: %s", len(findings), plural(len(findings), "finding", "findings"), first)
	return c, nil
}
