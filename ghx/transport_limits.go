package ghx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Limits bound what one request may cost, so a slow, silent or hostile
// server (a body trickled a byte at a time, a 600 MB /user, a gzip bomb)
// ends in words instead of hanging aayu or filling its memory. The zero
// value means the defaults below; tests set small ones.
type Limits struct {
	// Timeout is the overall deadline of one request on the wire, headers
	// and body. Default 2 minutes.
	Timeout time.Duration
	// DownloadTimeout replaces Timeout once the answer turns out to be a
	// download (not JSON: an artifact's zip). Default 15 minutes.
	DownloadTimeout time.Duration
	// Idle is the longest silence while reading a body. Default 30 s.
	Idle time.Duration
	// MaxJSON caps a JSON body (what a request that accepts JSON gets, or
	// a body that says it is JSON), counted after decompression. Default 32 MiB.
	MaxJSON int64
	// MaxBody caps any other body after decompression. Default 2 GiB.
	MaxBody int64
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = 2 * time.Minute
	}
	if l.DownloadTimeout <= 0 {
		l.DownloadTimeout = 15 * time.Minute
	}
	if l.Idle <= 0 {
		l.Idle = 30 * time.Second
	}
	if l.MaxJSON <= 0 {
		l.MaxJSON = 32 << 20
	}
	if l.MaxBody <= 0 {
		l.MaxBody = 2 << 30
	}
	return l
}

// LimitKind says which limit a request ran into.
type LimitKind int

const (
	LimitDeadline LimitKind = iota + 1 // the overall deadline passed
	LimitIdle                          // the server went silent mid-body
	LimitSize                          // the body is larger than its cap
)

// LimitError is a request aayu stopped because it ran into a Limit. It is
// not retried: the same server would do the same again.
type LimitError struct {
	Kind   LimitKind
	Method string
	URL    string // masked
	Limit  time.Duration
	Cap    int64
	Size   int64 // the declared size, when the server declared one
}

func (e *LimitError) Error() string {
	where := e.Method + " " + pathOf(e.URL)
	switch e.Kind {
	case LimitIdle:
		return fmt.Sprintf("GitHub sent nothing for %s in the middle of answering %s, so aayu stopped waiting; nothing was changed by a read; try again, and check --api-url if it keeps happening", e.Limit, where)
	case LimitSize:
		if e.Size > 0 {
			return fmt.Sprintf("GitHub's answer to %s is %s, over the %s aayu reads for it, so aayu did not read it; nothing was changed by a read; check --api-url", where, bytesWord(e.Size), bytesWord(e.Cap))
		}
		return fmt.Sprintf("GitHub's answer to %s grew past the %s aayu reads for it, so aayu stopped reading; nothing was changed by a read; check --api-url", where, bytesWord(e.Cap))
	}
	return fmt.Sprintf("GitHub took longer than %s to answer %s, so aayu gave up; nothing is known to have changed; try again", e.Limit, where)
}

func bytesWord(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// limitTransport enforces Limits on every request, innermost in the stack
// so the retry and cache layers see the capped body.
type limitTransport struct {
	next   http.RoundTripper
	limits Limits
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	l := t.limits
	masked := MaskURL(req.URL.String())
	limitErr := func(kind LimitKind) *LimitError {
		return &LimitError{Kind: kind, Method: req.Method, URL: masked}
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	start := time.Now()
	deadline := time.AfterFunc(l.Timeout, func() {
		e := limitErr(LimitDeadline)
		e.Limit = l.Timeout
		cancel(e)
	})
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		deadline.Stop()
		cause := context.Cause(ctx)
		cancel(nil)
		var le *LimitError
		if errors.As(cause, &le) {
			return nil, le
		}
		return nil, err
	}
	json := strings.Contains(req.Header.Get("Accept"), "json") || strings.Contains(resp.Header.Get("Content-Type"), "json")
	capBytes := l.MaxJSON
	if !json {
		capBytes = l.MaxBody
		if l.DownloadTimeout > l.Timeout {
			e := limitErr(LimitDeadline)
			e.Limit = l.DownloadTimeout
			deadline.Stop()
			deadline = time.AfterFunc(l.DownloadTimeout-time.Since(start), func() { cancel(e) })
		}
	}
	if resp.ContentLength > capBytes && req.Method != http.MethodHead {
		deadline.Stop()
		resp.Body.Close()
		cancel(nil)
		e := limitErr(LimitSize)
		e.Cap, e.Size = capBytes, resp.ContentLength
		return nil, e
	}
	b := &limitedBody{rc: resp.Body, ctx: ctx, cancel: cancel, deadline: deadline, idle: l.Idle, left: capBytes,
		tooLarge: func() error { e := limitErr(LimitSize); e.Cap = capBytes; return e }}
	b.idleTimer = time.AfterFunc(time.Hour, func() {
		e := limitErr(LimitIdle)
		e.Limit = l.Idle
		cancel(e)
	})
	b.idleTimer.Stop()
	resp.Body = b
	return resp, nil
}

// limitedBody reads at most left bytes, with the idle timer running only
// while a Read waits, and turns a cancellation by a limit into its words.
type limitedBody struct {
	rc        io.ReadCloser
	ctx       context.Context
	cancel    context.CancelCauseFunc
	deadline  *time.Timer
	idleTimer *time.Timer
	idle      time.Duration
	left      int64
	tooLarge  func() error
	once      sync.Once
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.tooLarge()
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	b.idleTimer.Reset(b.idle)
	n, err := b.rc.Read(p)
	b.idleTimer.Stop()
	b.left -= int64(n)
	if b.left < 0 {
		b.finish()
		return 0, b.tooLarge()
	}
	if err != nil {
		var le *LimitError
		if errors.As(context.Cause(b.ctx), &le) {
			b.finish()
			return n, le
		}
		if err == io.EOF {
			b.finish()
		}
	}
	return n, err
}

func (b *limitedBody) Close() error {
	err := b.rc.Close()
	b.finish()
	return err
}

func (b *limitedBody) finish() {
	b.once.Do(func() {
		b.deadline.Stop()
		b.idleTimer.Stop()
		b.cancel(nil)
	})
}
