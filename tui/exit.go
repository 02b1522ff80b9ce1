package tui

import "github.com/aayudha/aayu/model/exitcode"

// Exit codes, the same in every screen (SPEC §3), named from the one table
// in model/exitcode. A screen reports one of these through Done; main
// passes it to os.Exit unchanged.
const (
	ExitOK      = exitcode.OK
	ExitFailed  = exitcode.Failed
	ExitUsage   = exitcode.Usage
	ExitFloor   = exitcode.Floor
	ExitRefused = exitcode.Refused
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
