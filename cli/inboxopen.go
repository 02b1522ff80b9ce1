package cli

import (
	"fmt"
	"strconv"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// inboxCommandScreen builds, for a story-loop card, the screen of the
// command it names — aayu ready STORY, or aayu plan STORY [--solo-bypass] —
// exactly as that command builds it from its own command line: the same
// refusals, presence check, reads and yes. The inbox opens it on top of
// itself.
func (w wiring) inboxCommandScreen(command string, story int, soloBypass bool) (tui.Screen, error) {
	inv := w.inv
	// The inbox's own flags (--list, --json) are none of theirs.
	inv.Command, inv.Args, inv.Flags = command, []string{strconv.Itoa(story)}, map[string]string{}
	w.inv = inv
	switch command {
	case model.CommandReady:
		return w.readyScreen()
	case model.CommandPlan:
		if soloBypass {
			inv.Flags["solo-bypass"] = "true"
		}
		return w.planScreen()
	}
	return nil, fmt.Errorf("the inbox opens no %q screen", command)
}
