package inbox

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// The inbox is the home of aayu's screen stack (tui.Stack): ship, the pack
// viewer and verify open on top of it and come back to it as it was, its
// cursor, selection and running writes included.

// Opening hands the stack the screen to open on top, once.
func (m *Model) Opening() tui.Screen {
	o := m.opening
	m.opening = nil
	return o
}

// openShip opens the ship screen for pr. Ship asks for its own yes before
// it writes; from here it carries the inbox session's presence approval.
func (m *Model) openShip(pr int, solo bool) tea.Cmd {
	if m.writes.running > 0 {
		m.tell("Writes are under way; ship once they finish.")
		return nil
	}
	s, err := m.deps.OpenShip(pr, solo)
	if err != nil {
		m.tell(fmt.Sprintf("The ship screen for #%d could not open: %s", pr, tui.SanitizeLine(err.Error())))
		return nil
	}
	m.opening, m.away = s, away{what: "ship", number: pr}
	m.tell(fmt.Sprintf("Opening the ship screen for #%d.", pr))
	return nil
}

// openCommand opens the screen of aayu ready or aayu plan a story-loop
// card names; without one here (--list, CI, --dry-run) it says the
// command to run. That screen reads again and asks its own yes.
func (m *Model) openCommand(w model.Write) tea.Cmd {
	if m.deps.OpenCommand == nil || m.opts.DryRun {
		m.tell(fmt.Sprintf("Run: %s (its screen shows what it will write and asks first).", w.CommandLine()))
		return nil
	}
	if m.writes.running > 0 {
		m.tell(fmt.Sprintf("Writes are under way; run %s once they finish.", w.CommandLine()))
		return nil
	}
	s, err := m.deps.OpenCommand(w.Command, w.Number, w.Solo)
	if err != nil {
		m.tell(fmt.Sprintf("The %s screen for #%d could not open: %s", w.Command, w.Number, tui.SanitizeLine(err.Error())))
		return nil
	}
	m.opening, m.away = s, away{what: w.Command, number: w.Number}
	m.tell(fmt.Sprintf("Opening the %s screen for #%d (%s).", w.Command, w.Number, w.CommandLine()))
	return nil
}

// openStory opens the pack viewer (p) or verify (v) for the Story of the
// current card: the card's own item when it is a Story, else the Story its
// pull request links.
func (m *Model) openStory(what string) tea.Cmd {
	st, ok := m.list.current()
	if !ok {
		return nil
	}
	build := m.deps.OpenPack
	if what == "verify" {
		build = m.deps.OpenVerify
	}
	story, found := storyOf(st, m.feed.snap)
	switch {
	case build == nil:
		m.tell(fmt.Sprintf("The %s screen does not open from here in this mode.", what))
		return nil
	case !found:
		m.tell(fmt.Sprintf("%s #%d names no Story, so there is no pack to %s.", st.Kind.Words(), st.Item.Number, map[string]string{"pack": "show", "verify": "build"}[what]))
		return nil
	}
	s, err := build(story)
	if err != nil {
		m.tell(fmt.Sprintf("The %s screen for Story #%d could not open: %s", what, story, tui.SanitizeLine(err.Error())))
		return nil
	}
	m.opening, m.away = s, away{what: what, number: story}
	m.tell(fmt.Sprintf("Opening the %s screen for Story #%d.", what, story))
	return nil
}

// storyOf is the Story a card is about, if any: a Story card's own item,
// or the Story a pull request links (its story/N branch, or a Refs #N in
// its body naming an issue labelled as a Story).
func storyOf(st model.Step, snap *model.Snapshot) (int, bool) {
	switch st.Kind {
	case model.KindMergedWithoutShip, model.KindReplaced, model.KindNeedsReady:
		return st.Item.Number, true
	}
	for _, l := range st.Links {
		if !l.IsPR && strings.Contains(l.Role, "Story") {
			return l.Number, true
		}
	}
	if !st.Item.IsPR || snap == nil {
		return 0, false
	}
	for _, pr := range snap.PullRequests {
		if pr.Number != st.Item.Number {
			continue
		}
		for _, n := range model.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			for _, is := range snap.Issues {
				if is.Number == n && is.HasLabel(model.LabelStory) {
					return n, true
				}
			}
		}
	}
	return 0, false
}

// away is the screen opened on top of the inbox, while it shows.
type away struct {
	what   string // "ship", "pack", "verify", "ready" or "plan"
	number int    // the pull request or Story
}

// onReturned takes the inbox back from the screen it opened: one line on
// how it ended (its last words may not have fitted the terminal), then a
// refresh, since a ship changes what waits.
func (m *Model) onReturned(msg tui.ReturnedMsg) tea.Cmd {
	a := m.away
	m.away = away{}
	m.plain.at = -1 // its lines came between: the question again (keepQuestionLast)
	if a.what == "presence" {
		return m.onPresence(msg)
	}
	line := ""
	if a.what == "ship" {
		line = ShipEnded(a.number, msg.Transcript)
	} else if a.what != "" {
		line = fmt.Sprintf("Back from the %s screen for Story #%d.", a.what, a.number)
	}
	if line != "" {
		m.tell(line) // plain mode: on the page, after the screen's own lines
	}
	if a.what != "" {
		m.writes.tally.opened = append(m.writes.tally.opened, openedLine(a, msg))
	}
	if msg.Quitting {
		// The quit request that closed it comes here next: no refresh, and
		// the last line says how the ship it stopped ended.
		if a.what == "ship" {
			m.quit.shipStopped, m.quit.shipCode = line, msg.Code
		}
		return nil
	}
	if m.quit.inputClosed || !changesCards(a.what) {
		return nil // the card's question comes again under the line (keepQuestionLast)
	}
	cmd := m.refresh()
	// On the full screen the line on how the ship ended stays: this
	// refresh was not asked for, so its landing changes the cards and the
	// header's read time, not the message. The plain page says it landed.
	m.status.message, m.feed.refreshAsked = line, m.c.Plain
	return cmd
}

// changesCards says a screen opened from the inbox may have written what
// its cards are read from (ship, ready, plan), so coming back refreshes.
func changesCards(what string) bool {
	return what == "ship" || what == model.CommandReady || what == model.CommandPlan
}

// ShipEnded says in one line how a ship started from the inbox ended: the
// first gate that refused or failed, with its reason, else its outcome (the
// last line before "result: exit N").
func ShipEnded(pr int, transcript []string) string {
	outcome := ""
	for i := len(transcript) - 1; i >= 0 && outcome == ""; i-- {
		if l := transcript[i]; !strings.HasPrefix(l, "result: ") && !strings.HasPrefix(l, "  ") {
			outcome = l
		}
	}
	for _, l := range transcript {
		if !strings.HasPrefix(l, "  ") && (strings.Contains(l, ": refused — ") || strings.Contains(l, ": failed — ")) {
			return tui.SanitizeLine(fmt.Sprintf("aayu ship %d did not ship: %s", pr, l))
		}
	}
	if outcome == "" {
		return fmt.Sprintf("aayu ship %d ended.", pr)
	}
	return tui.SanitizeLine(fmt.Sprintf("aayu ship %d ended: %s", pr, outcome))
}

// onPresence takes the inbox back from the presence check it opened first:
// approved, it reads GitHub and may write as the person; otherwise it ends
// with the check's code and writes nothing.
func (m *Model) onPresence(msg tui.ReturnedMsg) tea.Cmd {
	if msg.Code != tui.ExitOK || m.deps.Approved == nil || !m.deps.Approved() {
		m.code = msg.Code
		if m.code == tui.ExitOK {
			m.code = tui.ExitRefused
		}
		m.say("The presence check did not approve this session; the inbox read nothing and wrote nothing.")
		return m.finish()
	}
	if m.deps.HumanCheck != nil {
		m.humanRefusal = m.deps.HumanCheck()
	}
	return m.start()
}
