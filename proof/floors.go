package proof

import (
	"fmt"
	"strconv"
)

// DefaultRequiredFloors are the floors aayu verify writes for every Go
// story, so a pack without one of them was not built by a full verify run.
// [verify] required_floors replaces the list; red-on-base is added there
// for a repository that wants it required.
var DefaultRequiredFloors = []string{"tests", "coverage", "vet"}

// RequiredFloorsSetting turns [verify] required_floors as read from config
// into Options.RequiredFloors: a list set empty requires nothing, which is
// not the nil that means the defaults.
func RequiredFloorsSetting(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// ResultMissing is the Result of the Check FloorsHoldFor reports for a
// required floor the pack does not have.
const ResultMissing = "missing"

// FloorsHold is FloorsHoldFor with DefaultRequiredFloors.
func FloorsHold(checks []Check) (bool, []Check) { return FloorsHoldFor(checks, nil) }

// FloorsHoldFor recomputes whether every floor holds rather than believing
// each check's result, and lists the checks that do not hold, each Detail
// led by why. required nil means DefaultRequiredFloors.
//
//   - A required floor must be in the pack and pass: skipped, waived or
//     blocked does not hold for it, and a missing one is reported as a Check
//     with Result "missing".
//   - Any other floor holds when it passed, was waived or was skipped.
//   - A coverage check passes only when value ≥ threshold, a vet check only
//     when value ≤ threshold (findings);
//     a result that disagrees with its own numbers does not hold and says so.
//   - An empty list never holds: no checks prove nothing.
func FloorsHoldFor(checks []Check, required []string) (bool, []Check) {
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
		if why := floorFault(c, isRequired[c.Floor]); why != "" {
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
func floorFault(c Check, required bool) string {
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
		if meetsThreshold(c) == yes {
			return fmt.Sprintf("recorded as fail although %s meets %s; the check disagrees with its own numbers", num(c.Value), num(c.Threshold))
		}
		return failedAsRecorded
	default:
		return fmt.Sprintf("result %q is not one aayu knows", clipText(c.Result))
	}
	if c.Result == ResultPass && meetsThreshold(c) == no {
		return fmt.Sprintf("recorded as pass although %s does not meet the threshold %s; recomputed, it fails", num(c.Value), num(c.Threshold))
	}
	return ""
}

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

// thresholdDirection says, for the floors whose numbers aayu knows, whether
// the value must reach the threshold (coverage: a percentage) or stay
// within it (vet: a count of findings). Other floors' numbers are shown,
// not judged.
var thresholdDirection = map[string]bool{"coverage": true, "vet": false}

// meetsThreshold compares a check's value with its threshold, when it has
// both and its floor is one aayu knows.
func meetsThreshold(c Check) tri {
	higher, known := thresholdDirection[c.Floor]
	if !known || c.Value == nil || c.Threshold == nil {
		return unknown
	}
	ok := *c.Value >= *c.Threshold
	if !higher {
		ok = *c.Value <= *c.Threshold
	}
	if ok {
		return yes
	}
	return no
}

func num(f *float64) string { return strconv.FormatFloat(*f, 'f', -1, 64) }

func joinDetail(why, detail string) string {
	if detail == "" {
		return why
	}
	return why + "; " + detail
}
