package pack

import (
	"fmt"

	"github.com/aayudha/aayu/tui"
)

// storyHeader names the story and where the pack on the screen came from:
// the ledger's best (authoritative or advisory, with its ledger path), the
// local pack, or the gate's run artifact. A push's outcome follows.
func (m *Model) storyHeader() []string {
	st := m.c.Styles
	s := m.story
	out := []string{
		st.Title.Render(fmt.Sprintf("aayu pack story %d", s.opts.Story)) + " · " + st.Warning.Render(sourceTitle(s.current.Source)),
		tui.SanitizeLine(s.current.Label),
	}
	if s.confirm {
		out = append(out, st.Warning.Render("push?")+fmt.Sprintf(" Land .aayudha/proof/%d/ on the ledger as advisory? y pushes, any other key cancels.", s.opts.Story))
	} else if s.pushing {
		out = append(out, st.Warning.Render("pushing")+" the local pack to the ledger as advisory…")
	} else if s.notice != "" {
		out = append(out, s.notice) // sanitised when the push's outcome came in
	}
	return out
}

func sourceTitle(s Source) string {
	switch s {
	case SourceLocal:
		return "local pack"
	case SourceGate:
		return "gate's run artifact"
	}
	return "ledger's best"
}

func (m *Model) storyVerifyingLines() []string {
	st := m.c.Styles
	s := m.story
	what := "reading"
	switch s.loading {
	case SourceLedger:
		what += " the story's best pack on the ledger"
	case SourceLocal:
		what += " the local pack"
	case SourceGate:
		what += " the gate's run artifact"
	}
	lines := []string{
		st.Title.Render(fmt.Sprintf("aayu pack story %d", s.opts.Story)),
		"",
		st.Warning.Render(what) + " and verifying it…",
	}
	if p := m.verifying.progress; p.TotalFiles > 0 {
		lines = append(lines, progressLine(p), bar(max(m.c.Width, 20)-2, p.DoneBytes, p.TotalBytes))
	}
	return lines
}

func (m *Model) storyFailedLines(w int) []string {
	st := m.c.Styles
	s := m.story
	_ = w
	return []string{
		st.Title.Render(fmt.Sprintf("aayu pack story %d", s.opts.Story)),
		"",
		st.Failed.Render("failed") + fmt.Sprintf(": the %s could not be read.", sourceTitle(s.loading)),
		tui.SanitizeLine(m.verifying.err.Error()),
		"Nothing was verified. b reads the ledger's best again; l the local pack; g the gate's run artifact.",
	}
}
