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
