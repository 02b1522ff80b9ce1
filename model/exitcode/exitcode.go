// Package exitcode is the one table of aayu's exit codes (SPEC §3). Every
// screen, core action and CI gate returns these numbers; the packages that
// name them locally (tui, ship, the gates, the pack builder) alias this
// table so a code can never mean one thing in one place and another
// elsewhere.
package exitcode

import "fmt"

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

// Refusal is a reason nothing may be written, in words: the error a core
// action returns when a step is refused, which ends the run with Refused
// (exit 4). plan, ready and decide each used to declare their own; they
// now alias this one, so a screen or a command tells a refusal from a
// failure the same way whichever action it ran.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// Refuse is a Refusal whose reason is written as fmt.Sprintf does.
func Refuse(format string, args ...any) error {
	return &Refusal{Reason: fmt.Sprintf(format, args...)}
}
