package cli

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// The lanes, as seed 001 draws them (SPEC §11 "Lanes"): aayu's own
// unattended lane (AAYU_AGENT=1: the MCP server, the loops) never waits for
// an approval and never starts one, so a human-only step there is refused
// at once, before any token is read or anything is written; a host agent's
// lane (a host marker) posts a batch for the person (batchcmd.go).

// refuseAayuLane refuses a human-only step (command.humanOnly) in aayu's
// own lane: exit 4, words naming the lane and the command the person runs,
// no device code, nothing written. --dry-run (which writes nothing and
// waits for nothing) and --ci (refused on its own path, as CI) are left to
// the command. done is false when the step is not refused here.
func refuseAayuLane(c command, inv tui.Invocation, e env) (code int, done bool) {
	if !c.humanOnly || inv.Global.DryRun || inv.Global.CI {
		return 0, false
	}
	if ci, _, _ := identity.CIRun(e.getenv); ci {
		return 0, false
	}
	if !identity.OwnLane(e.getenv) {
		return 0, false
	}
	command := personCommand(c, inv)
	d := identity.Here(identity.HumanCheck{Command: command, Env: e.getenv})
	fmt.Fprintf(e.stderr, "aayu %s: refused: %s. It is the person's act: aayu's own unattended lane (the MCP server, the loops) posts no batch and asks for no device code.\nThe person runs, at their own terminal: %s\nNothing was done.\n",
		inv.Command, tui.SanitizeLine(d.Reason), tui.SanitizeLine(command))
	return tui.ExitRefused, true
}

// personCommand is the command line the person runs for inv, as each
// verb writes its own (command.person: decide.Command, ready.Command, …);
// the words the agent typed, made safe, when they do not parse.
func personCommand(c command, inv tui.Invocation) string {
	if c.person != nil {
		if line := c.person(inv); line != "" {
			return line
		}
	}
	return strings.TrimSpace("aayu " + inv.Command + " " + strings.Join(inv.Args, " "))
}

// firstArg is inv's positional argument, or "".
func firstArg(inv tui.Invocation) string {
	if len(inv.Args) > 0 {
		return inv.Args[0]
	}
	return ""
}

// hostBatchLane says a human-only step here goes into a batch: a host
// agent's marker with no terminal (an agent's tool call). A marked shell
// with a terminal keeps the presence check, as seed 001's orb Terminal tab.
func hostBatchLane(e env) bool {
	lane, _ := identity.AgentLane(e.getenv)
	return lane && !identity.OwnLane(e.getenv) && !e.stdinIsTerminal
}
