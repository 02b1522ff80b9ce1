package ghx

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

const brokerTestID = "0123456789abcdef0123456789abcdef"

// sealAt seals tok for key through a fake GitHub that says the token
// expires at exp ("" sends no header).
func sealAt(t *testing.T, key *age.X25519Identity, requestID, exp string) ([]byte, error) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if exp != "" {
			w.Header().Set(TokenExpirationHeader, exp)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"total_count":1,"repositories":[]}`))
	}))
	t.Cleanup(srv.Close)
	tok := NewToken("ghs_brokerTestToken0123456789", "test")
	gh, err := NewClient(ClientOptions{APIURL: srv.URL + "/", Token: tok, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = SealBrokerToken(context.Background(), gh, tok, key.Recipient().String(), requestID, &out)
	return out.Bytes(), err
}

// TestBrokerPayloadRefusals: the client takes a token only for its own
// request, with a known expiry, alive, and living no more than an hour;
// the seal step refuses a bad key, a bad request id, and a token GitHub
// gives no expiry for.
func TestBrokerPayloadRefusals(t *testing.T) {
	t.Parallel()
	key, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	in := func(d time.Duration) string { return now.Add(d).Format("2006-01-02 15:04:05 UTC") }

	sealed, err := sealAt(t, key, brokerTestID, in(59*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("brokerTestToken")) {
		t.Fatal("the sealed payload holds the token in the clear")
	}
	if tok, err := openPayload(sealed, key, brokerTestID, now); err != nil || tok.Reveal() != "ghs_brokerTestToken0123456789" {
		t.Fatalf("openPayload = %v, %v", tok, err)
	}
	if _, err := openPayload(sealed, key, strings.Repeat("f", 32), now); !errors.Is(err, ErrBrokerWrongRequest) {
		t.Errorf("another request's payload: %v", err)
	}
	other, _ := age.GenerateX25519Identity()
	if _, err := openPayload(sealed, other, brokerTestID, now); err == nil {
		t.Error("another key opened the payload")
	}
	if _, err := openPayload(sealed, key, brokerTestID, now.Add(time.Hour)); !errors.Is(err, ErrBrokerTokenExpired) {
		t.Errorf("an expired token: %v", err)
	}
	long, err := sealAt(t, key, brokerTestID, in(61*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openPayload(long, key, brokerTestID, now); !errors.Is(err, ErrBrokerTokenTooLong) {
		t.Errorf("a token living 61 minutes: %v", err)
	}
	for name, c := range map[string]struct{ id, exp string }{
		"no expiry from GitHub": {brokerTestID, ""},
		"a short request id":    {"abc", in(time.Hour)},
		"an upper-case id":      {strings.ToUpper(brokerTestID), in(time.Hour)},
	} {
		if _, err := sealAt(t, key, c.id, c.exp); err == nil {
			t.Errorf("%s: sealed", name)
		}
	}
	if err := SealBrokerToken(context.Background(), nil, NewToken("x", "t"), "ssh-ed25519 AAAA", brokerTestID, &bytes.Buffer{}); err == nil {
		t.Error("sealed to a key that is not an age recipient")
	}
}
