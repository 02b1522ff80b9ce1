package ship

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// canCopy says whether c copies the pull request's link now: once the run
// has ended (its result is what the link is wanted for) and the link is
// known.
func (m *Model) canCopy() bool {
	return m.run.result != nil && m.opts.URL != "" && !m.packView.showPack && m.question.confirmReply == nil
}

// copyLink copies the pull request's link, and nothing else, through
// tui.Clipboard, which refuses a link that is not plain http(s).
func (m *Model) copyLink() tea.Cmd {
	cmd, err := m.c.Clipboard.CopyURL(m.opts.URL, fmt.Sprintf("the link to #%d", m.opts.PR))
	if err != nil {
		m.copied = fmt.Sprintf("Nothing was copied: the link to #%d is not a plain http(s) link.", m.opts.PR)
		return nil
	}
	return cmd
}
