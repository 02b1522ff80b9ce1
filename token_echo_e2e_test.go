package main

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestServerEchoingTheTokenNeverMakesAayuShowIt: a server that echoes the
// Authorization header back — in a 4xx or 5xx JSON message, an error
// detail, or a plain-text body — gets no token out of the real binary:
// not on its output, not in any file it wrote under HOME (the actions log,
// the cache, failure cards).
func TestServerEchoingTheTokenNeverMakesAayuShowIt(t *testing.T) {
	t.Parallel()
	const token = "ghp_echoTheHeader0123456789abcdefABCDEF01"
	for _, c := range []struct {
		name   string
		status int
		text   bool
	}{
		{"401 message", http.StatusUnauthorized, false},
		{"403 message", http.StatusForbidden, false},
		{"404 message", http.StatusNotFound, false},
		{"422 detail", http.StatusUnprocessableEntity, false},
		{"500 message", http.StatusInternalServerError, false},
		{"500 text body", http.StatusInternalServerError, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth := r.Header.Get("Authorization")
				if c.text {
					w.Header().Set("Content-Type", "text/plain")
					w.WriteHeader(c.status)
					_, _ = io.WriteString(w, "upstream rejected "+auth)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.status)
				_ = json.NewEncoder(w).Encode(map[string]any{"message": "you sent " + auth,
					"errors": []map[string]string{{"message": "header was " + auth}}})
			}))
			t.Cleanup(srv.Close)
			// approve with the person's token; an agent's decide
			// and ready (batches) and approve --ci with the bot's (AAYU_BOT_TOKEN).
			for _, cmd := range [][]string{{"inbox", "--list"}, {"audit"}, {"pack", "5"}, {"ship", "4"}, {"approve", "0123456789ab"},
				{"bot", "decide", "1", "--accept", "1"}, {"bot", "ready", "7"}, {"bot", "--ci", "approve"}} {
				home := t.TempDir()
				vars := map[string]string{"HOME": home, "AAYU_GITHUB_TOKEN": token}
				if cmd[0] == "bot" {
					event := filepath.Join(home, "event.json")
					_ = os.WriteFile(event, []byte(`{"comment":{"id":7},"issue":{"number":1}}`), 0o600)
					cmd = cmd[1:]
					vars = map[string]string{"HOME": home, "AAYU_AGENT": "1", "AAYU_BOT_TOKEN": token}
					if cmd[0] == "--ci" {
						vars = map[string]string{"HOME": home, "AAYU_BOT_TOKEN": token, "CI": "true", "GITHUB_ACTIONS": "true",
							"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": event}
					}
				}
				args := append([]string{"--plain", "--api-url", srv.URL + "/", "--oauth-url", srv.URL, "--repo", "acme/benefits"}, cmd...)
				code, out, errOut := runAayuEnv(t, vars, args...)
				if code == tui.ExitOK {
					t.Errorf("%s: exit 0 from a server that refuses everything:\n%s%s", cmd[0], out, errOut)
				}
				if strings.Contains(out+errOut, token) {
					t.Errorf("%s printed the token:\n%s", cmd[0], strings.ReplaceAll(out+errOut, token, "<TOKEN>"))
				}
				_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
					if err != nil || !d.Type().IsRegular() {
						return err
					}
					if b, _ := os.ReadFile(p); strings.Contains(string(b), token) {
						t.Errorf("%s wrote the token to %s", cmd[0], p)
					}
					return nil
				})
			}
		})
	}
}
