package ghx

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxDeviceAnswer bounds one answer of GitHub's OAuth device flow (a code,
// or a poll for the token): GitHub's are a few hundred bytes.
const MaxDeviceAnswer = 64 << 10

// ErrDeviceAnswerTooLarge says a device-flow answer was larger than
// MaxDeviceAnswer, so aayu stopped reading it and parsed none of it.
var ErrDeviceAnswerTooLarge = errors.New("GitHub's device-flow answer is larger than 64 KiB, more than any real answer; aayu stopped reading it and used none of it")

// DevicePoster is the one HTTP client the OAuth device flow
// (github.com/cli/oauth/device) posts through, for the login screen, a
// batch's device code and aayu init's check of a new App alike. It carries
// ctx into every request (cli/oauth honours ctx only between polls, so
// without it a cancelled screen would wait out a slow poll), and it fails
// an answer larger than MaxDeviceAnswer with ErrDeviceAnswerTooLarge rather
// than cutting it short: a cut answer must never be parsed as a whole one.
type DevicePoster struct {
	Ctx    context.Context
	Client *http.Client // nil: a 30-second client that follows redirects only on the same host
	// Status, when set, receives each answer's HTTP status.
	Status *int
}

// PostForm posts v to u as GitHub's device flow expects.
func (p DevicePoster) PostForm(u string, v url.Values) (*http.Response, error) {
	ctx := p.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(v.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	c := p.Client
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second, CheckRedirect: SameHostRedirect}
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	if p.Status != nil {
		*p.Status = resp.StatusCode
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: MaxDeviceAnswer}
	return resp, nil
}

// cappedBody fails a read past its limit instead of truncating silently.
type cappedBody struct {
	io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.ReadCloser.Read(one[:]); n > 0 {
			return 0, ErrDeviceAnswerTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
