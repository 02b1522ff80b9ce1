package tui

// Exit codes, the same in every screen (SPEC §3). A screen reports one of
// these through Done; main passes it to os.Exit unchanged.
const (
	// ExitOK: the screen finished what it was asked to do.
	ExitOK = 0
	// ExitFailed: something went wrong that is not the person's or the
	// pack's fault — network, git, a bug, or the program was interrupted
	// before the screen finished.
	ExitFailed = 1
	// ExitUsage: the command line was wrong (unknown flag or command, a
	// missing value, the wrong number of arguments).
	ExitUsage = 2
	// ExitFloor: the pack verifies but a floor (coverage, red on base, …)
	// does not hold.
	ExitFloor = 3
	// ExitRefused: the pack does not verify, nothing qualifies, or a step
	// was refused (an agent at a human-only step, a policy that is looser
	// than the base branch's, …).
	ExitRefused = 4
)

// Worst is the exit code of a run in which screens ended with codes a and
// b (SPEC §3): the process exits with the worst of its screens' codes, so
// a ship refused inside the inbox is not an inbox that exits 0. A failure
// ranks worst, as something may be left half done and nobody knows what;
// then a usage mistake, a refusal, and a floor that does not hold (the
// pack verifies); done is the best.
func Worst(a, b int) int {
	if exitRank(b) > exitRank(a) {
		return b
	}
	return a
}

func exitRank(code int) int {
	switch code {
	case ExitOK:
		return 0
	case ExitFloor:
		return 1
	case ExitRefused:
		return 2
	case ExitUsage:
		return 3
	default: // ExitFailed, and any code that is not aayu's
		return 4
	}
}
