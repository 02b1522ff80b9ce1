package actions

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestQueueNeverTwoOnOneItem runs many writes on a few items and records
// how many run at once, overall and per item, under -race.
func TestQueueNeverTwoOnOneItem(t *testing.T) {
	q := NewQueue(context.Background(), 2)
	var mu sync.Mutex
	perKey := map[string]int{}
	maxPerKey, total, maxTotal := 0, 0, 0
	order := map[string][]int{}
	const jobs, keys = 60, 5
	for i := range jobs {
		key := fmt.Sprintf("acme/benefits#%d", i%keys)
		q.Submit(Job{ID: fmt.Sprint(i), Key: key, Run: func(ctx context.Context) error {
			mu.Lock()
			perKey[key]++
			total++
			maxPerKey = max(maxPerKey, perKey[key])
			maxTotal = max(maxTotal, total)
			order[key] = append(order[key], i)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			perKey[key]--
			total--
			mu.Unlock()
			return nil
		}})
	}
	for range jobs {
		select {
		case <-q.Results():
		case <-time.After(10 * time.Second):
			t.Fatal("jobs did not finish")
		}
	}
	if maxPerKey != 1 {
		t.Errorf("%d writes ran at once on one item, want 1", maxPerKey)
	}
	if maxTotal != 2 {
		t.Errorf("%d writes ran at once, want at most and (with this load) exactly 2", maxTotal)
	}
	for key, ids := range order {
		for i := 1; i < len(ids); i++ {
			if ids[i] < ids[i-1] {
				t.Errorf("%s: job %d ran before job %d, submitted earlier", key, ids[i], ids[i-1])
			}
		}
	}
}

func TestQueueDropWaitingKeepsRunningOnes(t *testing.T) {
	q := NewQueue(context.Background(), 2)
	release := make(chan struct{})
	started := make(chan string, 10)
	for i := range 5 {
		id := fmt.Sprint(i)
		q.Submit(Job{ID: id, Key: "k" + id, Run: func(ctx context.Context) error {
			started <- id
			<-release
			return nil
		}})
	}
	<-started
	<-started
	dropped := q.DropWaiting()
	if len(dropped) != 3 {
		t.Fatalf("dropped %d jobs, want the 3 not yet started", len(dropped))
	}
	close(release)
	go func() {
		for range q.Results() {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := q.Wait(ctx); err != nil {
		t.Fatalf("waiting for the running writes: %v", err)
	}
	select {
	case id := <-started:
		t.Fatalf("dropped job %s started", id)
	default:
	}
}
