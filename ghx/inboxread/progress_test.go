package inboxread_test

import (
	"context"
	"sync"
	"testing"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

func TestReadShowsItsPartsAsTheyArrive(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	var (
		mu    sync.Mutex
		parts []inbox.Snapshot
	)
	ctx := inboxread.WithProgress(context.Background(), func(s inbox.Snapshot) {
		mu.Lock()
		defer mu.Unlock()
		s.PRFacts[-1] = inbox.PRFacts{} // each part is the caller's own copy
		parts = append(parts, s)
	})
	whole, err := f.reader.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(parts) < 2 {
		t.Fatalf("the read showed %d parts before the whole, want the items and then their details", len(parts))
	}
	if _, touched := whole.PRFacts[-1]; touched {
		t.Error("a part shares its maps with the read still under way")
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(first.Issues) != len(whole.Issues) || len(first.IssueComments) != 0 {
		t.Errorf("the first part should hold every item and no details: %d issues of %d, %d with comments",
			len(first.Issues), len(whole.Issues), len(first.IssueComments))
	}
	if len(last.IssueComments[sandbox.DemoDecision]) == 0 {
		t.Error("the last part before the whole should hold the Decisions' comments")
	}
	needsYou := func(s inbox.Snapshot) int {
		n := 0
		for _, st := range inbox.Derive(s) {
			if st.Group == inbox.NeedsYou {
				n++
			}
		}
		return n
	}
	if needsYou(last) == 0 || needsYou(last) > needsYou(whole) {
		t.Errorf("needs-you cards: %d in the last part, %d in the whole", needsYou(last), needsYou(whole))
	}
}
