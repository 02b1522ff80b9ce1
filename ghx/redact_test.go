package ghx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-github/v66/github"
)

const echoedToken = "ghp_echoedByAHostileServer0123456789abcd"

// echoServer answers every request by echoing its Authorization header in
// the places a person or a log would see: the JSON message, an error
// detail, a plain-text body, a header and the status text.
func echoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		w.Header().Set("X-Echo", auth)
		switch r.URL.Path {
		case "/user":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]any{"message": "Bad credentials: " + auth})
		case "/repos/acme/benefits/issues":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			_ = json.NewEncoder(w).Encode(map[string]any{"message": "Validation Failed",
				"errors": []map[string]string{{"message": "you sent " + auth}}})
		case "/repos/acme/benefits":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, "upstream said: "+auth)
		case "/repos/acme/benefits/pulls/4":
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"number": 4, "title": "echo " + auth})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestServerEchoedTokenNeverShown: a server that echoes the Authorization
// header in a 4xx or 5xx body, a JSON message, an error detail, a header
// or a JSON answer gets no token back out of aayu: not in the error,
// Describe's sentence, the decoded answer, nor the request log.
func TestServerEchoedTokenNeverShown(t *testing.T) {
	t.Parallel()
	srv := echoServer(t)
	var logged bytes.Buffer
	c, err := NewClient(ClientOptions{APIURL: srv.URL + "/", Token: NewToken(echoedToken, "test"),
		Logger: slog.New(slog.NewTextHandler(&logged, nil)), Retry: RetryPolicy{MaxAttempts: 1},
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var shown []string
	_, resp, err := c.Users.Get(ctx, "")
	shown = append(shown, err.Error(), Describe(err), resp.Header.Get("X-Echo"))
	_, _, err = c.Issues.Create(ctx, "acme", "benefits", &github.IssueRequest{Title: github.String("x")})
	shown = append(shown, err.Error(), Describe(err))
	_, _, err = c.Repositories.Get(ctx, "acme", "benefits")
	shown = append(shown, err.Error(), Describe(err))
	pr, _, err := c.PullRequests.Get(ctx, "acme", "benefits", 4)
	if err != nil {
		t.Fatal(err)
	}
	shown = append(shown, pr.GetTitle(), logged.String())
	for i, s := range shown {
		if strings.Contains(s, echoedToken) {
			t.Errorf("text %d shows the token: %s", i, strings.ReplaceAll(s, echoedToken, "<TOKEN>"))
		}
	}
	if !strings.Contains(shown[0], "Bad credentials: Bearer "+redacted) {
		t.Errorf("the message lost more than the token: %s", shown[0])
	}
}

// TestRedactReaderFindsTokensSplitAcrossReads: a token arriving one byte at
// a time is still removed, and the text around it is kept.
func TestRedactReaderFindsTokensSplitAcrossReads(t *testing.T) {
	t.Parallel()
	rt := newRedactTransport(nil, NewToken(echoedToken, "test")).(*redactTransport)
	body := strings.Repeat("a", 70000) + echoedToken + "mid" + echoedToken + strings.Repeat("b", 5) + echoedToken
	for name, src := range map[string]io.Reader{
		"whole":    strings.NewReader(body),
		"one byte": iotest.OneByteReader(strings.NewReader(body)),
		"half":     iotest.HalfReader(strings.NewReader(body)),
		"data+eof": iotest.DataErrReader(strings.NewReader(body)),
		"timeout":  iotest.TimeoutReader(strings.NewReader(body)),
	} {
		got, err := io.ReadAll(&redactReader{src: io.NopCloser(src), t: rt, keep: rt.longest() - 1})
		if name == "timeout" {
			if !errors.Is(err, iotest.ErrTimeout) {
				t.Errorf("%s: err %v, want the source's error passed on", name, err)
			}
			continue
		}
		want := strings.Repeat("a", 70000) + redacted + "mid" + redacted + strings.Repeat("b", 5) + redacted
		if err != nil || string(got) != want {
			t.Errorf("%s: err %v, got %d bytes (token kept: %v), want %d", name, err, len(got), strings.Contains(string(got), echoedToken), len(want))
		}
	}
}

// TestOtherHeldTokensAreStrippedToo: a client holding the device-flow
// token strips the person's token, which the same server has seen, from
// what it answers.
func TestOtherHeldTokensAreStrippedToo(t *testing.T) {
	t.Parallel()
	const person = "ghp_thePersonsOwnToken0123456789abcdefAB"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "earlier you sent " + person})
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(ClientOptions{APIURL: srv.URL + "/", Token: NewToken("gho_deviceFlowToken0123456789", "device flow"),
		Redact: []Token{NewToken(person, "test")}, Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Users.Get(context.Background(), "")
	if err == nil || strings.Contains(err.Error(), person) || strings.Contains(Describe(err), person) {
		t.Fatalf("the person's token was shown: %v", err)
	}
}
