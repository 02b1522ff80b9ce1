package ship

import (
	"fmt"
	"strings"

	core "github.com/aayudha/aayu/actions/ship"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// QuitsSafely marks ship as a screen that never quits in the middle of a
// write (tui.SafeQuitter).
func (m *Model) QuitsSafely() {}

// onQuitRequest is ctrl+c, SIGTERM or SIGHUP. Before any write it stops:
// at the confirmation it is a no (nothing written, exit 4); during the
// read-only gates the run is cancelled, as reads are. After the yes it
// waits for the write under way to land, then the run stops there
// (Ask.Stopped, read by the run after each step) and the result says what
// landed and what did not; a later aayu ship finishes the record without
// merging twice. A second request does not cut the write: ship has no half
// merge to record, and each write ends on its own timeout.
func (m *Model) onQuitRequest(q tui.QuitRequestMsg) tea.Cmd {
	switch {
	case m.done:
		return nil
	case m.run.result != nil:
		m.done = true // the verdict is on the page already
		return tea.Quit
	case m.run.stopWhy != "" && q.Force:
		m.say(fmt.Sprintf("%s again: still waiting for the write under way to land; ship never cuts a merge or a record in the middle. A third %s leaves at once; aayu ship %d then finds where it stands.", q.Why, q.Why, m.opts.PR))
		return nil
	case m.run.stopWhy != "":
		return nil
	}
	m.run.stopWhy = q.Why
	switch {
	case m.question.confirmReply != nil:
		m.say(fmt.Sprintf("%s at the confirmation is a no.", q.Why))
		m.answer(false) // the run ends refused: nothing written, exit 4
		return nil
	case m.question.confirmed:
		m.run.stopAfter.Store(true)
		m.say(fmt.Sprintf("%s: ship stops once the write under way lands, and says what landed; nothing is cut in the middle.", q.Why))
		return nil
	}
	// Only reads are under way (or the presence check): nothing to finish.
	m.run.cancel()
	if m.presence.sub != nil {
		m.presence.sub = nil // the check's reply is never awaited: the run is cancelled
	}
	m.code = tui.ExitFailed
	m.say(fmt.Sprintf("result: exit %d — stopped on %s before the confirmation: nothing was written; run aayu ship %d again to ship it.", m.code, q.Why, m.opts.PR))
	m.done = true
	return tea.Quit
}

// stopSuffix is the result line's account of a quit request, or "".
func (m *Model) stopSuffix() string {
	if m.run.stopWhy == "" || m.run.result == nil {
		return ""
	}
	res := m.run.result
	switch {
	case !m.question.confirmed:
		return fmt.Sprintf(" — %s at the confirmation: nothing was written", m.run.stopWhy)
	case res.Shipped:
		return fmt.Sprintf(" — %s came as the last write landed: shipped in full", m.run.stopWhy)
	case res.Recorded:
		return fmt.Sprintf(" — stopped on %s after the write under way landed: merged and recorded, the Story not updated; aayu ship %d finishes it without merging twice", m.run.stopWhy, m.opts.PR)
	case res.Merged:
		return fmt.Sprintf(" — stopped on %s after the write under way landed: merged, the record not finished; aayu ship %d finishes it without merging twice", m.run.stopWhy, m.opts.PR)
	case res.Unfinished != "":
		return fmt.Sprintf(" — stopped on %s after the write under way landed: the bypass comment posted, nothing merged; aayu ship %d finishes it", m.run.stopWhy, m.opts.PR)
	}
	return fmt.Sprintf(" — stopped on %s after the write under way landed: nothing was merged; aayu ship %d starts again from the gates", m.run.stopWhy, m.opts.PR)
}

// landedWords is a run that did not finish, said once from its result:
// what landed, what did not, and the one command that finishes it.
func landedWords(res core.Result) string {
	s := tui.SanitizeLine(res.Unfinished)
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return tui.Sentence(s)
}
