package actions

import (
	"context"
	"sync"
)

// Job is one background write. Key names the pull request or issue it
// writes to (e.g. "acme/benefits#12"); the queue never runs two jobs with the
// same key at once, so two writes can never race on one item.
type Job struct {
	ID  string
	Key string
	Run func(ctx context.Context) error
}

// Result is a finished job.
type Result struct {
	ID  string
	Key string
	Err error
}

// Queue runs jobs in the background, at most Limit at once and never two on
// one key, in the order they were submitted (per key strictly; across keys a
// later job may start first when an earlier one waits for its key).
type Queue struct {
	limit   int
	ctx     context.Context
	results chan Result

	mu      sync.Mutex
	pending []Job
	running map[string]bool // keys under way
	active  int
	wg      sync.WaitGroup
}

// NewQueue returns a queue running at most limit jobs at once; ctx is handed
// to every job. Results arrive on Results in the order jobs finish.
func NewQueue(ctx context.Context, limit int) *Queue {
	if limit < 1 {
		limit = 1
	}
	return &Queue{limit: limit, ctx: ctx, results: make(chan Result, 256), running: map[string]bool{}}
}

// Results delivers each finished job. The screen reads it from a tea.Cmd.
func (q *Queue) Results() <-chan Result { return q.results }

// Submit adds a job; it starts as soon as a slot and its key are free.
func (q *Queue) Submit(j Job) {
	q.mu.Lock()
	q.pending = append(q.pending, j)
	q.wg.Add(1)
	q.dispatchLocked()
	q.mu.Unlock()
}

// dispatchLocked starts every pending job that may start now.
func (q *Queue) dispatchLocked() {
	keep := q.pending[:0]
	for _, j := range q.pending {
		if q.active < q.limit && !q.running[j.Key] {
			q.running[j.Key] = true
			q.active++
			go q.run(j)
			continue
		}
		keep = append(keep, j)
	}
	// Clear the tail so dropped jobs' closures can be collected.
	for i := len(keep); i < len(q.pending); i++ {
		q.pending[i] = Job{}
	}
	q.pending = keep
}

func (q *Queue) run(j Job) {
	err := j.Run(q.ctx)
	q.mu.Lock()
	delete(q.running, j.Key)
	q.active--
	q.dispatchLocked()
	q.mu.Unlock()
	q.results <- Result{ID: j.ID, Key: j.Key, Err: err}
	q.wg.Done()
}

// Counts reports how many jobs are under way and how many wait.
func (q *Queue) Counts() (running, waiting int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.active, len(q.pending)
}

// DropWaiting removes the jobs that have not started and returns them, so
// quitting can wait for only the writes under way: none is stopped half
// done, and the dropped ones never start.
func (q *Queue) DropWaiting() []Job {
	q.mu.Lock()
	defer q.mu.Unlock()
	dropped := append([]Job(nil), q.pending...)
	q.pending = nil
	for range dropped {
		q.wg.Done()
	}
	return dropped
}

// Wait blocks until every submitted job that was not dropped has finished,
// or ctx ends. Results must be drained for jobs to finish.
func (q *Queue) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { q.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
