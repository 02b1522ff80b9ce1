package actions

// Job is one background write waiting for its turn. Key names the pull
// request or issue it writes to (e.g. "acme/benefits#12"); no two jobs with
// the same key run at once, so two writes can never race on one item. ID
// names the job's report; a job waits while another with its ID runs.
type Job struct {
	ID  string
	Key string
	Req Request
}

// Queue decides when each write may start: at most limit at once, never
// two on one key, in the order they were submitted (per key strictly;
// across keys a later job may start first while an earlier one waits for
// its key).
//
// It runs nothing and holds no lock: it is state of the screen that owns
// it, changed only from that screen's Update. Submit and Done hand back
// the jobs that may start now; the screen runs each as a tea.Cmd whose
// message carries the job's Outcome back to Update, which calls Done.
type Queue struct {
	limit   int
	pending []Job
	running map[string]string // job ID -> key, for the jobs under way
	busy    map[string]bool   // keys under way
}

// NewQueue returns a queue letting at most limit jobs run at once.
func NewQueue(limit int) *Queue {
	return &Queue{limit: max(limit, 1), running: map[string]string{}, busy: map[string]bool{}}
}

// Submit adds a job and returns the jobs to start now: it, when a slot and
// its key are free, or none.
func (q *Queue) Submit(j Job) []Job {
	q.pending = append(q.pending, j)
	return q.next()
}

// Done marks the job with this ID finished, freeing its slot and its key,
// and returns the waiting jobs that may start now. An ID not under way
// (a job already reported) frees nothing.
func (q *Queue) Done(id string) []Job {
	key, ok := q.running[id]
	if !ok {
		return nil
	}
	delete(q.running, id)
	delete(q.busy, key)
	return q.next()
}

// next moves every pending job that may start now to the running ones.
func (q *Queue) next() []Job {
	var start []Job
	keep := q.pending[:0]
	for _, j := range q.pending {
		_, again := q.running[j.ID] // one ID is one report: never two under way
		if len(q.running) < q.limit && !q.busy[j.Key] && !again {
			q.running[j.ID], q.busy[j.Key] = j.Key, true
			start = append(start, j)
			continue
		}
		keep = append(keep, j)
	}
	// Clear the tail so started jobs' requests can be collected.
	clear(q.pending[len(keep):])
	q.pending = keep
	return start
}

// Counts reports how many jobs are under way and how many wait.
func (q *Queue) Counts() (running, waiting int) { return len(q.running), len(q.pending) }

// DropWaiting removes the jobs that have not started and returns them, so
// quitting can wait for only the writes under way: none is stopped half
// done, and the dropped ones never start.
func (q *Queue) DropWaiting() []Job {
	dropped := q.pending
	q.pending = nil
	return dropped
}
