package protected_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/protected"
)

// machineUserServer: CODEOWNERS names @machine for .github/, the base
// config lists machine in bot_logins, and machine (a plain User account)
// approved the head of #1, which changes a workflow. config is the base
// config's text.
func machineUserServer(t *testing.T, config string) *github.Client {
	t.Helper()
	file := func(w http.ResponseWriter, path, text string) {
		_ = json.NewEncoder(w).Encode(map[string]any{"type": "file", "encoding": "base64", "path": path,
			"content": base64.StdEncoding.EncodeToString([]byte(text))})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/repos/acme/gates/pulls/1":
			_ = json.NewEncoder(w).Encode(map[string]any{"number": 1, "changed_files": 1,
				"base": map[string]any{"ref": "main"}, "head": map[string]any{"sha": "abc123"}, "user": map[string]any{"login": "agent"}})
		case "/repos/acme/gates/git/ref/heads/main":
			_ = json.NewEncoder(w).Encode(map[string]any{"ref": "refs/heads/main", "object": map[string]any{"sha": "tip456"}})
		case "/repos/acme/gates/contents/.github/CODEOWNERS":
			file(w, ".github/CODEOWNERS", "/.github/ @machine\n")
		case "/repos/acme/gates/contents/.aayudha/config.toml":
			file(w, ".aayudha/config.toml", config)
		case "/repos/acme/gates/pulls/1/files":
			_ = json.NewEncoder(w).Encode([]map[string]any{{"filename": ".github/workflows/ci.yml", "status": "modified"}})
		case "/repos/acme/gates/pulls/1/reviews":
			_ = json.NewEncoder(w).Encode([]map[string]any{{"id": 9, "state": "APPROVED", "commit_id": "abc123",
				"submitted_at": "2026-12-01T10:00:00Z", "user": map[string]any{"login": "machine", "type": "User"}}})
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"Not Found"}`))
		}
	}))
	t.Cleanup(srv.Close)
	c := github.NewClient(nil)
	c.BaseURL, _ = url.Parse(srv.URL + "/")
	return c
}

// TestProtectedGateRefusesUnparsableBasePolicy: a base config the gate
// cannot parse refuses it in ship's words; it is never read as "no
// bot_logins", which let the machine user's approval count as a
// CODEOWNER's. With the config readable, the machine user still does not
// count.
func TestProtectedGateRefusesUnparsableBasePolicy(t *testing.T) {
	t.Parallel()
	const bots = "[identity]\nbot_logins = [\"machine\"]\n"
	code, lines, err := protected.Check(context.Background(), machineUserServer(t, bots+"[autonomy]\nnever = \"L04\"\n"), "acme", "gates", 1)
	text := strings.Join(lines, "\n")
	if err != nil || code != protected.ExitRefused || !strings.Contains(text, "refused: the base branch's policy cannot be read: the base branch's .aayudha/config.toml: autonomy.never must be a list of strings") || strings.Contains(text, "approved by @machine") {
		t.Errorf("unparsable config: exit %d %v, want 4 in ship's words:\n%s", code, err, text)
	}
	code, lines, err = protected.Check(context.Background(), machineUserServer(t, bots), "acme", "gates", 1)
	if text := strings.Join(lines, "\n"); err != nil || code != protected.ExitRefused || strings.Contains(text, "approved by @machine") {
		t.Errorf("readable config: exit %d %v, want the machine user's approval not to count:\n%s", code, err, text)
	}
}
