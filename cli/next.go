package cli

import (
	"fmt"
	"time"

	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// runNext prints the one command the person should run now, read as
// inbox --list reads (the cached read when recent, else a full read), as
// the seeds' home screen names it. It writes nothing, so any lane may run
// it.
func (w wiring) runNext() int {
	e := w.e
	deps, err := w.inboxDeps(w.here("aayu inbox"), func() *identity.Session { return nil })
	if err != nil {
		return reportDeps(e, w.inv.Command, err)
	}
	snap, err := deps.Read(w.ctx, nil, time.Time{})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu next: the inbox could not be read from GitHub: %v\nNext: check --repo and your token (aayu auth), then run aayu next again.\n", err)
		return tui.ExitFailed
	}
	if deps.SaveCache != nil {
		_ = deps.SaveCache(snap, time.Time{}) // best effort: the cache is never acted on
	}
	fmt.Fprintln(e.stdout, model.Next(model.Derive(snap)))
	return tui.ExitOK
}

// nextCommand is aayu next's table entry and run.
func nextCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "next",
			Group:   "daily",
			Short:   "one line: the command to run now",
			Long:    "One line naming the command to run now: the inbox when steps wait, with their count. Read-only; any lane may run it.",
			Example: "aayu next",
		},
		run: wiring.runNext,
	}
}
