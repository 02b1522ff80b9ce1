package inbox

// The write queue: which writes wait and which run (actions.Queue, two at
// a time, never two on one item), what happened to each card, and what
// this run wrote. Its Update takes a write's end; statusWord is its view
// of a card.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
	model "github.com/aayudha/aayu/model/inbox"
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
