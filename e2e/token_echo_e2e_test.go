package e2e

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

	"filippo.io/age"

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
			key, err := age.GenerateX25519Identity()
			if err != nil {
				t.Fatal(err)
			}
			person := map[string]string{"AAYU_GITHUB_TOKEN": token}
			// The bot's token: an agent lane writes with AAYU_BOT_TOKEN
			// (an agent's decide, ready, ship and plan are batches), approve --ci runs with it,
			// and the broker's seal step holds the App's token.
			bot := map[string]string{"AAYU_AGENT": "1", "AAYU_BOT_TOKEN": token}
			botCI := map[string]string{"AAYU_BOT_TOKEN": token, "CI": "true", "GITHUB_ACTIONS": "true",
				"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": "HOME/event.json"}
			seal := map[string]string{"GITHUB_ACTIONS": "true", "AAYUDHA_APP_TOKEN": token,
				"AAYUDHA_PUBLIC_KEY": key.Recipient().String(), "AAYUDHA_REQUEST_ID": "0123456789abcdef0123456789abcdef"}
			for _, run := range []struct {
				cmd []string
				env map[string]string
			}{
				{[]string{"inbox", "--list"}, person}, {[]string{"audit"}, person}, {[]string{"pack", "5"}, person}, {[]string{"ship", "4"}, person},
				{[]string{"approve", "0123456789ab"}, person},
				{[]string{"decide", "1", "--accept", "1"}, bot}, {[]string{"ready", "7"}, bot}, {[]string{"ship", "4"}, bot}, {[]string{"plan", "7"}, bot}, {[]string{"--ci", "approve"}, botCI},
				{[]string{"pack", "5"}, bot}, {[]string{"auth"}, map[string]string{"AAYU_GITHUB_TOKEN": token, "AAYU_BOT_TOKEN": token}},
				{[]string{"token", "seal", "--ci", "--out", "HOME/sealed/token.age"}, seal},
			} {
				home := t.TempDir()
				_ = os.WriteFile(filepath.Join(home, "event.json"), []byte(`{"comment":{"id":7},"issue":{"number":1}}`), 0o600)
				var cmd []string
				for _, a := range run.cmd {
					cmd = append(cmd, strings.Replace(a, "HOME/", home+"/", 1))
				}
				env := map[string]string{"HOME": home}
				for k, v := range run.env {
					env[k] = strings.Replace(v, "HOME/", home+"/", 1)
				}
				args := append([]string{"--plain", "--api-url", srv.URL + "/", "--oauth-url", srv.URL, "--repo", "acme/benefits"}, cmd...)
				code, out, errOut := runAayuEnv(t, env, args...)
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
