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
// b: the one rule of model/exitcode, so a ship refused inside the inbox is
// not an inbox that exits 0.
func Worst(a, b int) int { return exitcode.Worst(a, b) }
