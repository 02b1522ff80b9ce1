package proof

// FloorsHold reports whether every floor holds and lists the checks that do
// not. A check holds when it passed, was waived or was skipped; fail and
// blocked do not. An empty list never holds: no checks prove nothing.
// Floors are reported beside verification, not as integrity problems.
func FloorsHold(checks []Check) (bool, []Check) {
	var failed []Check
	for _, c := range checks {
		switch c.Result {
		case ResultPass, ResultWaived, ResultSkipped:
		default:
			failed = append(failed, c)
		}
	}
	return len(checks) > 0 && len(failed) == 0, failed
}
