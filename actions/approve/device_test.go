package approve

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
)

// TestBatchDeviceCodeRefusesAnOversizedAnswer: a batch's device code is
// asked through the same client as login's, so an answer larger than any
// GitHub sends fails in words and is never cut short and parsed: cut at
// the limit, this answer would still name a user code to show.
func TestBatchDeviceCodeRefusesAnOversizedAnswer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		padding int
		refused bool
	}{
		{name: "an answer GitHub would send", padding: 10},
		{name: "an answer past the limit", padding: ghx.MaxDeviceAnswer, refused: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/login/device/code" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/x-www-form-urlencoded")
				_, _ = w.Write([]byte("device_code=dc1&user_code=ABCD-1234&verification_uri=https%3A%2F%2Fgithub.com%2Flogin%2Fdevice&expires_in=900&interval=5&pad=" + strings.Repeat("a", tc.padding)))
			}))
			defer srv.Close()
			now := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
			c, err := DeviceFlow{OAuthHost: srv.URL, ClientID: "x", HTTPClient: srv.Client()}.Ask(context.Background(), now)
			if !tc.refused {
				if err != nil || c.UserCode != "ABCD-1234" || !c.Expires.Equal(now.Add(900*time.Second)) {
					t.Fatalf("Ask = %+v, %v", c, err)
				}
				return
			}
			if !errors.Is(err, ghx.ErrDeviceAnswerTooLarge) || !strings.Contains(err.Error(), "asking GitHub for a device code") || c.UserCode != "" {
				t.Fatalf("an oversized answer gave code %q, err %v; want it refused in words", c.UserCode, err)
			}
		})
	}
}
