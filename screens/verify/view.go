package verify

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// View draws the screen. Its cost is bounded by the terminal size: the
// output viewer renders only the lines in view.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

func (m *Model) render() string {
	w, h := max(m.c.Width, 20), max(m.c.Height, 8)
	var body []string
	if m.outputView.showOutput {
		body = m.outputLines(w, h-1)
	} else {
		body = m.mainLines(w)
	}
	return tui.Frame(body, w, h, tui.HelpLine(w, m.Keys(), m.c.Styles))
}

func (m *Model) mainLines(w int) []string {
	st := m.c.Styles
	about := fmt.Sprintf("story %d", m.deps.Story)
	if m.req.PR != 0 {
		about += fmt.Sprintf(" · pull request #%d", m.req.PR)
	}
	out := []string{tui.Header(st, "aayu verify", about, w)}
	if m.phase == phasePreparing {
		out = append(out, "", st.Warning.Render("preparing")+" the checkout…")
		if m.motion() {
			out = append(out, "")
			out = append(out, m.progressLines(1)...)
		}
		return out
	}
	if m.req.Dir != "" {
		out = append(out, st.Subtle.Render("checkout "+tui.SanitizeLine(m.req.Dir)))
	}
	out = append(out, "")
	for _, r := range m.steps {
		out = append(out, m.stepLine(r))
	}
	if m.phase == phaseRunning && m.motion() {
		out = append(out, "")
		room := max(m.c.Height, 8) - 1 - len(out)
		out = append(out, m.progressLines(room)...)
	}
	if m.phase == phaseDone {
		out = append(out, "")
		out = append(out, m.wrap(m.verdict(), w)...)
		for _, r := range m.steps {
			if r.state == stepFailed && r.detail != "" {
				out = append(out, m.wrap(st.Failed.Render(tui.SanitizeLine(r.name)+" failed")+": "+tui.SanitizeLine(r.detail), w)...)
			}
		}
		out = append(out, m.packLines(w)...)
	}
	return out
}

// stepLine is one floor: its state in words, its name, and what it is
// doing or how it ended.
func (m *Model) stepLine(r stepRow) string {
	st := m.c.Styles
	var word, info string
	switch r.state {
	case stepWaiting:
		word = st.Subtle.Render(fmt.Sprintf("%-8s", "waiting"))
	case stepRunning:
		word = st.Warning.Render(fmt.Sprintf("%-8s", "running"))
		info = tui.SanitizeLine(r.what)
		if r.test != "" {
			info = r.test
		}
	case stepPassed:
		word, info = st.OK.Render(fmt.Sprintf("%-8s", "passed")), tui.SanitizeLine(r.detail)
	case stepSkipped:
		word, info = st.Subtle.Render(fmt.Sprintf("%-8s", "skipped")), tui.SanitizeLine(r.detail)
	case stepFailed:
		word, info = st.Failed.Render(fmt.Sprintf("%-8s", "failed")), tui.SanitizeLine(r.detail)
	}
	return strings.TrimRight(fmt.Sprintf("%s %-11s %s", word, tui.SanitizeLine(r.name), info), " ")
}

func (m *Model) verdict() string {
	st := m.c.Styles
	switch {
	case m.err != nil:
		return st.Failed.Render("failed") + ": no pack was built: " + tui.SanitizeLine(m.err.Error())
	case m.outcome.Refusal != "":
		return st.Failed.Render("refused") + ": " + tui.SanitizeLine(m.outcome.Refusal)
	case !m.outcome.Report.Verified():
		return st.Failed.Render("does not verify") + ": " + strings.TrimSuffix(resultWords(m.outcome), " (exit 4)")
	case !m.outcome.Report.FloorsHold:
		return st.OK.Render("verified") + " · " + st.Failed.Render("a floor does not hold")
	}
	return st.OK.Render("verified") + " · " + st.OK.Render("every floor holds")
}

// packLines name the pack folder, its hash in full (wrapped, never cut:
// a hash cut short cannot be compared) and each criterion's verdict.
func (m *Model) packLines(w int) []string {
	o := m.outcome
	if o == nil || o.Refusal != "" || o.Report == nil {
		return nil
	}
	st := m.c.Styles
	var out []string
	out = append(out, m.wrap("pack "+tui.SanitizeLine(o.Dir), w)...)
	out = append(out, m.wrap("sha256 "+o.PackSHA256, w)...)
	for _, c := range o.Report.Criteria {
		word := st.Failed.Render("not proven")
		if c.Proven {
			word = st.OK.Render("proven    ")
		}
		line := fmt.Sprintf("%-2d %s %s", c.ID, word, tui.SanitizeLine(c.Text))
		if !c.Proven && c.Reason != "" {
			line += " (" + tui.SanitizeLine(c.Reason) + ")" // why, as the plain twin says it
		}
		out = append(out, m.wrap(line, w)...)
	}
	for _, p := range o.Report.Problems {
		out = append(out, m.wrap(st.Failed.Render("problem")+": "+tui.SanitizeLine(p.Message), w)...)
	}
	return out
}

func (m *Model) wrap(s string, w int) []string {
	return tui.WrapLinks(s, w, " /")
}

func (m *Model) outputLines(w, h int) []string {
	st := m.c.Styles
	n := len(m.output)
	title := st.Title.Render("test output") + fmt.Sprintf(" %d %s", n, tui.Plural(n, "line", "lines"))
	if page := m.outputView.out.VisibleLineCount(); n > page {
		from := m.outputView.out.YOffset() + 1
		title += st.Subtle.Render(fmt.Sprintf(" · %d–%d", from, min(n, from+page-1)))
	}
	if m.phase != phaseDone && m.motion() {
		title += " " + st.Warning.Render(m.ticking.spin.View()) + " " + elapsed(m.ticking.clock.Elapsed())
	}
	out := []string{title}
	if n == 0 {
		return append(out, st.Subtle.Render("(no output yet)"))
	}
	_, _ = w, h
	for _, l := range strings.Split(m.outputView.out.View(), "\n") {
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}
