package gatecomment_test

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// loseFirstAnswer lets the first write through to GitHub and then answers
// 502, as when the proxy loses GitHub's answer: the write landed.
type loseFirstAnswer struct {
	next http.RoundTripper
	lost atomic.Int32
}

func (l *loseFirstAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if err != nil || req.Method == http.MethodGet || !l.lost.CompareAndSwap(0, 1) {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	body := "<html><body><h1>502 Bad Gateway</h1></body></html>"
	return &http.Response{StatusCode: http.StatusBadGateway, Status: "502 Bad Gateway", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/html"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: req}, nil
}

// TestUpsertWhoseAnswerWasLostPostsOnce: the create landed but its answer
// was lost; Upsert reads the comments again and finds it instead of
// posting a second gate comment.
func TestUpsertWhoseAnswerWasLostPostsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lose := &loseFirstAnswer{next: http.DefaultTransport}
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: strings.TrimSuffix(f.bot.BaseURL.String(), "/") + "/", Token: ghx.NewToken("sandbox-agent-bot", "test"),
		Base: lose, Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	body := gatecomment.Marker + "\nthe gate says so\n"
	if _, err := gatecomment.Upsert(f.ctx, c, owner, repo, sandbox.DemoPRReady, gatecomment.Marker, body, sandbox.BotLogin); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	if lose.lost.Load() != 1 {
		t.Fatal("the test lost no answer")
	}
	if n := len(f.gateComments()); n != 1 {
		t.Fatalf("%d gate comments after a lost answer, want 1", n)
	}
}
