package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestInstallationTokenWritesOnlyWithItsPermissions: an installation token
// minted with issues: write alone comments on an issue but is refused,
// with GitHub's 403 "Resource not accessible by integration", a write to
// the repository's contents or a pull request; reads of the public demo
// need no permission. The demo with a bot identity has the App installed.
func TestInstallationTokenWritesOnlyWithItsPermissions(t *testing.T) {
	t.Parallel()
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, BotIdentity: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	base := ts.URL
	key, ok := srv.Secret(sandbox.AppKeySecret)
	if !ok {
		t.Fatal("the demo with a bot identity has no App key in its secrets: the App is not installed")
	}
	jwt, err := sandbox.SignAppJWT(key, sandbox.BotAppClientID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	resp, inst := call(t, "GET", base+"/repos/acme/benefits/installation", jwt, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the App is not installed on the demo: %s", resp.Status)
	}
	resp, tok := call(t, "POST", base+"/app/installations/"+jsonInt(int64(inst["id"].(float64)))+"/access_tokens", jwt,
		map[string]any{"repositories": []string{"benefits"}, "permissions": map[string]string{"issues": "write"}})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("access token: %s", resp.Status)
	}
	value := tok["token"].(string)
	if resp, _ := call(t, "POST", base+"/repos/acme/benefits/issues/1/comments", value, map[string]string{"body": "ok"}); resp.StatusCode != http.StatusCreated {
		t.Errorf("a comment with issues: write: %s", resp.Status)
	}
	if resp, _ := call(t, "GET", base+"/repos/acme/benefits/contents/README.md", value, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("reading the public demo's contents: %s", resp.Status)
	}
	for _, w := range []struct{ method, path string }{
		{"POST", "/repos/acme/benefits/git/blobs"},
		{"PATCH", "/repos/acme/benefits/pulls/4"},
	} {
		resp, body := call(t, w.method, base+w.path, value, map[string]string{"content": "x", "encoding": "utf-8", "title": "x"})
		if resp.StatusCode != http.StatusForbidden || body["message"] != "Resource not accessible by integration" {
			t.Errorf("%s %s with issues: write alone: %s %v, want 403 Resource not accessible by integration", w.method, w.path, resp.Status, body["message"])
		}
	}
	// The token acts as the installation, not as a user: GitHub refuses it
	// /user, so a client learns the bot's login from the App's slug.
	if resp, body := call(t, "GET", base+"/user", value, nil); resp.StatusCode != http.StatusForbidden || body["message"] != "Resource not accessible by integration" {
		t.Errorf("GET /user with an installation token: %s %v, want 403 Resource not accessible by integration", resp.Status, body["message"])
	}
	gh := github.NewClient(nil).WithAuthToken(value)
	gh.BaseURL, _ = url.Parse(base + "/")
	if got, err := ghx.Writer(context.Background(), gh, "agent-bot[bot]"); err != nil || got != "agent-bot[bot]" {
		t.Errorf("ghx.Writer with the App's token = %q, %v; want the App's bot", got, err)
	}
	if _, err := ghx.Writer(context.Background(), gh, ""); err == nil || !strings.Contains(err.Error(), "app_slug") {
		t.Errorf("ghx.Writer with the App's token and no slug = %v; want an error naming [identity] app_slug", err)
	}
	founder := github.NewClient(nil).WithAuthToken("sandbox-founder")
	founder.BaseURL = gh.BaseURL
	if got, err := ghx.Writer(context.Background(), founder, "agent-bot[bot]"); err != nil || got != "founder" {
		t.Errorf("ghx.Writer with the founder's token = %q, %v; want founder from /user", got, err)
	}
}
