package inboxread

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
)

// fakeList serves a list of n numbers, 100 a page, with a random delay per
// page so that pages asked for together come back out of order, and
// counts the pages asked for at once.
type fakeList struct {
	n                 int
	inFlight, maxSeen atomic.Int32
	mu                sync.Mutex
	asked             []int
	fail              map[int]error
}

func (f *fakeList) fetch(ctx context.Context, lo *github.ListOptions) ([]int, *github.Response, error) {
	now := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		seen := f.maxSeen.Load()
		if now <= seen || f.maxSeen.CompareAndSwap(seen, now) {
			break
		}
	}
	f.mu.Lock()
	f.asked = append(f.asked, lo.Page)
	err := f.fail[lo.Page]
	f.mu.Unlock()
	select {
	case <-time.After(time.Duration(rand.IntN(3000)) * time.Microsecond):
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if err != nil {
		return nil, nil, err
	}
	last := (f.n + 99) / 100
	var items []int
	for i := (lo.Page - 1) * 100; i < min(lo.Page*100, f.n); i++ {
		items = append(items, i)
	}
	resp := &github.Response{LastPage: last}
	if lo.Page < last {
		resp.NextPage = lo.Page + 1
	}
	if lo.Page == last {
		resp.LastPage = 0 // GitHub names no last page on the last page
	}
	return items, resp, nil
}

// The pages of a list read side by side come back whole and in the list's
// order, with never more than pageWorkers of them asked for at once.
func TestListPagesSideBySideKeepOrderAndBound(t *testing.T) {
	t.Parallel()
	f := &fakeList{n: 4321}
	got, err := listPages(context.Background(), f.fetch)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != f.n {
		t.Fatalf("%d items, want %d", len(got), f.n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("item %d is %d: the pages came back out of order", i, v)
		}
	}
	if m := f.maxSeen.Load(); m > pageWorkers || m < 2 {
		t.Errorf("%d pages asked for at once, want 2..%d", m, pageWorkers)
	}
	if len(f.asked) != 44 {
		t.Errorf("%d pages asked for, want 44", len(f.asked))
	}
}

// A bounded list ends before its first item past the bound, and pages
// well past the bound's page are never asked for.
func TestListPagesUntilStopsAtTheBound(t *testing.T) {
	t.Parallel()
	f := &fakeList{n: 9000}
	got, err := listPagesUntil(context.Background(), f.fetch, func(v int) bool { return v >= 1234 })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1234 || got[1233] != 1233 {
		t.Fatalf("%d items, want 0..1233", len(got))
	}
	for _, p := range f.asked {
		if p > 13+pageWorkers {
			t.Errorf("page %d asked for; the bound is on page 13", p)
		}
	}
}

// A page that fails fails the list, naming the page, and the pages not
// yet asked for are not asked for.
func TestListPagesFailureIsNotAPartialList(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	f := &fakeList{n: 9000, fail: map[int]error{3: boom}}
	got, err := listPages(context.Background(), f.fetch)
	if !errors.Is(err, boom) || got != nil {
		t.Fatalf("got %d items, err %v; want the page's error and no list", len(got), err)
	}
	if len(f.asked) > 3+2*pageWorkers {
		t.Errorf("%d pages asked for after page 3 failed", len(f.asked))
	}
}
