package verify

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

var errNoOutcome = errors.New("the run ended without an outcome")

func plainIntro(story int) string {
	return fmt.Sprintf("aayu verify: story %d — runs the floors on the pull request's checkout and builds its proof pack; this screen prints its result and exits (no choice is asked).", story)
}

func plainCheckout(req packbuild.Request) string {
	s := "checkout " + tui.SanitizeLine(req.Dir)
	if req.PR != 0 {
		s += fmt.Sprintf(", pull request #%d", req.PR)
	}
	s += ", base " + tui.SanitizeLine(req.BaseRef)
	if req.Bug {
		s += "; a Bug, so red on base runs too"
	}
	return s
}

func plainStarted(ev packbuild.StepStarted) string {
	return fmt.Sprintf("%s: running — %s", tui.SanitizeLine(ev.Step), tui.SanitizeLine(ev.What))
}

func plainEnded(ev packbuild.StepEnded) string {
	s := tui.SanitizeLine(ev.Step) + ": " + tui.ResultWord(ev.Result)
	if ev.Detail != "" {
		s += " — " + tui.SanitizeLine(ev.Detail)
	}
	return s
}

// shortTest names a test by its package's last element: copay.TestCopayUnknown.
func shortTest(pkg, test string) string {
	return tui.SanitizeLine(path.Base(pkg)) + "." + tui.SanitizeLine(test)
}

// plainResult is the run's outcome as lines, the same facts the full
// screen shows once the run ends.
func plainResult(out *packbuild.Outcome, err error) []string {
	var l []string
	add := func(format string, args ...any) { l = append(l, fmt.Sprintf(format, args...)) }
	switch {
	case err != nil:
		add("result: failed, no pack was built: %s (exit 1)", tui.SanitizeLine(err.Error()))
		return l
	case out.Refusal != "":
		add("result: refused, no pack was built: %s (exit 4)", tui.SanitizeLine(out.Refusal))
		return l
	}
	add("pack folder: %s", tui.SanitizeLine(out.Dir))
	add("pack.json sha256: %s", out.PackSHA256)
	add("head %s, base %s, network %s", tui.SanitizeLine(out.Head), tui.SanitizeLine(out.Base), tui.SanitizeLine(out.Network))
	for _, c := range out.Report.Criteria {
		add("criterion %d: %s", c.ID, criterionLine(c))
	}
	for _, p := range out.Report.Problems {
		add("problem: %s", tui.SanitizeLine(p.Message))
	}
	add("run artifact kept %d days (%s)", out.RetentionDays, tui.SanitizeLine(out.RetentionNote))
	add("result: %s", resultWords(out))
	return l
}

func criterionLine(c proof.CriterionResult) string {
	s := "not proven"
	if c.Proven {
		s = "proven"
	}
	if c.Text != "" {
		s += " — " + tui.SanitizeLine(c.Text)
	}
	if !c.Proven && c.Reason != "" {
		s += " (" + tui.SanitizeLine(c.Reason) + ")"
	}
	return s
}

// resultWords says how the run ended, with its exit code.
func resultWords(out *packbuild.Outcome) string {
	r := out.Report
	switch {
	case !r.Verified():
		n := len(r.Problems)
		return fmt.Sprintf("the pack does not verify (%d %s) (exit 4)", n, tui.Plural(n, "problem", "problems"))
	case !r.FloorsHold:
		var names []string
		for _, c := range r.FailedFloors {
			names = append(names, tui.SanitizeLine(c.Floor))
		}
		return fmt.Sprintf("the pack verifies, but a floor does not hold: %s (exit 3)", strings.Join(names, ", "))
	}
	return "the pack verifies and every floor holds (exit 0)"
}
