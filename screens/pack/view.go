package pack

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// View draws the screen. Its cost is bounded by the terminal size: only the
// visible window of a list is rendered, however many artifacts a pack has.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

func (m *Model) render() string {
	w, h := max(m.c.Width, 20), max(m.c.Height, 8)
	var body []string
	switch {
	case m.view != nil:
		body = m.viewerLines(w, h-2)
	case m.verifying.phase == phaseVerifying:
		body = m.verifyingLines(w)
	case m.verifying.phase == phaseFailed && m.story != nil:
		body = m.storyFailedLines(w)
	case m.verifying.phase == phaseFailed:
		body = []string{
			m.c.Styles.Failed.Render("failed") + ": the pack folder could not be read.",
			tui.SanitizeLine(m.verifying.err.Error()),
			"Nothing was verified. Check the path and run aayu pack again.",
		}
	default:
		body = m.resultLines(w, h-1)
	}
	if m.view == nil && m.verifying.phase == phaseFailed {
		// Why a read failed ("the artifact expired") is read whole, never
		// cut with "…" at 40 or even 120 columns.
		var wrapped []string
		for _, l := range body {
			wrapped = append(wrapped, tui.WrapLinks(l, w, " ")...)
		}
		body = wrapped
	}
	return tui.Frame(body, w, h, tui.HelpLine(w, m.Keys(), m.c.Styles))
}

func (m *Model) verifyingLines(w int) []string {
	p := m.verifying.progress
	lines := []string{
		m.c.Styles.Title.Render("aayu pack") + " " + m.c.Styles.Subtle.Render(tui.SanitizeLine(m.opts.Dir)),
		"",
		m.c.Styles.Warning.Render("verifying") + "…",
	}
	if m.story != nil {
		lines = m.storyVerifyingLines()
	}
	if p.TotalFiles > 0 {
		lines = append(lines, progressLine(p), bar(w-2, p.DoneBytes, p.TotalBytes))
	}
	return lines
}

func bar(width int, done, total int64) string {
	if total <= 0 || width < 4 {
		return ""
	}
	filled := int(int64(width) * done / total)
	return "[" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "]"
}

// resultLines draws the header, the section tabs, the visible window of the
// selected section and a detail box for the row under the cursor.
func (m *Model) resultLines(w, h int) []string {
	st := m.c.Styles
	r := m.verifying.report
	var head []string
	if p := r.Pack; p != nil {
		head = append(head,
			st.Title.Render("aayu pack")+" "+identityLine(p),
			"head "+tui.SanitizeLine(p.PRHeadSHA)+" · "+tui.SanitizeLine(p.Authority.Kind)+runSuffix(p.Authority))
	} else {
		head = append(head, st.Title.Render("aayu pack")+" "+tui.SanitizeLine(m.opts.Dir))
	}
	if m.story != nil {
		rest := head[1:]
		if r.Pack != nil {
			rest = append([]string{identityLine(r.Pack)}, rest...)
		}
		head = append(m.storyHeader(), rest...)
	}
	head = append(head, m.verdictLine())
	if m.story != nil {
		head = append(head, m.shipLines()...)
	}
	head = append(head, "pack.json sha256 "+r.PackSHA256)
	if r.Rules != "" {
		head = append(head, st.Subtle.Render("rules: "+r.Rules))
	}
	// The header wraps rather than truncates: a hash or a head cut short
	// at 40 columns could not be compared to the byte.
	var wrapped []string
	for _, l := range head {
		wrapped = append(wrapped, tui.WrapLinks(l, w, " ")...)
	}
	head = append(wrapped, m.tabs(w))

	detail := m.detail(w)
	listHeight := max(1, h-len(head)-len(detail)-1)
	cur := m.cursor[m.sec]
	start := 0
	if cur >= listHeight {
		start = cur - listHeight + 1
	}
	n := m.rowCount(m.sec)
	end := min(n, start+listHeight)
	// Only the rows in the window are formatted: a pack of a thousand
	// artifacts draws as fast as one of ten.
	rows := m.rows(w, start, end)
	out := append(head, "")
	if n == 0 {
		out = append(out, st.Subtle.Render("  (none)"))
	}
	for i := start; i < end; i++ {
		line := "  " + rows[i-start]
		if i == cur {
			line = st.Selected.Render("> " + ansi.Strip(rows[i-start]))
		}
		out = append(out, line)
	}
	for len(out) < len(head)+1+listHeight {
		out = append(out, "")
	}
	return append(out, detail...)
}

func runSuffix(a proof.Authority) string {
	if a.RunID == 0 {
		return ""
	}
	return fmt.Sprintf(" · run %d", a.RunID)
}

func (m *Model) verdictLine() string {
	st := m.c.Styles
	r := m.verifying.report
	n := len(r.Problems)
	switch {
	case !r.Verified():
		return st.Failed.Render("does not verify") + fmt.Sprintf(" — %d %s · %s", n, tui.Plural(n, "problem", "problems"), r.HashedWords())
	case allWaived(r, m.verifying.waived):
		return st.OK.Render("verified") + ": " + r.HashedWords() + " · " + st.Warning.Render("floors hold or are waived") + ": " + failedFloorNames(r) + " waived"
	case !r.FloorsHold:
		return st.OK.Render("verified") + ": " + r.HashedWords() + " · " + st.Failed.Render("a floor does not hold") + ": " + failedFloorNames(r)
	}
	s := st.OK.Render("verified") + ": " + r.HashedWords() + " · " + st.OK.Render("floors hold")
	if r.ArtifactsNotStored > 0 {
		s += fmt.Sprintf(" · %d not stored", r.ArtifactsNotStored)
	}
	return s
}

// tabs names the sections; on a narrow terminal only the current one shows.
func (m *Model) tabs(w int) string {
	st := m.c.Styles
	var parts []string
	for i := range sectionCount {
		label := fmt.Sprintf("%d %s (%d)", i+1, sectionNames[i], m.rowCount(i))
		if i == m.sec {
			label = st.Selected.Render("[" + label + "]")
		} else {
			label = " " + label + " "
		}
		parts = append(parts, label)
	}
	line := strings.Join(parts, " ")
	if lipgloss.Width(line) <= w {
		return line
	}
	return st.Selected.Render(fmt.Sprintf("[%s (%d)]", sectionNames[m.sec], m.rowCount(m.sec))) +
		fmt.Sprintf(" %d/%d · tab: next", m.sec+1, sectionCount)
}

// rows formats the rows start..end of the current section.
func (m *Model) rows(w, start, end int) []string {
	r := m.verifying.report
	var rows []string
	switch m.sec {
	case secCriteria:
		for _, c := range r.Criteria[start:end] {
			word := m.c.Styles.Failed.Render("not proven")
			if c.Proven {
				word = m.c.Styles.OK.Render("proven    ")
			}
			rows = append(rows, fmt.Sprintf("%-3d %s %s", c.ID, word, tui.SanitizeLine(c.Text)))
		}
	case secArtifacts:
		for _, a := range r.Artifacts[start:end] {
			rows = append(rows, m.artifactRow(a, w))
		}
	case secChecks:
		if r.Pack != nil {
			rows = append(rows, m.checkRows(w)[start:end]...)
		}
	case secProblems:
		for _, p := range r.Problems[start:end] {
			rows = append(rows, tui.SanitizeLine(p.Message))
		}
	}
	return rows
}

func (m *Model) verdictWord(v proof.ArtifactVerdict) string {
	return m.verdictStyle(v, fmt.Sprintf("%-10s", v))
}

// verdictStyle colours s, an artifact verdict's word, by the verdict.
func (m *Model) verdictStyle(v proof.ArtifactVerdict, s string) string {
	switch v {
	case proof.VerdictVerified:
		return m.c.Styles.OK.Render(s)
	case proof.VerdictFailed:
		return m.c.Styles.Failed.Render(s)
	}
	return m.c.Styles.Warning.Render(s)
}

// checkRows lays the checks out as a table: floor, result, value, threshold,
// tool.
func (m *Model) checkRows(w int) []string {
	var rows []string
	for _, c := range m.verifying.report.Pack.Checks {
		val, thr := "-", "-"
		if c.Value != nil {
			val = number(*c.Value)
		}
		if c.Threshold != nil {
			thr = number(*c.Threshold)
		}
		word := fmt.Sprintf("%-8s", tui.ResultWord(c.Result))
		tool := tui.SanitizeLine(c.Tool)
		if w := m.verifying.waived[c.Floor]; w != "" {
			word, tool = m.c.Styles.Warning.Render(fmt.Sprintf("%-8s", proof.ResultWaived)), tui.SanitizeLine(w)
		} else if c.Result == proof.ResultFail || c.Result == proof.ResultBlocked {
			word = m.c.Styles.Failed.Render(word)
		} else {
			word = m.c.Styles.OK.Render(word)
		}
		rows = append(rows, fmt.Sprintf("%-12s %s %7s %7s  %s", tui.SanitizeLine(c.Floor), word, val, thr, tool))
	}
	_ = w
	return rows
}

// detail wraps the full facts of the row under the cursor into a few lines.
func (m *Model) detail(w int) []string {
	var text string
	r := m.verifying.report
	i := m.cursor[m.sec]
	switch m.sec {
	case secCriteria:
		if i < len(r.Criteria) {
			text = fmt.Sprintf("criterion %d: %s", r.Criteria[i].ID, criterionLine(r.Criteria[i]))
		}
	case secArtifacts:
		if i < len(r.Artifacts) {
			text = artifactDetail(r.Artifacts[i])
		}
	case secChecks:
		if r.Pack != nil && i < len(r.Pack.Checks) {
			text = checkLine(r.Pack.Checks[i])
			// The recomputed verdict, with why, replaces the check's own word.
			for _, f := range r.FailedFloors {
				if f.Floor == r.Pack.Checks[i].Floor && f.Result == r.Pack.Checks[i].Result {
					text = checkLine(f) + " — does not hold"
					break
				}
			}
		}
	case secProblems:
		if i < len(r.Problems) {
			text = tui.SanitizeLine(r.Problems[i].Message)
		}
	}
	if text == "" {
		return nil
	}
	text += optionalNote(m.media.note)
	// Room for a whole problem with its full hashes even at 40 columns.
	wrapped := strings.Split(lipgloss.Wrap(text, max(10, w-2), " /"), "\n")
	if len(wrapped) > 8 {
		wrapped = append(wrapped[:7], "… (the plain twin, --plain, prints it whole)")
	}
	return append([]string{strings.Repeat("─", w)}, wrapped...)
}

func (m *Model) viewerLines(w, h int) []string {
	st := m.c.Styles
	v := m.view
	out := []string{st.Title.Render("artifact") + " " + tui.SanitizeLine(v.path)}
	if v.media != nil {
		// Why an image is not shown is read whole, never cut with "…".
		for _, l := range m.mediaViewerLines() {
			out = append(out, tui.WrapLinks(l, w, " ")...)
		}
		return out
	}
	switch {
	case v.err != nil:
		out = append(out, st.Failed.Render("could not open")+": "+tui.SanitizeLine(v.err.Error()))
	case !v.loaded:
		out = append(out, "reading…")
	default:
		for _, l := range strings.Split(v.vp.View(), "\n") {
			out = append(out, strings.TrimRight(l, " ")) // the viewport pads each line to its width
		}
	}
	return out
}

// artifactDetail is an artifact's facts for the detail box; a media one's
// kind, size and keys too.
func artifactDetail(a proof.ArtifactResult) string {
	text := fmt.Sprintf("%s: %s; sha256 %s%s", tui.SanitizeLine(a.Artifact.Path), a.Verdict, tui.SanitizeLine(a.Artifact.SHA256), optional("; ", a.Reason))
	if isMedia(a.Artifact) {
		text += mediaDetail(a)
	}
	return text
}

// optionalNote is what the last o said, after a separator; "" for none.
func optionalNote(note string) string {
	if note == "" {
		return ""
	}
	return " · " + note
}

// artifactRow is one row of the artifacts list: verdict, kind, store, size
// and path in columns; under 60 columns the store (in the detail box) is
// left out and nothing is padded, so the kind and size stay in view.
func (m *Model) artifactRow(a proof.ArtifactResult, w int) string {
	kind, size, p := tui.SanitizeLine(a.Artifact.Kind), tui.HumanBytes(a.Artifact.Size), tui.SanitizeLine(a.Artifact.Path)
	if w < 60 {
		return fmt.Sprintf("%s %s %s %s", m.verdictStyle(a.Verdict, string(a.Verdict)), kind, size, p)
	}
	return fmt.Sprintf("%s %-13s %-5s %9s  %s", m.verdictWord(a.Verdict), kind, tui.SanitizeLine(a.Artifact.Store), size, p)
}
