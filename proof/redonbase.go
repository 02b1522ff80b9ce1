package proof

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// RedOnBase classifies what a criterion's mapped tests did on the base
// commit with the pull request's test files copied in. A Bug story's test
// should fail there: that shows it tests the fix. The zero value is not a
// classification, so a result nobody filled in is never read as one.
type RedOnBase int

const (
	// GreenOnBase: the tests pass on the base, so they do not show the fix.
	GreenOnBase RedOnBase = iota + 1
	// RedOnBaseShowsFix: the tests fail on the base and pass on the head.
	RedOnBaseShowsFix
	// Inconclusive: the tests do not build on the base (a test of a new
	// function, say), so the base says nothing either way.
	Inconclusive
)

func (c RedOnBase) String() string {
	switch c {
	case GreenOnBase:
		return "green on base"
	case RedOnBaseShowsFix:
		return "red on base"
	case Inconclusive:
		return "inconclusive"
	}
	return "not classified"
}

// CriterionRedOnBase is one criterion's red-on-base result.
type CriterionRedOnBase struct {
	ID     int
	Tests  []string // the mapped tests as run, e.g. TestScreenRefuses
	Class  RedOnBase
	Detail string // optional, e.g. "does not build on base: undefined: Screen"
}

// RedOnBaseCheck builds the "red-on-base" floor check. Before blockingFrom
// it is advisory: the result is pass whatever the criteria did, and the
// detail says so. From blockingFrom (a zero date means already) any
// green-on-base criterion makes it fail. Inconclusive or unclassified
// criteria never fail it. Value is the number of green-on-base criteria
// and Threshold the number allowed (0). With no criteria the check is
// skipped: there was nothing to run on the base.
func RedOnBaseCheck(results []CriterionRedOnBase, blockingFrom time.Time, now time.Time) Check {
	check := Check{
		Floor: FloorRedOnBase,
		Tool:  "aayu red-on-base (mapped tests on the base commit with the pull request's test files)",
	}
	if len(results) == 0 {
		check.Result = ResultSkipped
		check.Detail = "no criteria with mapped tests to run on the base commit"
		return check
	}
	sorted := slices.Clone(results)
	slices.SortStableFunc(sorted, func(a, b CriterionRedOnBase) int { return a.ID - b.ID })

	green := 0
	verdicts := make([]string, 0, len(sorted))
	for _, r := range sorted {
		if r.Class == GreenOnBase {
			green++
		}
		v := fmt.Sprintf("criterion %d: %s", r.ID, r.Class)
		var why []string
		if len(r.Tests) > 0 {
			why = append(why, strings.Join(r.Tests, ", "))
		}
		if r.Detail != "" {
			why = append(why, r.Detail)
		}
		if len(why) > 0 {
			v += " (" + strings.Join(why, ": ") + ")"
		}
		verdicts = append(verdicts, v)
	}
	value, threshold := float64(green), 0.0
	check.Value, check.Threshold = &value, &threshold

	blocking := !now.Before(blockingFrom)
	var lead string
	switch {
	case !blocking:
		check.Result = ResultPass
		lead = fmt.Sprintf("advisory until %s", blockingFrom.Format(time.DateOnly))
		if green > 0 {
			lead += fmt.Sprintf(", when %d green-on-base %s would fail", green, plural(green, "criterion", "criteria"))
		}
	case green > 0:
		check.Result = ResultFail
		lead = fmt.Sprintf("%d %s green on base, so %s not show the fix", green, plural(green, "criterion is", "criteria are"), plural(green, "its tests do", "their tests do"))
	default:
		check.Result = ResultPass
		lead = "no criterion is green on base"
	}
	check.Detail = lead + "; " + strings.Join(verdicts, "; ")
	return check
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
