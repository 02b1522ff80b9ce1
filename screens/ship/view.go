package ship

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
)

// View draws one line per gate, filled in as the run reports, the runs
// passed over under the pack gate, and the outcome.
func (m *Model) View() tea.View {
	if m.presence.sub != nil {
		return m.presence.sub.View()
	}
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

func (m *Model) render() string {
	w, h := max(m.c.Width, 20), max(m.c.Height, 8)
	st := m.c.Styles
	var body []string
	body = append(body, st.Title.Render(fmt.Sprintf("aayu ship #%d", m.opts.PR)))
	switch {
	case m.question.confirm != nil:
		body = append(body, m.confirmView(w)...)
	case m.packView.showPack:
		body = append(body, m.packLines(w)...)
	default:
		if m.refusedOutright() {
			// A refusal leads with its reason: the first thing on the screen
			// is why nothing was merged, then the gates that say so.
			body = append(append(body, ""), m.outcomeLines(w)...)
		}
		body = append(body, "")
		body = append(body, m.gateLines(w)...)
		if !m.refusedOutright() {
			body = append(body, "")
			body = append(body, m.outcomeLines(w)...)
		}
	}
	return m.scrolled(body, w, h)
}

// gateLines is one line per gate, its state word in a fixed column, with
// the run of steps a refusal left "not reached" folded into one line.
func (m *Model) gateLines(w int) []string {
	st := m.c.Styles
	var body []string
	gates := core.Gates()
	for i := 0; i < len(gates); i++ {
		g := gates[i]
		line := m.run.gates[g]
		// The state word leads, in a fixed column, so the eye runs down
		// one column to see what passed.
		word := fmt.Sprintf("%-9s", stateWord(line.state))
		switch line.state {
		case core.Passed:
			word = st.OK.Render(word)
		case core.Refused, core.Failed:
			word = st.Failed.Render(word)
		case core.Running:
			word = st.Warning.Render(word)
		default:
			word = st.Subtle.Render(word)
		}
		text := g.Title() + optional(" — ", line.words)
		if titles, n := m.notReached(gates[i:]); n > 1 {
			text = fmt.Sprintf("%d steps not reached (%s) — %s", n, strings.Join(titles, ", "),
				strings.TrimPrefix(line.words, "not reached: "))
			body = append(body, hang(word+" ", text, w)...)
			i += n - 1
			continue
		}
		if line.state == core.Running && spins(g) && !m.c.Plain {
			text += "  " + m.waited(line)
		}
		body = append(body, hang(word+" ", text, w)...)
		for _, d := range line.detail {
			if strings.Contains(line.words, d) {
				continue // the gate's words already say it, on the line above
			}
			body = append(body, hang(strings.Repeat(" ", 12), tui.SanitizeLine(d), w)...)
		}
	}
	return body
}

// notReached counts the run of gates at the start of gates that were
// skipped for the same "not reached" reason, with their titles.
func (m *Model) notReached(gates []core.GateID) ([]string, int) {
	first := m.run.gates[gates[0]]
	if first.state != core.Skipped || !strings.HasPrefix(first.words, "not reached") {
		return nil, 0
	}
	var titles []string
	for _, g := range gates {
		l := m.run.gates[g]
		if l.state != core.Skipped || !strings.HasPrefix(l.words, "not reached") || len(l.detail) > 0 {
			break
		}
		titles = append(titles, g.Title())
	}
	return titles, len(titles)
}

// refusedOutright says the run ended in a refusal: nothing merged, nothing
// failed.
func (m *Model) refusedOutright() bool {
	r := m.run.result
	return r != nil && m.run.err == nil && !r.Shipped && !r.Merged
}

// refusal is the first gate that refused, in words, or "".
func (m *Model) refusal() string {
	for _, g := range core.Gates() {
		if l := m.run.gates[g]; l.state == core.Refused {
			return g.Title() + optional(" — ", l.words)
		}
	}
	return ""
}

func (m *Model) outcomeLines(w int) []string {
	st := m.c.Styles
	r := m.run.result
	var s string
	switch {
	case r == nil:
		s = "checking every gate…"
	case m.run.err != nil && r.Unfinished != "":
		s = st.Warning.Render("not finished") + ": " + landedWords(*r)
	case m.run.err != nil && r.Merged:
		s = st.Warning.Render("merged, not finished") + ": " + tui.SanitizeLine(m.run.err.Error()) + ". Run aayu ship again; it will not merge twice."
	case m.run.err != nil && errors.Is(m.run.err, core.ErrMergeUnknown):
		s = st.Failed.Render("failed") + ": " + tui.Sentence(tui.SanitizeLine(m.run.err.Error())) + fmt.Sprintf(" It may have merged: run aayu ship %d again to find out.", m.opts.PR)
	case m.run.err != nil:
		s = st.Failed.Render("failed") + ": " + tui.Sentence(tui.SanitizeLine(m.run.err.Error())) + " Nothing was merged."
	case r.Shipped:
		s = st.OK.Render("shipped") + fmt.Sprintf(": merged as %s; the record is on the ledger at %s.", tui.SanitizeLine(r.MergeCommit), tui.SanitizeLine(r.LedgerDir))
	case r.Merged:
		s = st.Warning.Render("merged, not finished") + ": " + tui.SanitizeLine(r.Unfinished) + ". Run aayu ship again; it will not merge twice."
	case r.Cancelled:
		s = st.Warning.Render("cancelled") + ": you did not answer yes, so nothing was merged and nothing landed."
	default:
		s = st.Failed.Render("refused") + ": nothing was merged and nothing landed."
		if why := m.refusal(); why != "" {
			return append(wrapLinks(s, w), hang("because: ", why, w)...)
		}
	}
	return wrapLinks(s, w)
}

func (m *Model) packLines(w int) []string {
	if m.packView.packWidth != w {
		// Wrapped once per width, not once per frame.
		m.packView.packWrapped, m.packView.packWidth = []string{"the merge gate's pack, as verified:"}, w
		for _, l := range m.packView.packSummary {
			m.packView.packWrapped = append(m.packView.packWrapped, tui.WrapLinks(tui.SanitizeLine(l), w, " /")...)
		}
	}
	return m.packView.packWrapped
}

// hang wraps text after a lead (the state word's column) and indents the
// continuation lines under the text, so the state column stays clear.
func hang(lead, text string, w int) []string {
	indent := ansi.StringWidth(lead)
	if w-indent < 20 {
		return wrapLinks(lead+text, w)
	}
	lines := wrapLinks(text, w-indent)
	pad := strings.Repeat(" ", indent)
	for i := range lines {
		if i == 0 {
			lines[i] = lead + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return lines
}

// confirmView is the one question ship asks before it writes: every write
// listed, and the two answers worded so neither can be mistaken.
func (m *Model) confirmView(w int) (body []string) {
	st := m.c.Styles
	p := *m.question.confirm
	lines := confirmLines(p)
	wrap := func(s string) []string { return wrapLinks(s, w) }
	intro := wrap(lines[0])
	rest := lines[1:]
	var bypass []string
	if p.Bypass {
		bypass = wrap(st.Warning.Render("Solo-mode bypass") + ": " + strings.TrimPrefix(rest[0], "This is your Solo-mode bypass: "))
		rest = rest[1:]
	}
	list := wrap(rest[0])
	for i, wr := range p.Writes {
		list = append(list, hang(fmt.Sprintf("  %d. ", i+1), tui.SanitizeLine(wr), w)...)
	}
	var warnings []string
	for _, wr := range p.Warnings {
		warnings = append(warnings, wrap(st.Warning.Render("Warning from the pack")+", "+wr.String())...)
	}
	answers := append(hang(st.OK.Render("y          ")+"  ", "yes: write all of these", w),
		hang(st.Failed.Render("n/esc/enter")+"  ", "no: write nothing", w)...)
	// Every write is listed; the viewport scrolls a list taller than the
	// terminal, and the yes waits until its end has been in view.
	for _, part := range [][]string{intro, bypass, warnings, list, answers} {
		if len(part) > 0 {
			body = append(append(body, ""), part...)
		}
	}
	return body
}

// writesHidden says the last write of the confirmation has not yet been
// in view: a yes must be to writes the person could see.
func (m *Model) writesHidden() bool {
	if m.question.confirm == nil || m.c.Plain {
		return false
	}
	return !m.scroll.SeenEnd()
}
