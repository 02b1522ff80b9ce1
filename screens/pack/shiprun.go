package pack

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// ShipChoice is the merge-gate run ship would take for the pull request
// the pack names, and ship's verdict on it (actions/ship.SelectRun: ship's
// own rule, read-only).
type ShipChoice struct {
	RunID   int64 // 0: ship takes no run (Verdict says why)
	Attempt int
	Head    string // the pull request's head the run proves
	// Verdict is ship's gate-3 line on that run, in ship's words; it can
	// quote a pack's contents, so it is shown sanitised.
	Verdict    string
	FloorsHold bool
}

// shipMsg ends asking which run ship would take; seq is the fetch it was
// asked for, so an answer about a pack no longer shown is dropped.
type shipMsg struct {
	seq    int
	choice ShipChoice
	err    error
}

// askShip asks which run ship would take when the pack on the screen does
// not verify: the person then sees whether ship passes over it, and for
// which run. Nil when there is nothing to ask.
func (m *Model) askShip() tea.Cmd {
	st := m.story
	if st == nil || st.opts.ShipRun == nil || m.verifying.report == nil || m.verifying.report.Verified() || st.pr == 0 {
		return nil
	}
	st.shipAsking, st.ship, st.shipErr = true, nil, nil
	ctx, ask, pr, seq := m.ctx, st.opts.ShipRun, st.pr, st.seq
	return func() tea.Msg {
		c, err := ask(ctx, pr)
		return shipMsg{seq: seq, choice: c, err: err}
	}
}

// gotShip records ship's run and says it in the transcript; plain mode
// ends here.
func (m *Model) gotShip(msg shipMsg) tea.Cmd {
	st := m.story
	if st == nil || msg.seq != st.seq || !st.shipAsking {
		return nil
	}
	st.shipAsking = false
	if msg.err != nil {
		st.shipErr = msg.err
	} else {
		c := msg.choice
		st.ship = &c
	}
	for _, l := range m.shipWords() {
		m.say(l)
	}
	if m.c.Plain || m.c.CI {
		return m.quit()
	}
	return nil
}

// shownRun is the run that built the pack on the screen, 0 when unknown.
func (m *Model) shownRun() int64 {
	if id := m.story.current.RunID; id != 0 {
		return id
	}
	if m.verifying.report != nil && m.verifying.report.Pack != nil {
		return m.verifying.report.Pack.Authority.RunID
	}
	return 0
}

// shipWords say which run ship would take, unstyled: the transcript's
// lines, and the screen's under their label.
func (m *Model) shipWords() []string {
	st := m.story
	switch {
	case st == nil:
		return nil
	case st.shipAsking:
		return []string{"ship: reading which run ship would take…"}
	case st.shipErr != nil:
		return []string{"ship: which run ship would take could not be read: " + tui.SanitizeLine(st.shipErr.Error())}
	case st.ship == nil:
		return nil
	}
	c := st.ship
	verdict := "ship's verdict: " + tui.SanitizeLine(c.Verdict)
	switch {
	case c.RunID == 0:
		return []string{"ship: would take no run for pull request #" + fmt.Sprint(st.pr), verdict}
	case c.RunID == m.shownRun():
		return []string{fmt.Sprintf("ship: would take this run (run %d, attempt %d, head %s)", c.RunID, c.Attempt, gitsha.Short(c.Head)), verdict}
	}
	return []string{fmt.Sprintf("ship: passes over this pack and would take another run: run %d, attempt %d, head %s", c.RunID, c.Attempt, gitsha.Short(c.Head)), verdict}
}

// shipLines are shipWords styled for the screen: the label stands out, in
// the verdict's colour once ship's verdict is known.
func (m *Model) shipLines() []string {
	words := m.shipWords()
	if len(words) == 0 {
		return nil
	}
	st := m.c.Styles
	label := st.Warning.Render("ship")
	if c := m.story.ship; c != nil && c.FloorsHold {
		label = st.OK.Render("ship")
	} else if c != nil || m.story.shipErr != nil {
		label = st.Failed.Render("ship")
	}
	out := []string{label + words[0][len("ship"):]}
	return append(out, words[1:]...)
}
