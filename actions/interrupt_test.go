package actions

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// stopAfterFirstWrite cancels the write's context once the first write
// (the Decision's comment) has landed and been answered, as the second
// ctrl+c does while the label's check is under way.
type stopAfterFirstWrite struct {
	next      http.RoundTripper
	cancel    context.CancelFunc
	mu        sync.Mutex
	commented bool
	stopped   bool
}

func (s *stopAfterFirstWrite) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	if s.commented && !s.stopped {
		s.stopped = true
		s.cancel()
		s.mu.Unlock()
		return nil, context.Canceled
	}
	s.commented = s.commented || req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/comments")
	s.mu.Unlock()
	return s.next.RoundTrip(req)
}

// TestStoppedDecisionWriteIsLoggedInterruptedAndFinishedNextRun: a Decision
// stopped after its comment landed is recorded as interrupted with the
// comment it wrote; the next read shows it half done, recommending the
// accepted option and refusing the others; Enter then finishes it without a
// second comment.
func TestStoppedDecisionWriteIsLoggedInterruptedAndFinishedNextRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := &stopAfterFirstWrite{cancel: cancel}
	f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { stop.next = next; return stop })
	st := f.step(inbox.KindDecision, sandbox.DemoDecision)
	req := request(t, st, "2", "")
	out := f.exec.Execute(ctx, req)
	if out.Done || out.Failure == nil {
		t.Fatalf("a write stopped part-way reported done: %+v", out)
	}
	if len(out.Wrote) != 1 || !strings.Contains(out.Wrote[0], "comment") {
		t.Errorf("the outcome does not say the comment landed: %v", out.Wrote)
	}
	recs := f.records()
	if len(recs) != 1 || recs[0].Outcome != OutcomeInterrupted || len(recs[0].Writes) != 1 {
		t.Fatalf("the actions log does not record the stopped write as interrupted with what landed: %+v", recs)
	}
	if is := f.issue(sandbox.DemoDecision); is.GetState() != "open" || labelsOf(is)[inbox.LabelAccepted] {
		t.Fatalf("the stop did not leave the Decision half done (state %s, labels %v); the test proves nothing", is.GetState(), labelsOf(is))
	}

	next := f.step(inbox.KindDecision, sandbox.DemoDecision)
	if !strings.Contains(next.HalfDone, "option 2 was accepted in a comment") {
		t.Errorf("the next read shows a fresh card, not a half-done one: %q", next.HalfDone)
	}
	if next.Recommendation.Key != "2" {
		t.Errorf("the half-done card recommends option %q, not the accepted 2", next.Recommendation.Key)
	}
	if _, refusal := inbox.Pick(next, "1"); refusal == "" {
		t.Error("the half-done card lets another option be accepted beside the one already commented")
	}
	c, refusal := inbox.Pick(next, "enter")
	if refusal != "" {
		t.Fatalf("Enter on the half-done card: %s", refusal)
	}
	done := f.exec.Execute(context.Background(), Request{Step: next, Choice: c})
	if !done.Done {
		t.Fatalf("finishing the half-done Decision: %+v %+v", done, done.Failure)
	}
	is := f.issue(sandbox.DemoDecision)
	if is.GetState() != "closed" || !labelsOf(is)[inbox.LabelAccepted] {
		t.Errorf("the Decision is %s with labels %v after finishing it", is.GetState(), labelsOf(is))
	}
	if n := len(f.commentsBy(sandbox.DemoDecision, "founder")); n != 1 {
		t.Errorf("the founder's comments on the Decision: %d, want the one comment", n)
	}
}
