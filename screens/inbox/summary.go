package inbox

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/tui"
)

// tally is what an inbox session did: the writes that landed or failed,
// and how each screen it opened ended.
type tally struct {
	done, failed int
	opened       []openedScreen
}

type openedScreen struct {
	line string // "ship #4: shipped … (exit 0)"
	code int
	// looked: a screen that only shows (the pack viewer, verify): what
	// it found is what the person looked at, and sets no exit code.
	looked bool
}

// openedLine names a screen the inbox opened and says how it ended, from
// its last "result: " line (ship's outcome is the line before it).
func openedLine(a away, msg tui.ReturnedMsg) openedScreen {
	name := fmt.Sprintf("%s, Story #%d", a.what, a.number)
	if a.what == "ship" {
		name = fmt.Sprintf("ship #%d", a.number)
	}
	how := fmt.Sprintf("exit %d", msg.Code)
	for i := len(msg.Transcript) - 1; i >= 0; i-- {
		l := msg.Transcript[i]
		if r, ok := strings.CutPrefix(l, "result: "); ok {
			how = r
			if a.what == "ship" && i > 0 {
				how = strings.TrimSuffix(msg.Transcript[i-1], ".")
				if !strings.Contains(how, "(exit ") {
					how += fmt.Sprintf(" (exit %d)", msg.Code)
				}
			}
			break
		}
	}
	return openedScreen{line: tui.SanitizeLine(name + ": " + how), code: msg.Code, looked: a.what == "pack" || a.what == "verify"}
}

// sayQuitSummary is the plain q's last lines: what this session wrote,
// each screen it opened and how it ended, where the actions log is, and
// the code the run exits with (the worst of them, SPEC §3).
func (m *Model) sayQuitSummary() {
	if !m.c.Plain || m.opts.List {
		return
	}
	code := m.code
	m.say("summary of this inbox session:")
	m.say(fmt.Sprintf("  inbox: %s written, %s", describeCount(m.writes.tally.done, "choice", "choices"), describeCount(m.writes.tally.failed, "write failed", "writes failed")))
	for _, o := range m.writes.tally.opened {
		m.say("  " + o.line)
		if !o.looked {
			code = tui.Worst(code, o.code)
		}
	}
	if m.deps.ActionsLog != "" {
		m.say("  the actions log keeps every write, one file a day, in " + tui.SanitizeLine(m.deps.ActionsLog))
	}
	m.say(fmt.Sprintf("  exit %d, the worst of what this session did (a pack or verify looked at sets none).", code))
}
