package cli

import (
	"fmt"
	"strconv"

	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// inboxCommandScreen builds, for a story-loop card, the screen of the
// command it names — aayu ready STORY, or aayu plan STORY [--solo-bypass] —
// exactly as that command builds it from its own command line: the same
// refusals, presence check, reads and yes. The inbox opens it on top of
// itself.
func (w wiring) inboxCommandScreen(approval *identity.Session, command string, story int, soloBypass bool) (tui.Screen, error) {
	line := model.Write{Kind: model.WriteOpenCommand, Command: command, Number: story, Solo: soloBypass}.CommandLine()
	// The inbox session's approval covers the command, as it covers a ship
	// started from the inbox: named for this command, saying where it came
	// from.
	var given *identity.Session
	if approval != nil {
		s := *approval
		s.Command, s.Method = line, approval.Method+", this inbox session"
		given = &s
	}
	// Where the command would still ask for its own presence check (an
	// approval without the access it needs), it would run that check as a
	// second program under the inbox's: it is not opened, and the person
	// runs it.
	if d := w.here(line).With(given, line, identity.NeedFor(soloBypass)); d.Outcome != identity.Allowed {
		why := ""
		if d.Reason != "" {
			why = " (" + d.Reason + ")"
		}
		return nil, fmt.Errorf("%s needs its own presence check here%s, which does not open inside the inbox; run %s in its own terminal", line, why, line)
	}
	inv := w.inv
	// The inbox's own flags (--list, --json) are none of theirs.
	inv.Command, inv.Args, inv.Flags = command, []string{strconv.Itoa(story)}, map[string]string{}
	w.inv = inv
	switch command {
	case model.CommandReady:
		return w.readyScreenWith(given)
	case model.CommandPlan:
		if soloBypass {
			inv.Flags["solo-bypass"] = "true"
		}
		return w.planScreenWith(given)
	}
	return nil, fmt.Errorf("the inbox opens no %q screen", command)
}
