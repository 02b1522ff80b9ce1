package cli

import (
	"errors"
	"fmt"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// command is one of aayu's commands, in the file named for it (ship.go,
// inbox.go, …), as gh's NewCmdX: its table entry (name, argument, help,
// flags, which tui's parser, help pages, man page and completions are
// built from), its run function and what run must know of it before the
// run starts. The name is written once, in def.
type command struct {
	def tui.CommandDef
	// run routes the invocation (a batch in a host agent's lane, a report
	// in lines, a screen) and runs it on the composition root; its exit
	// code ends aayu.
	run func(w wiring) int
	// batch is the run a host agent's invocation takes instead (agentBatch):
	// the person's act becomes a batch item; nil for a command that never
	// makes one.
	batch func(w wiring) int
	// humanOnly marks a command whose writes are the person's act:
	// refused at once in aayu's own lane (refuseAayuLane).
	humanOnly bool
	// person is the command line the person runs for an agent's
	// invocation, as the verb writes it; nil: the words typed.
	person func(inv tui.Invocation) string
	// token says whether this invocation talks to GitHub as the person, so
	// a token prompt comes before its screen takes the terminal; nil:
	// always.
	token func(inv tui.Invocation) bool
	// offline says the invocation reads only this machine: no checkout's
	// origin is looked up for it; nil: never.
	offline func(inv tui.Invocation) bool
	// allSources: the token lookup reports every source, not only the
	// first that answers (aayu auth).
	allSources bool
	// local runs on this machine alone, before the lane check and with no
	// GitHub session (aayu sandbox).
	local bool
}

// commands is aayu's table, in the order help lists them.
func commands() []command {
	return []command{
		inboxCommand(), loginCommand(), packCommand(), buildCommand(), verifyCommand(), readyCommand(), planCommand(),
		decideCommand(), waiveCommand(), counselCommand(), inspectCommand(), approveCommand(), nextCommand(), proofPushCommand(), shipCommand(),
		releaseCommand(), loopsCommand(), commentCommand(), tokenSealCommand(), protectedCommand(), mcpCommand(),
		initCommand(), doctorCommand(), authCommand(), auditCommand(), sandboxCommand(),
		hooksInstallCommand(), hooksStatusCommand(), hookCommand(), selfUpdateCommand(),
	}
}

// commandDefs is the table tui's parser is built from: every command's
// entry, then the seeds' other names for some of them.
func commandDefs() []tui.CommandDef {
	var defs []tui.CommandDef
	for _, c := range commands() {
		defs = append(defs, c.def)
	}
	return append(defs,
		tui.Alias(packCommand().def, "proof verify", "STORY"),
		tui.Alias(commentCommand().def, "proof comment", ""),
		tui.Alias(authCommand().def, "auth status", ""),
	)
}

// Commands is the same table for readers outside the command layer: the
// docs' tests check that the README names every command and flag in it.
func Commands() []tui.CommandDef { return commandDefs() }

// commandFor is the table's command named name (an Invocation's Command,
// which the parser took from the table); the zero command when none is.
func commandFor(name string) (command, bool) {
	for _, c := range commands() {
		if c.def.Name == name {
			return c, true
		}
	}
	return command{}, false
}

// route is the run this invocation takes: the command's batch when a
// host agent runs it (agentBatch), else its own run.
func (c command) route(w wiring) func(wiring) int {
	if c.batch != nil && agentBatch(w.inv, w.e) {
		return c.batch
	}
	return c.run
}

// agentBatch says an invocation of a human-only step becomes a batch item
// for the person: a host agent's lane with no terminal (hostBatchLane: a
// marked shell with a terminal keeps the presence check, as seed 001's orb
// Terminal tab), not a CI run (CI stays refused), not --dry-run (which
// writes nothing) and with its argument given (else the command's own
// usage error). aayu's own lane was refused before (refuseAayuLane).
func agentBatch(inv tui.Invocation, e env) bool {
	ci, _, _ := identity.CIRun(e.getenv)
	return hostBatchLane(e) && !ci && !inv.Global.DryRun && !inv.Global.CI && len(inv.Args) > 0
}

// needsToken says whether c's invocation talks to GitHub as the person.
func (c command) needsToken(inv tui.Invocation) bool {
	return c.token == nil || c.token(inv)
}

// never is a token or offline rule for a command that never does.
func never(tui.Invocation) bool { return false }

// runScreen opens the screen build makes as the bottom of its program's
// screen stack (tui.Stack), so the screens it opens share its program,
// and runs it; Close releases what it was built with.
func (w wiring) runScreen(build func() (tui.Screen, error)) int {
	screen, err := build()
	if err != nil {
		return reportOpen(w.e, w.inv.Command, err)
	}
	if c, ok := screen.(tui.Closer); ok {
		defer c.Close()
	}
	code, err := tui.Run(w.ctx, screen, runOptions(w.inv, w.e, w.common))
	if err != nil && !errors.Is(err, tui.ErrInterrupted) {
		fmt.Fprintf(w.e.stderr, "aayu: %v\n", err)
	}
	return code
}

// screenRun is the run of a command that is its screen.
func screenRun(build func(w wiring) (tui.Screen, error)) func(wiring) int {
	return func(w wiring) int { return w.runScreen(func() (tui.Screen, error) { return build(w) }) }
}
