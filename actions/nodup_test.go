package actions

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// lostAnswer lets the first comment POST reach GitHub and loses its answer
// (a 502), then fails every read while dark is set, so neither the check
// after the POST nor the re-read after the failure can tell what landed.
type lostAnswer struct {
	next  http.RoundTripper
	match func(*http.Request) bool // the write whose answer is lost
	mu    sync.Mutex
	lost  bool
	dark  bool
}

func (l *lostAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	l.mu.Lock()
	lose := !l.lost && l.match(req)
	if lose {
		l.lost, l.dark = true, true
	}
	dark := l.dark && req.Method == http.MethodGet
	l.mu.Unlock()
	if dark {
		return answer(req, http.StatusInternalServerError, `{"message":"Server Error"}`), nil
	}
	resp, err := l.next.RoundTrip(req)
	if err != nil || !lose {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return answer(req, http.StatusBadGateway, "<html><body><h1>502 Bad Gateway</h1></body></html>"), nil
}

func answer(req *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: req}
}

// TestInboxCommentNeverPostedTwice: the comment reached GitHub but its
// answer was lost, and no read could tell (the check after the POST and the
// re-read after the failure both failed). Enter again finds the comment
// before posting and finishes the rest: one comment, every write once.
func TestInboxCommentNeverPostedTwice(t *testing.T) {
	t.Parallel()
	lost := &lostAnswer{match: methodPath(http.MethodPost, "/comments")}
	f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { lost.next = next; return lost })
	req := request(t, f.step(inbox.KindDecision, sandbox.DemoDecision), "1", "")
	again := lostThenAgain(t, f, lost, req)
	if got := f.commentsBy(sandbox.DemoDecision, "founder"); len(got) != 1 {
		t.Errorf("%d comments, want 1: %q", len(got), got)
	}
	is := f.issue(sandbox.DemoDecision)
	if is.GetState() != "closed" || !labelsOf(is)[inbox.LabelAccepted] {
		t.Errorf("#1 after Enter again: %s %v", is.GetState(), labelsOf(is))
	}
	if !strings.Contains(strings.Join(again.Wrote, "; "), "already there") {
		t.Errorf("the retry did not find the comment already there: %q", again.Wrote)
	}
}

// TestInboxHalfDoneStepFinishedAfterBlindFailure: the lease's removal
// landed but its answer was lost, and no read could tell what our own
// writes had changed. Enter again does not mistake our own change for
// someone else's: it finishes the step, each write once.
func TestInboxHalfDoneStepFinishedAfterBlindFailure(t *testing.T) {
	t.Parallel()
	lost := &lostAnswer{match: func(r *http.Request) bool {
		return r.Method == http.MethodDelete && strings.Contains(r.URL.Path, "/labels/")
	}}
	f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { lost.next = next; return lost })
	req := request(t, f.step(inbox.KindMergedWithoutShip, sandbox.DemoStoryMergedNoShip), "enter", "")
	lostThenAgain(t, f, lost, req)
	if got := f.commentsBy(sandbox.DemoStoryMergedNoShip, "founder"); len(got) != 1 {
		t.Errorf("%d comments, want 1: %q", len(got), got)
	}
	labels := labelsOf(f.issue(sandbox.DemoStoryMergedNoShip))
	if !labels[inbox.LabelMerged] || labels[inbox.LabelLease] {
		t.Errorf("labels after Enter again: %v", labels)
	}
}

// lostThenAgain executes req with lost's answer lost (it must fail, as one
// that can be tried again), then, with GitHub readable again, once more
// (Enter again: it must finish), and returns the second outcome.
func lostThenAgain(t *testing.T, f *fixture, lost *lostAnswer, req Request) Outcome {
	t.Helper()
	ctx := context.Background()
	out := f.exec.Execute(ctx, req)
	if out.Done || out.Failure == nil || !out.Failure.Retryable {
		t.Fatalf("first try: %+v", out)
	}
	lost.mu.Lock()
	lost.dark = false
	lost.mu.Unlock()
	again := f.exec.Execute(ctx, req)
	if !again.Done || again.Failure != nil {
		t.Fatalf("Enter again: %+v, failure %+v", again, again.Failure)
	}
	return again
}
