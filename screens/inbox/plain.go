package inbox

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/tui"
)

// plainPrompt is the plain twin's place in the list: the number each card
// was listed under, and the card last asked about. A card keeps the number
// the person saw it listed under for the whole session (a card that left
// leaves a gap; one that arrived later takes the next number), so "card 4",
// "x 4" and "copy 4" always mean the card listed as 4; and a card is asked
// about once, not again each time a read lands.
type plainPrompt struct {
	number map[string]int // card ID -> the number it is listed under
	last   int            // the highest number given so far
	asked  string         // the card ID last asked about, or askedEnd
	// endAt: the number of cards when the last one was answered; until a
	// read lists more than that, there are "No more cards".
	endAt int
	// at is len(lines) right after the waiting question was said: while it
	// is, the question is the last line (keepQuestionLast).
	at int
	// question is the waiting confirmation, note or quit question, said
	// again word for word; a card's question is said anew by askCurrent.
	question string
	// holding: another screen is on top (ship, pack, verify, the presence
	// check), and the inbox's lines from held on wait, so none lands
	// between that screen's question and its answer.
	holding bool
	held    int
}

// askedEnd marks "No more cards" as the last prompt said.
const askedEnd = "\x00end"

// renumber numbers the cards as a fresh list shows them: 1 to len.
func (p *plainPrompt) renumber(ids []string) {
	p.number = make(map[string]int, len(ids))
	for i, id := range ids {
		p.number[id] = i + 1
	}
	p.last = len(ids)
}

// numberOf is the card's number, given once: a card first seen after the
// list was printed takes the next number.
func (p *plainPrompt) numberOf(id string) int {
	if p.number == nil {
		p.number = map[string]int{}
	}
	n, ok := p.number[id]
	if !ok {
		p.last++
		n = p.last
		p.number[id] = n
	}
	return n
}

// sayList prints every card once, numbered, grouped. The first list
// numbers the cards 1 to n; a list printed again later in the session
// keeps each card's number (a card that arrived since takes the next one),
// so a number the person wrote down never comes to mean another card.
func (m *Model) sayList() {
	if len(m.list.steps) == 0 {
		m.say("Nothing waits for you. Job well done.")
		return
	}
	if m.plain.number == nil {
		ids := make([]string, len(m.list.steps))
		for i, st := range m.list.steps {
			ids[i] = st.ID()
		}
		m.plain.renumber(ids)
	}
	needs := m.list.needsYouN
	verb := map[bool]string{true: "waits", false: "wait"}[len(m.list.steps) == 1]
	m.say(fmt.Sprintf("%s %s: %d %s you, %d housekeeping (as GitHub had them at %s%s).", describeCount(len(m.list.steps), "step", "steps"), verb, needs, map[bool]string{true: "needs", false: "need"}[needs == 1], len(m.list.steps)-needs,
		clock(m.feed.readAt), map[bool]string{true: "; stale: the last read failed", false: ""}[m.feed.stale]))
	for _, st := range m.list.steps {
		lines := m.cardLines(st)
		m.say(fmt.Sprintf("card %d: %s", m.plain.numberOf(st.ID()), lines[0]))
		for _, l := range lines[1:] {
			m.say("  " + l)
		}
	}
}

// askCurrent prints the card being asked about in plain mode, unless it
// was the last one asked about: a read landing does not ask again. again
// asks even so, after other lines came between (a cancel, another screen,
// the list printed anew).
func (m *Model) askCurrent(again bool) {
	st, ok := m.list.current()
	if !ok || m.opts.List {
		return
	}
	if m.plain.endAt >= len(m.list.steps) {
		if again || m.plain.asked != askedEnd {
			m.plain.asked = askedEnd
			m.sayQuestion("No more cards. r refreshes; q quits.")
		}
		return
	}
	if !again && m.plain.asked == st.ID() {
		return
	}
	m.plain.asked = st.ID()
	m.sayQuestion(fmt.Sprintf("card %d of %d: %s #%d. Choose: a number, enter for the recommendation, s to skip.", m.plain.numberOf(st.ID()), max(m.plain.last, len(m.list.steps)), st.Kind.Words(), st.Item.Number))
}

// sayQuestion says a card's question (or "No more cards"): the line the
// next typed line answers.
func (m *Model) sayQuestion(l string) {
	m.say(l)
	m.plain.at, m.plain.question = len(m.lines), ""
}

// asked marks the line just said as the question waiting for its answer
// (a confirmation, a note, the quit question), to be said again word for
// word while it waits.
func (m *Model) asked() {
	if len(m.lines) > 0 {
		m.plain.at, m.plain.question = len(m.lines), m.lines[len(m.lines)-1]
	}
}

// keepQuestionLast is plain mode's one rule on order, applied after every
// message: the question a typed line answers is always the last line
// printed. Whatever was printed after it — a background write's result, a
// read landing, a refusal, details, a link, the keys — the question is said
// again under it, so every result comes before the question the person is
// answering. A background write is never waited for: the next card's
// question does not depend on it, and the queue keeps going. Nothing is
// asked again once input has ended or the inbox is quitting (nobody
// answers), nor while another screen on top asks its own question. A read
// the person asked for (r, or the one after a ship) is the one thing waited
// for: the cards the question is about may change with it, so the question
// comes after its "Refreshed" line.
func (m *Model) keepQuestionLast() {
	if !m.c.Plain || m.opts.List || m.done || m.quit.inputClosed || m.quit.quitting ||
		m.away.what != "" || m.plain.at == len(m.lines) || (m.feed.reading && m.feed.refreshAsked) {
		return
	}
	switch {
	case m.quit.quitAsk || m.pend != nil:
		if m.plain.question != "" {
			m.say(m.plain.question)
			m.plain.at = len(m.lines)
		}
	case m.plain.asked != "":
		m.askCurrent(true)
	}
}

// holdWhileAway keeps the inbox's lines off the page while another screen
// is on top, and lets them through when it is back (before the line on how
// that screen ended and the inbox's question).
func (m *Model) holdWhileAway() {
	away := m.c.Plain && m.away.what != ""
	if away && !m.plain.holding {
		m.plain.held = len(m.lines)
	}
	m.plain.holding = away
}

// advancePlain moves the plain twin to the next card.
func (m *Model) advancePlain() {
	if !m.c.Plain {
		return
	}
	if m.list.cursor < len(m.list.steps)-1 {
		m.list.cursor++
		m.askCurrent(false)
		return
	}
	m.plain.endAt = len(m.list.steps)
	m.plain.asked = askedEnd
	m.sayQuestion("No more cards. r refreshes; q quits.")
}

// cardNumbered finds the card listed under number n (plain "x N", "copy
// N"); what is refused says which numbers are listed.
func (m *Model) cardNumbered(word, arg string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err == nil {
		for i, st := range m.list.steps {
			if m.plain.number[st.ID()] == n {
				return i, true
			}
		}
	}
	var listed []string
	gaps := false
	for _, st := range m.list.steps {
		if k, ok := m.plain.number[st.ID()]; ok {
			listed = append(listed, strconv.Itoa(k))
			gaps = gaps || k != len(listed)
		}
	}
	switch {
	case len(listed) == 0:
		m.say(fmt.Sprintf("refused: %s wants a card number, and no card is listed; list lists them.", word))
	case !gaps:
		m.say(fmt.Sprintf("refused: %s wants a card number from 1 to %d, e.g. %s 2.", word, len(listed), word))
	default:
		m.say(fmt.Sprintf("refused: %s wants the number of a listed card (%s), e.g. %s %s.", word, strings.Join(listed, ", "), word, listed[0]))
	}
	return 0, false
}

// sayDetails prints the details of the current card's failure.
func (m *Model) sayDetails() {
	st, ok := m.list.current()
	if !ok {
		return
	}
	cs := m.writes.states[st.ID()]
	if cs == nil || cs.failure == nil {
		m.say("This card has no failure to show details of.")
		return
	}
	for _, d := range cs.failure.Details {
		m.say("details: " + tui.SanitizeLine(d))
	}
}
