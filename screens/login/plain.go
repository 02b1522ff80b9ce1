package login

import (
	"fmt"
	"strings"
	"time"

	"github.com/aayudha/aayu/tui"
)

// plainLegend is said once, at the top of the plain transcript.
const plainLegend = `Keys: type "enter" to open the link in a browser, or for a new code once the code expires; type "q" to stop waiting.`

const plainChoices = `Type "enter" or "q".`

// header is the request in words: what needs approval, the command and each
// change it makes. The same lines open the plain transcript and the screen.
func (m *Model) header() []string {
	r := m.req
	verb := commandName(r.Command)
	what := verb + " needs a person's approval."
	if r.Repo != "" {
		what = verb + " on " + tui.SanitizeLine(r.Repo) + " needs a person's approval."
	}
	lines := []string{what, "  Command: " + tui.SanitizeLine(r.Command)}
	for _, a := range r.Approving {
		lines = append(lines, "  Approving: "+tui.SanitizeLine(a))
	}
	return lines
}

// commandName is the command's verb: "ship" for "aayu ship 4 --solo-bypass".
func commandName(command string) string {
	f := strings.Fields(tui.SanitizeLine(command))
	switch {
	case len(f) == 0:
		return "This step"
	case f[0] == "aayu" && len(f) > 1:
		return f[1]
	}
	return f[0]
}

// expiryWords is "expires in 15 minutes, at 22:41 UTC".
func (m *Model) expiryWords(left time.Duration) string {
	return fmt.Sprintf("expires in %s, at %s UTC", inWords(left), m.codeShown.expiresAt.UTC().Format("15:04"))
}

// sayCode writes the plain lines for a new code, as the seed shows them.
func (m *Model) sayCode(expiresIn time.Duration) {
	m.say(fmt.Sprintf("  On any device, open %s and enter %s (%s).", tui.SanitizeLine(m.codeShown.uri), m.codeShown.userCode, m.expiryWords(expiresIn)))
	m.say("  Approve only if you asked for this command. Waiting...")
}

// countdownMarks are the times left at which plain mode says how long is
// left: every whole minute, then 30 and 10 seconds.
func countdownMarks(total time.Duration) []time.Duration {
	var marks []time.Duration
	for t := total.Truncate(time.Minute); t >= time.Minute; t -= time.Minute {
		if t < total {
			marks = append(marks, t)
		}
	}
	for _, t := range []time.Duration{30 * time.Second, 10 * time.Second} {
		if t < total {
			marks = append(marks, t)
		}
	}
	return marks
}

// narrateCountdown adds one plain line when the time left passes a mark; a
// screen reader hears the countdown without a flood of lines, and nothing is
// ever redrawn. Only the lowest mark passed is said, so a late tick does not
// say several at once.
func (m *Model) narrateCountdown() {
	left := m.codeShown.expiresAt.Sub(m.codeShown.now)
	var passed time.Duration = -1
	for _, t := range countdownMarks(m.codeShown.spoken) {
		if left <= t {
			passed = t
		}
	}
	if passed < 0 {
		return
	}
	m.codeShown.spoken = passed
	m.say(fmt.Sprintf("  %s left to approve (the code expires at %s UTC).", inWords(passed), m.codeShown.expiresAt.UTC().Format("15:04")))
}

// approvedLine is the last line of a successful check.
func (m *Model) approvedLine() string {
	s := m.session
	return fmt.Sprintf("Approved by @%s (%s, %s access).", tui.SanitizeLine(s.Login), s.Method, s.Access)
}
