package inbox

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// interruption is a quit request (ctrl+c, SIGTERM, SIGHUP) being honoured:
// q without the question. No write starts after it; the writes under way
// finish, or, on a second request, are stopped and recorded as half done.
type interruption struct {
	why      string // "ctrl+c", "SIGTERM", …
	forced   bool   // the second request: the writes under way were stopped
	under    int    // writes under way when it came
	finished int    // of those, how many landed in full
	cut      int    // stopped part-way by the second request
	failed   int    // ended on a failure of their own
	dropped  int    // waiting, never started
}

// QuitsSafely marks the inbox as a screen that finishes its writes before
// it quits (tui.SafeQuitter).
func (m *Model) QuitsSafely() {}

// onQuitRequest stops new writes and finishes once the writes under way
// end. A second request cancels them: each comes back from the executor
// recorded in the actions log as interrupted, with what landed, and shows
// as a failure card (and, for a Decision, as half done on the next run).
func (m *Model) onQuitRequest(q tui.QuitRequestMsg) tea.Cmd {
	if m.done {
		return nil
	}
	// A question left unanswered is a no: nothing is written for it.
	m.pend, m.quit.quitAsk, m.list.filtering = nil, false, false
	if m.quit.stop == nil {
		m.quit.stop = &interruption{why: q.Why, under: m.writes.running}
		m.quit.stop.dropped = m.dropWaiting()
		m.quit.stop.under = m.writes.running
	}
	m.quit.quitting = true
	if m.writes.running == 0 {
		return m.finish()
	}
	if q.Force {
		m.quit.stop.forced = true
		m.writes.stopWrites()
		m.tell(fmt.Sprintf("%s again: stopping the %s now; each is recorded in the actions log as half done, with what landed…",
			q.Why, describeCount(m.writes.running, "write under way", "writes under way")))
		return nil
	}
	m.tell(fmt.Sprintf("%s: finishing %s before quitting; no new write starts. %s again stops %s and records what landed as half done.",
		q.Why, describeCount(m.writes.running, "write under way", "writes under way"), q.Why, map[bool]string{true: "it", false: "them"}[m.writes.running == 1]))
	return nil
}

// dropWaiting takes the writes that have not started off the queue, each
// said in a line: nothing was written for them. It returns how many.
func (m *Model) dropWaiting() int {
	dropped := m.writes.dropWaiting()
	for _, l := range dropped {
		m.say(l)
	}
	return len(dropped)
}

// quitState is a quit request being honoured, and the end of input.
type quitState struct {
	quitAsk  bool          // q while writes run: wait for all, or only those under way
	quitting bool          // finish once the writes being waited for are done
	stop     *interruption // ctrl+c or a quit signal being honoured (quit.go)
	// summaryOnQuit: q in plain mode asked for the summary, said once the
	// inbox finishes.
	summaryOnQuit bool
	shipStopped   string // how the ship a quit request closed ended, in one line
	shipCode      int    // and its exit code
	inputClosed   bool   // plain: standard input ended
}

// count counts how a write under way at the quit request ended.
func (q *quitState) count(o Outcome) {
	if q.stop == nil {
		return
	}
	switch {
	case o.Failure != nil && q.stop.forced:
		q.stop.cut++
	case o.Failure != nil || o.Changed:
		q.stop.failed++
	default:
		q.stop.finished++
	}
}

// line is the last line of an interrupted run: what the request found
// under way and what became of it, with the exit code the run ends with,
// given code so far: 1 when anything was cut short or failed, else ship's
// when the request closed a ship, else code.
func (q *quitState) line(code int) (string, int) {
	s := q.stop
	if s == nil {
		return "", code
	}
	line := fmt.Sprintf("stopped on %s", s.why)
	switch {
	case q.shipStopped != "":
		// The request closed the ship screen first; ship itself waited for
		// its write under way and said what landed.
		line += ": " + q.shipStopped
		if code == tui.ExitOK {
			code = q.shipCode
		}
	case s.under == 0:
		line += ": no write was under way, so nothing is half done"
	case s.cut > 0:
		line += fmt.Sprintf(": %s cut short by the second %s; the actions log records each as half done with what landed, and the next aayu inbox shows it to finish",
			describeCount(s.cut, "write was", "writes were"), s.why)
	case s.failed > 0:
		line += fmt.Sprintf(": the %s under way ended, %d of them not done (see above); nothing was cut in the middle",
			describeCount(s.under, "write", "writes"), s.failed)
	default:
		line += fmt.Sprintf(": the %s under way finished first; nothing is half done", describeCount(s.under, "write", "writes"))
	}
	if s.dropped > 0 {
		line += fmt.Sprintf("; %s not started", describeCount(s.dropped, "waiting write was", "waiting writes were"))
	}
	if (s.cut > 0 || s.failed > 0) && code == tui.ExitOK {
		code = tui.ExitFailed
	}
	return line + fmt.Sprintf(" (exit %d).", code), code
}
