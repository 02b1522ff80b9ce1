package inbox

// The write queue: which writes wait and which run (actions.Queue, two at
// a time, never two on one item), what happened to each card, and what
// this run wrote. Its Update takes a write's end; statusWord is its view
// of a card.

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// startJobs runs each write the queue let start as its own command, whose
// message carries the Outcome back to Update; onJobDone then frees its
// slot. The queue is the model's state, touched only in Update, so the
// limit of two and the one-write-per-item rule need no lock, and Update
// starts no goroutine: Bubble Tea runs the commands.
func (q *writeQueue) startJobs(jobs []actions.Job) tea.Cmd {
	if len(jobs) == 0 {
		return nil
	}
	ctx, exec := q.writeCtx, q.exec
	cmds := make([]tea.Cmd, len(jobs))
	for i, j := range jobs {
		cmds[i] = func() tea.Msg { return jobDoneMsg{id: j.ID, outcome: exec(ctx, j.Req)} }
	}
	return tea.Batch(cmds...)
}

// submit hands one write to the queue: its card shows it writing, and it
// starts now if a slot and its item are free.
func (q *writeQueue) submit(j actions.Job, choice string) tea.Cmd {
	cs := q.state(j.ID)
	cs.running, cs.failure, cs.changed, cs.choice = true, nil, "", choice
	q.running++
	return q.startJobs(q.queue.Submit(j))
}

// Update takes a write's end: its slot and item are free, so the next
// writes start (the command returned). It returns the card's state and
// whether the write was one of a bulk.
func (q *writeQueue) Update(msg jobDoneMsg) (tea.Cmd, *cardState, bool) {
	next := q.startJobs(q.queue.Done(msg.id))
	q.running--
	cs := q.state(msg.id)
	cs.running = false
	_, wasBulk := q.bulkActive[msg.id]
	delete(q.bulkActive, msg.id)
	return next, cs, wasBulk
}

func (q *writeQueue) state(id string) *cardState {
	s, ok := q.states[id]
	if !ok {
		s = &cardState{takenOff: map[string]string{}}
		q.states[id] = s
	}
	return s
}

// statusWord is the queue's view of a card: the one word its row shows.
func (q *writeQueue) statusWord(st model.Step) string {
	cs := q.states[st.ID()]
	switch {
	case cs == nil:
		return ""
	case cs.running:
		return "writing"
	case cs.failure != nil || cs.changed != "":
		return "not done"
	case cs.done != nil:
		return "done"
	case cs.skipped:
		return "skipped"
	}
	return ""
}

// writeQueue is the writes: the queue that decides which may start, what
// happened to each card, and what this run wrote for the epilogue.
type writeQueue struct {
	queue      *actions.Queue                         // the writes waiting and under way (writes.go)
	exec       func(context.Context, Request) Outcome // runs one write (Deps.Execute)
	running    int
	states     map[string]*cardState
	bulkActive map[string]bool
	inBulk     bool            // submitBulk is handing cards to the queue
	finished   map[string]bool // cards whose every write landed in this run
	writeCtx   context.Context
	stopWrites context.CancelFunc // cancels the writes under way: the second ctrl+c only
	tally      tally              // what this session did, for the plain q's summary
	logLines   []string
	history    []string // what this run wrote or failed to write, for the epilogue
}

// notFinished drops the cards this run finished: every write of theirs
// landed, so no later read (one that started before the writes ended, or
// a refresh that missed a change made within the same second as the last
// read) brings a done card back. The next run reads them afresh.
func (q *writeQueue) notFinished(steps []model.Step) []model.Step {
	out := steps[:0:0]
	for _, st := range steps {
		if !q.finished[st.ID()] {
			out = append(out, st)
		}
	}
	return out
}

// noFailures says whether none of steps shows a failure.
// failedHere says whether a listed card shows a failure of this session's
// own write.
func (q *writeQueue) failedHere(steps []model.Step) bool {
	for _, st := range steps {
		if s := q.states[st.ID()]; s != nil && s.failure != nil && s.failedHere {
			return true
		}
	}
	return false
}

func (q *writeQueue) noFailures(steps []model.Step) bool {
	for _, st := range steps {
		if s := q.states[st.ID()]; s != nil && s.failure != nil {
			return false
		}
	}
	return true
}

// dropWaiting takes the writes that have not started off the queue and
// returns a line for each: nothing was written for it. The lines are in
// the history, so the full screen says them on closing.
func (q *writeQueue) dropWaiting() []string {
	var lines []string
	for _, j := range q.queue.DropWaiting() {
		q.running--
		q.state(j.ID).running = false
		st := j.Req.Step
		lines = append(lines, fmt.Sprintf("not done: %s #%d was not started; nothing was written for it.", st.Kind.Words(), st.Item.Number))
	}
	q.history = append(q.history, lines...)
	return lines
}

// failed records a write that failed: its card becomes a failure card,
// a failure no retry can fix takes its choice off the card, and the
// details (GitHub's own answer, untrusted) go to the log printed on quit.
func (q *writeQueue) failed(cs *cardState, label string, f *Failure) {
	q.tally.failed++
	cs.failure, cs.failedHere = f, true
	if !f.Retryable {
		cs.takenOff[cs.choice] = f.What
	}
	details := make([]string, len(f.Details))
	for i, d := range f.Details {
		details[i] = tui.SanitizeLine(d)
	}
	q.logLines = append(q.logLines, fmt.Sprintf("log: %s failed: %s", label, strings.Join(details, "; ")))
}

// landed records a write whose every part landed; a card with a step left
// by hand is not finished.
func (q *writeQueue) landed(cs *cardState, id string, o Outcome) {
	q.tally.done++
	cs.done, cs.failedHere = o.Wrote, false
	if o.ByHand != "" {
		cs.done = append(cs.done, "still to do by hand: "+o.ByHand)
		return
	}
	q.finished[id] = true
}

// takeLog returns the failures' log lines, said once.
func (q *writeQueue) takeLog() []string {
	l := q.logLines
	q.logLines = nil
	return l
}

// epilogue is what this run wrote, what did not finish, and the details
// of each failure; nil when it wrote nothing.
func (q *writeQueue) epilogue() []string {
	if len(q.history) == 0 {
		return nil
	}
	return append(append([]string(nil), q.history...), q.logLines...)
}
