package ghx

import (
	"bytes"
	"io"
	"net/http"
	"strings"
)

// redacted stands where a token's value was in text a server sent.
const redacted = "***"

// minRedactLen is the shortest token value redacted from answers: a
// shorter one (only a test's) would match ordinary text and garble it,
// while every token GitHub issues is far longer.
const minRedactLen = 8

// redactTransport strips every token value this client holds from what a
// server sends back — the status line, the headers, and the body of any
// error answer or of any JSON or text answer — before anything above it
// (the log, the cache, the retries, go-github's error decoding, and so
// every screen, failure card and actions-log entry) sees it. A server
// that echoes the Authorization header in an error message therefore
// cannot make aayu show or log the token. It sits right above the wire
// (below the auth layer) so this is the one place that rule lives.
// Binary success bodies (an artifact's zip) pass untouched: they are
// hashed, never shown.
type redactTransport struct {
	next    http.RoundTripper
	secrets [][]byte
}

func newRedactTransport(next http.RoundTripper, tokens ...Token) http.RoundTripper {
	var secrets [][]byte
	for _, t := range tokens {
		if v := t.Reveal(); len(v) >= minRedactLen {
			secrets = append(secrets, []byte(v))
		}
	}
	if len(secrets) == 0 {
		return next
	}
	return &redactTransport{next: next, secrets: secrets}
}

func (t *redactTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Status = string(t.redact([]byte(resp.Status)))
	for key, values := range resp.Header {
		for i, v := range values {
			values[i] = string(t.redact([]byte(v)))
		}
		resp.Header[key] = values
	}
	if resp.Body != nil && t.shown(resp) {
		resp.Body = &redactReader{src: resp.Body, t: t, keep: t.longest() - 1}
		// The length changes with each value removed; readers go by the body.
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	}
	return resp, nil
}

// shown reports an answer whose body may reach a person: every error, and
// any success whose type is JSON or text.
func (t *redactTransport) shown(resp *http.Response) bool {
	if resp.StatusCode >= 300 {
		return true
	}
	ct := strings.ToLower(resp.Header.Get("Content-Type"))
	return ct == "" || strings.Contains(ct, "json") || strings.HasPrefix(ct, "text/")
}

func (t *redactTransport) longest() int {
	n := 0
	for _, s := range t.secrets {
		n = max(n, len(s))
	}
	return n
}

func (t *redactTransport) redact(b []byte) []byte {
	for _, s := range t.secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(redacted))
		}
	}
	return b
}

// redactReader streams a body with every secret replaced, holding back the
// last keep bytes of what it has read until more arrive: a secret split
// between two reads is then whole before any of it is passed on.
type redactReader struct {
	src  io.ReadCloser
	t    *redactTransport
	keep int
	// win is the one buffer a body is read through, allocated once: a
	// capped body streamed at us must cost its cap, not several copies of
	// it per read (TestTransportRefusesHugeJSONBody).
	win   []byte
	carry []byte // read, redacted, but possibly the start of a secret
	ready []byte // safe to hand out
	err   error  // the source's error, returned once carry is out
}

// redactChunk is how much one read of the source asks for.
const redactChunk = 32 << 10

func (r *redactReader) Read(p []byte) (int, error) {
	for len(r.ready) == 0 {
		if r.err != nil {
			if len(r.carry) == 0 {
				return 0, r.err
			}
			r.ready, r.carry = r.t.redact(r.carry), nil
			continue
		}
		if r.win == nil {
			r.win = make([]byte, 0, r.keep+redactChunk)
		}
		// The carried tail (at most keep bytes, so a whole chunk still fits
		// behind it) moves to the front; copy allows the overlap.
		w := r.win[:copy(r.win[:cap(r.win)], r.carry)]
		n, err := r.src.Read(w[len(w):cap(w)])
		w = r.t.redact(w[:len(w)+n])
		r.err = err
		switch cut := len(w) - r.keep; {
		case err != nil:
			r.ready, r.carry = w, nil
		case cut <= 0:
			r.carry = w // not enough yet to rule out a secret's start
		default:
			r.ready, r.carry = w[:cut], w[cut:]
		}
	}
	n := copy(p, r.ready)
	r.ready = r.ready[n:]
	return n, nil
}

func (r *redactReader) Close() error { return r.src.Close() }
