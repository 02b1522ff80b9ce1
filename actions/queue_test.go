package actions

import (
	"fmt"
	"slices"
	"testing"
)

func ids(jobs []Job) []string {
	out := []string{}
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	return out
}

func wantStarted(t *testing.T, step string, got []Job, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if g := ids(got); !slices.Equal(g, want) {
		t.Fatalf("%s: started %q, want %q", step, g, want)
	}
}

// TestQueueTwoAtATimeNeverTwoOnOneItem walks the queue by hand: a third
// write waits for a slot, a write on an item under way waits for that item
// although a slot is free, and each finished write starts the next.
func TestQueueTwoAtATimeNeverTwoOnOneItem(t *testing.T) {
	t.Parallel()
	q := NewQueue(2)
	wantStarted(t, "a on #1", q.Submit(Job{ID: "a", Key: "#1"}), "a")
	wantStarted(t, "b on #1", q.Submit(Job{ID: "b", Key: "#1"}))
	wantStarted(t, "c on #2", q.Submit(Job{ID: "c", Key: "#2"}), "c")
	wantStarted(t, "d on #3", q.Submit(Job{ID: "d", Key: "#3"}))
	if r, w := q.Counts(); r != 2 || w != 2 {
		t.Fatalf("counts %d running %d waiting, want 2 and 2", r, w)
	}
	// c's slot goes to d: b still waits for #1, which a holds.
	wantStarted(t, "c done", q.Done("c"), "d")
	wantStarted(t, "a done", q.Done("a"), "b")
	wantStarted(t, "a reported twice", q.Done("a"))
	wantStarted(t, "b done", q.Done("b"))
	wantStarted(t, "d done", q.Done("d"))
	if r, w := q.Counts(); r != 0 || w != 0 {
		t.Fatalf("counts %d running %d waiting after every job, want none", r, w)
	}
}

// TestQueueKeepsEachItemsOrder runs many writes on a few items through the
// queue, finishing the oldest running one each time, and checks the limit,
// the per-item exclusion and the per-item order at every step.
func TestQueueKeepsEachItemsOrder(t *testing.T) {
	t.Parallel()
	const jobs, keys = 60, 5
	q := NewQueue(2)
	var running []Job
	order := map[string][]int{}
	start := func(js []Job) {
		for _, j := range js {
			for _, r := range running {
				if r.Key == j.Key {
					t.Fatalf("%s started while %s runs on %s", j.ID, r.ID, j.Key)
				}
			}
			running = append(running, j)
			if len(running) > 2 {
				t.Fatalf("%d writes under way, want at most 2", len(running))
			}
			var n int
			fmt.Sscan(j.ID, &n)
			order[j.Key] = append(order[j.Key], n)
		}
	}
	for i := range jobs {
		start(q.Submit(Job{ID: fmt.Sprint(i), Key: fmt.Sprintf("acme/benefits#%d", i%keys)}))
	}
	for done := 0; len(running) > 0; done++ {
		j := running[0]
		running = running[1:]
		start(q.Done(j.ID))
		if done > jobs {
			t.Fatal("the queue never empties")
		}
	}
	total := 0
	for key, ns := range order {
		total += len(ns)
		if !slices.IsSorted(ns) {
			t.Errorf("%s: writes ran in the order %v, not as submitted", key, ns)
		}
	}
	if total != jobs {
		t.Errorf("%d of %d writes ran", total, jobs)
	}
}

// TestQueueDropWaitingKeepsRunningOnes: quitting while only the writes under
// way are waited for drops the rest, and a dropped write never starts.
func TestQueueDropWaitingKeepsRunningOnes(t *testing.T) {
	t.Parallel()
	q := NewQueue(2)
	for i := range 5 {
		q.Submit(Job{ID: fmt.Sprint(i), Key: fmt.Sprintf("k%d", i)})
	}
	dropped := q.DropWaiting()
	wantStarted(t, "dropped", dropped, "2", "3", "4")
	wantStarted(t, "0 done", q.Done("0"))
	wantStarted(t, "1 done", q.Done("1"))
	if r, w := q.Counts(); r != 0 || w != 0 {
		t.Fatalf("counts %d running %d waiting, want none", r, w)
	}
}

// TestQueueOneIDOneWriteUnderWay: a job waits while another with its ID
// runs, so each finished ID frees exactly one write.
func TestQueueOneIDOneWriteUnderWay(t *testing.T) {
	t.Parallel()
	q := NewQueue(2)
	wantStarted(t, "x on #1", q.Submit(Job{ID: "x", Key: "#1"}), "x")
	wantStarted(t, "x on #2", q.Submit(Job{ID: "x", Key: "#2"}))
	wantStarted(t, "x done", q.Done("x"), "x")
}
