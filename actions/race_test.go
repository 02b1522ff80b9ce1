package actions

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// TestQueueNeverTwoWritesOnOneItemAgainstSandbox runs real sandbox writes
// through the Queue, two at a time, with every card pressed twice, and
// records how many run at once per item (run it with -race).
func TestQueueNeverTwoWritesOnOneItemAgainstSandbox(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	type press struct {
		kind  inbox.Kind
		item  int
		key   string
		note  string
		times int
	}
	presses := []press{
		{inbox.KindDecision, sandbox.DemoDecision, "1", "", 2},
		{inbox.KindDecision, sandbox.DemoDecisionOneWay, "1", "", 2},
		{inbox.KindMergedWithoutShip, sandbox.DemoStoryMergedNoShip, "1", "", 2},
		{inbox.KindBugFixMerged, sandbox.DemoBug, "1", "", 2},
		{inbox.KindReplaced, sandbox.DemoReplaced, "1", "", 1},
		{inbox.KindAudit, sandbox.DemoPRAudit, "1", "", 1},
		{inbox.KindNeedsReview, sandbox.DemoPRReview, "2", "read the copay rules", 1},
	}
	// The test plays the screen's part: each job the queue hands back runs
	// in its own goroutine (as a tea.Cmd would), its Outcome comes back on
	// a channel (as a message would), and only this goroutine touches q.
	q := NewQueue(2)
	type done struct {
		job Job
		out Outcome
	}
	var (
		mu               sync.Mutex
		perKey           = map[string]int{}
		maxPerKey, total int
		maxTotal         int
		outcomes         = map[int][]Outcome{}
		jobs             int
		results          = make(chan done)
	)
	start := func(js []Job) {
		for _, job := range js {
			go func() {
				mu.Lock()
				perKey[job.Key]++
				total++
				maxPerKey, maxTotal = max(maxPerKey, perKey[job.Key]), max(maxTotal, total)
				mu.Unlock()
				out := f.exec.Execute(context.Background(), job.Req)
				mu.Lock()
				perKey[job.Key]--
				total--
				mu.Unlock()
				results <- done{job, out}
			}()
		}
	}
	for _, p := range presses {
		req := request(t, f.step(p.kind, p.item), p.key, p.note)
		for i := range p.times {
			start(q.Submit(Job{ID: fmt.Sprintf("%d/%d", p.item, i), Key: ItemKey(f.exec.cfg.Owner, f.exec.cfg.Repo, req.Step.Item.Number), Req: req}))
			jobs++
		}
	}
	for range jobs {
		select {
		case r := <-results:
			if r.out.Failure != nil {
				t.Errorf("job %s: %v", r.job.ID, r.out.Failure)
			}
			outcomes[r.job.Req.Step.Item.Number] = append(outcomes[r.job.Req.Step.Item.Number], r.out)
			start(q.Done(r.job.ID))
		case <-time.After(2 * time.Minute):
			t.Fatal("the writes did not finish")
		}
	}
	if maxPerKey != 1 || maxTotal > 2 {
		t.Errorf("at most %d writes ran at once on one item and %d overall; want 1 and at most 2", maxPerKey, maxTotal)
	}
	for _, p := range presses {
		done, changed := 0, 0
		for _, o := range outcomes[p.item] {
			switch {
			case o.Done:
				done++
			case o.Changed:
				changed++
			}
		}
		if done != 1 || changed != p.times-1 {
			t.Errorf("#%d: %d done and %d changed of %d presses, want 1 done and the rest changed", p.item, done, changed, p.times)
		}
	}
	for _, n := range []int{1, 2, 9, 11, 13} {
		if got := f.commentsBy(n, "founder"); len(got) != 1 {
			t.Errorf("#%d has %d comments by founder, want 1: %q", n, len(got), got)
		}
	}
	if s := f.samples(); len(s) != 1 {
		t.Errorf("samples %+v, want one", s)
	}
	if _, ok := f.gitShow("ledger:reviews/6/" + f.srv.HeadSHA(6) + ".json"); !ok {
		t.Error("the review record is not on the ledger")
	}
}
