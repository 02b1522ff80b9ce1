// Package exitcode is the one table of aayu's exit codes (SPEC §3). Every
// screen, core action and CI gate returns these numbers; the packages that
// name them locally (tui, ship, the gates, the pack builder) alias this
// table so a code can never mean one thing in one place and another
// elsewhere.
package exitcode

const (
	// OK: the command finished what it was asked to do (a ship merged, a
	// pack verifies and every floor holds).
	OK = 0
	// Failed: something went wrong that is not the person's or the pack's
	// fault — network, git, a bug, or the program was interrupted before
	// the screen finished.
	Failed = 1
	// Usage: the command line was wrong (unknown flag or command, a missing
	// value, the wrong number of arguments).
	Usage = 2
	// Floor: the pack verifies but a floor (coverage, red on base, …) does
	// not hold.
	Floor = 3
	// Refused: the pack does not verify, nothing qualifies, or a step was
	// refused (an agent at a human-only step, a policy looser than the base
	// branch's, …).
	Refused = 4
)

// Worst returns the exit code of a run made of several screens or steps
// (SPEC §3: the process exits with the worst of them). A failure ranks
// worst, as something may be left half done and nobody knows what; then a
// usage mistake, a refusal, and a floor that does not hold (the pack
// verifies); done is the best. A code that is not aayu's counts as a
// failure.
func Worst(codes ...int) int {
	worst := OK
	for _, c := range codes {
		if rank(c) > rank(worst) {
			worst = c
		}
	}
	return worst
}

func rank(code int) int {
	switch code {
	case OK:
		return 0
	case Floor:
		return 1
	case Refused:
		return 2
	case Usage:
		return 3
	}
	return 4 // Failed, and any code that is not aayu's
}
