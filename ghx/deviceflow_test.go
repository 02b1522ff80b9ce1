package ghx

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestDeviceFlowRefusesAnOversizedAnswer: a device-flow answer larger than
// any GitHub sends is not read to the end (memory stays bounded) and is
// never parsed as if whole: reading it fails with ErrDeviceAnswerTooLarge,
// while an answer of exactly the limit is read whole.
func TestDeviceFlowRefusesAnOversizedAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		size    int
		refused bool
	}{
		{name: "a normal answer", size: 40},
		{name: "exactly the limit", size: MaxDeviceAnswer},
		{name: "one byte over", size: MaxDeviceAnswer + 1, refused: true},
		{name: "a mebibyte", size: 1 << 20, refused: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Repeat("a", tc.size)
			var form url.Values
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_ = r.ParseForm()
				form = r.PostForm
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write([]byte(body))
			}))
			defer srv.Close()
			status := 0
			resp, err := DevicePoster{Ctx: context.Background(), Status: &status}.PostForm(srv.URL, url.Values{"client_id": {"x"}})
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if status != http.StatusCreated || form.Get("client_id") != "x" {
				t.Errorf("status %d, form %v", status, form)
			}
			if tc.refused {
				if !errors.Is(err, ErrDeviceAnswerTooLarge) || !strings.Contains(err.Error(), "larger than 64 KiB") {
					t.Fatalf("reading a %d-byte answer gave %v; want it refused as too large", tc.size, err)
				}
				return
			}
			if err != nil || string(got) != body {
				t.Errorf("a %d-byte answer read as %d bytes, %v", tc.size, len(got), err)
			}
		})
	}
}
