package actions

import (
	"io"
	"net/http"
	"strings"
	"sync"
)

// fromNth answers 502 to the nth request match accepts and every later
// one, until stop: a GitHub that keeps failing a write, which ghx's
// retries of content-addressed creates and ref moves cannot ride out.
type fromNth struct {
	next  http.RoundTripper
	n     int
	match func(*http.Request) bool

	mu      sync.Mutex
	seen    int
	fired   int
	stopped bool
}

func (f *fromNth) RoundTrip(req *http.Request) (*http.Response, error) {
	f.mu.Lock()
	fire := false
	if !f.stopped && f.match(req) {
		f.seen++
		fire = f.seen >= f.n
		if fire {
			f.fired++
		}
	}
	f.mu.Unlock()
	if !fire {
		return f.next.RoundTrip(req)
	}
	body := "<html><body><h1>502 Bad Gateway</h1></body></html>"
	return &http.Response{StatusCode: http.StatusBadGateway, Status: "502 Bad Gateway", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/html"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: req}, nil
}

func (f *fromNth) stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
}

func (f *fromNth) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fired
}
