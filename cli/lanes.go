package cli

import (
	"fmt"
	"strconv"
	"strings"

	decidecore "github.com/aayudha/aayu/actions/decide"
	build "github.com/aayudha/aayu/actions/packbuild"
	plancore "github.com/aayudha/aayu/actions/plan"
	readycore "github.com/aayudha/aayu/actions/ready"
	shipcore "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// The lanes, as seed 001 draws them (SPEC §11 "Lanes"): aayu's own
// unattended lane (AAYU_AGENT=1: the MCP server, the loops) never waits for
// an approval and never starts one, so a human-only step there is refused
// at once, before any token is read or anything is written; a host agent's
// lane (a host marker) posts a batch for the person (batchcmd.go).

// humanOnlyVerbs are the commands whose writes are the person's act and
// which, in an agent lane, would post a batch or ask for a device code.
var humanOnlyVerbs = map[string]bool{"decide": true, "ready": true, "plan": true, "ship": true, "approve": true}

// refuseAayuLane refuses a human-only step in aayu's own lane: exit 4,
// words naming the lane and the command the person runs, no device code,
// nothing written. --dry-run (which writes nothing and waits for nothing)
// and --ci (refused on its own path, as CI) are left to the command.
// done is false when the step is not refused here.
func refuseAayuLane(inv tui.Invocation, e env) (code int, done bool) {
	if !humanOnlyVerbs[inv.Command] || inv.Global.DryRun || inv.Global.CI {
		return 0, false
	}
	if ci, _, _ := identity.CIRun(e.getenv); ci {
		return 0, false
	}
	if !aayuLane(e.getenv) {
		return 0, false
	}
	command := personCommand(inv)
	d := identity.Here(identity.HumanCheck{Command: command, Env: e.getenv})
	fmt.Fprintf(e.stderr, "aayu %s: refused: %s. It is the person's act: aayu's own unattended lane (the MCP server, the loops) posts no batch and asks for no device code.\nThe person runs, at their own terminal: %s\nNothing was done.\n",
		inv.Command, tui.SanitizeLine(d.Reason), tui.SanitizeLine(command))
	return tui.ExitRefused, true
}

// personCommand is the command line the person runs for inv, as each
// verb writes its own (decide.Command, ready.Command, …); the words the
// agent typed, made safe, when they do not parse.
func personCommand(inv tui.Invocation) string {
	arg := ""
	if len(inv.Args) > 0 {
		arg = inv.Args[0]
	}
	switch inv.Command {
	case "decide":
		if picks, err := decidecore.ParsePicks(arg, inv.Flags["accept"]); err == nil {
			return decidecore.Command(picks)
		}
	case "ready":
		if story, err := build.ParseStory(arg); err == nil {
			return readycore.Command(story, inv.Flags["again"] == "true")
		}
	case "plan":
		if story, err := build.ParseStory(arg); err == nil {
			return plancore.Command(story, inv.Flags["solo-bypass"] == "true")
		}
	case "ship":
		if pr, err := strconv.Atoi(arg); err == nil && pr > 0 {
			c := shipcore.Command(pr)
			if inv.Flags["solo-bypass"] == "true" {
				c += " --solo-bypass"
			}
			return c
		}
	case "approve":
		if arg != "" {
			return "aayu approve " + strings.ToLower(strings.TrimSpace(arg))
		}
	}
	return strings.TrimSpace("aayu " + inv.Command + " " + strings.Join(inv.Args, " "))
}

// hostBatchLane says a ship or plan step here goes into a batch: a host
// agent's marker with no terminal (an agent's tool call). A marked shell
// with a terminal keeps the presence check, as seed 001's orb Terminal tab.
func hostBatchLane(e env) bool {
	lane, _ := identity.AgentLane(e.getenv)
	return lane && !aayuLane(e.getenv) && !e.stdinIsTerminal
}
