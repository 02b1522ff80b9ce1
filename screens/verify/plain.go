package verify

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/build"
	"github.com/aayudha/aayu/tui"
)

var errNoOutcome = errors.New("the run ended without an outcome")

func clean(s string) string { return tui.SanitizeLine(s) }

func plainIntro(story int) string {
	return fmt.Sprintf("aayu verify: story %d — runs the floors on the pull request's checkout and builds its proof pack; this screen prints its result and exits (no choice is asked).", story)
}

func plainCheckout(req build.Request) string {
	s := "checkout " + clean(req.Dir)
	if req.PR != 0 {
		s += fmt.Sprintf(", pull request #%d", req.PR)
	}
	s += ", base " + clean(req.BaseRef)
	if req.Bug {
		s += "; a Bug, so red on base runs too"
	}
	return s
}

func plainStarted(ev build.StepStarted) string {
	return fmt.Sprintf("%s: running — %s", clean(ev.Step), clean(ev.What))
}

func plainEnded(ev build.StepEnded) string {
	s := clean(ev.Step) + ": " + tui.ResultWord(ev.Result)
	if ev.Detail != "" {
		s += " — " + clean(ev.Detail)
	}
	return s
}

// shortTest names a test by its package's last element: copay.TestCopayUnknown.
func shortTest(pkg, test string) string {
	return clean(path.Base(pkg)) + "." + clean(test)
}

// plainResult is the run's outcome as lines, the same facts the full
// screen shows once the run ends.
func plainResult(out *build.Outcome, err error) []string {
	var l []string
	add := func(format string, args ...any) { l = append(l, fmt.Sprintf(format, args...)) }
	switch {
	case err != nil:
		add("result: failed, no pack was built: %s (exit 1)", clean(err.Error()))
		return l
	case out.Refusal != "":
		add("result: refused, no pack was built: %s (exit 4)", clean(out.Refusal))
		return l
	}
	add("pack folder: %s", clean(out.Dir))
	add("pack.json sha256: %s", out.PackSHA256)
	add("head %s, base %s, network %s", clean(out.Head), clean(out.Base), clean(out.Network))
	for _, c := range out.Report.Criteria {
		add("criterion %d: %s", c.ID, criterionLine(c))
	}
	for _, p := range out.Report.Problems {
		add("problem: %s", clean(p.Message))
	}
	add("run artifact kept %d days (%s)", out.RetentionDays, clean(out.RetentionNote))
	add("result: %s", resultWords(out))
	return l
}

func criterionLine(c proof.CriterionResult) string {
	s := "not proven"
	if c.Proven {
		s = "proven"
	}
	if c.Text != "" {
		s += " — " + clean(c.Text)
	}
	if !c.Proven && c.Reason != "" {
		s += " (" + clean(c.Reason) + ")"
	}
	return s
}

// resultWords says how the run ended, with its exit code.
func resultWords(out *build.Outcome) string {
	r := out.Report
	switch {
	case !r.Verified():
		n := len(r.Problems)
		return fmt.Sprintf("the pack does not verify (%d %s) (exit 4)", n, tui.Plural(n, "problem", "problems"))
	case !r.FloorsHold:
		var names []string
		for _, c := range r.FailedFloors {
			names = append(names, clean(c.Floor))
		}
		return fmt.Sprintf("the pack verifies, but a floor does not hold: %s (exit 3)", strings.Join(names, ", "))
	}
	return "the pack verifies and every floor holds (exit 0)"
}
