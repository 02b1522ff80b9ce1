package inbox

import (
	"fmt"
)

// sayList prints every card once, numbered, grouped.
func (m *Model) sayList() {
	if len(m.steps) == 0 {
		m.say("Nothing waits for you. Job well done.")
		return
	}
	needs := m.needsYouN
	m.say(fmt.Sprintf("%s wait: %d %s you, %d housekeeping (as GitHub had them at %s%s).", describeCount(len(m.steps), "step", "steps"), needs, map[bool]string{true: "needs", false: "need"}[needs == 1], len(m.steps)-needs,
		clock(m.readAt), map[bool]string{true: "; stale: the last read failed", false: ""}[m.stale]))
	for i, st := range m.steps {
		lines := m.cardLines(st)
		m.say(fmt.Sprintf("card %d: %s", i+1, lines[0]))
		for _, l := range lines[1:] {
			m.say("  " + l)
		}
	}
}

// askCurrent prints the card being asked about in plain mode.
func (m *Model) askCurrent() {
	st, ok := m.current()
	if !ok || m.opts.List {
		return
	}
	if m.plainCur >= len(m.steps) {
		m.say("No more cards. r refreshes; q quits.")
		return
	}
	m.say(fmt.Sprintf("card %d of %d: %s #%d. Choose: a number, enter for the recommendation, s to skip.", m.cursor+1, len(m.steps), st.Kind.Words(), st.Item.Number))
}

// advancePlain moves the plain twin to the next card.
func (m *Model) advancePlain() {
	if !m.c.Plain {
		return
	}
	if m.cursor < len(m.steps)-1 {
		m.cursor++
		m.askCurrent()
		return
	}
	m.plainCur = len(m.steps)
	m.say("No more cards. r refreshes; q quits.")
}

// sayDetails prints the details of the current card's failure.
func (m *Model) sayDetails() {
	st, ok := m.current()
	if !ok {
		return
	}
	cs := m.states[st.ID()]
	if cs == nil || cs.failure == nil {
		m.say("This card has no failure to show details of.")
		return
	}
	for _, d := range cs.failure.Details {
		m.say("details: " + clean(d))
	}
}
