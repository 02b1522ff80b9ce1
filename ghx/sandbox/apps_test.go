package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// appSandbox serves the demo with the bot App registered.
func appSandbox(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, BotApp: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, ts.URL
}

func call(t *testing.T, method, url, auth string, body any) (*http.Response, map[string]any) {
	t.Helper()
	var rd bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = *bytes.NewReader(b)
	}
	req, _ := http.NewRequestWithContext(context.Background(), method, url, &rd)
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

// TestSandboxAppTokens: an App's JWT reaches only the App's endpoints; a
// JWT signed by another key is refused; an installation token holds at most the App's permissions,
// acts as the bot, says when it expires, and stops at its expiry.
func TestSandboxAppTokens(t *testing.T) {
	t.Parallel()
	srv, base := appSandbox(t)
	key, _ := srv.Secret(sandbox.AppKeySecret)
	jwt, err := sandbox.SignAppJWT(key, sandbox.BotAppClientID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := call(t, "GET", base+"/repos/acme/benefits/issues/1", jwt, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a JWT read an issue: %s", resp.Status)
	}
	if resp, _ := call(t, "GET", base+"/repos/acme/benefits/installation", "sandbox-founder", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a person's token read the App's installation: %s", resp.Status)
	}
	other, _ := sandbox.New(sandbox.Options{ShareSeed: true, BotApp: true})
	otherKey, _ := other.Secret(sandbox.AppKeySecret)
	forged, _ := sandbox.SignAppJWT(otherKey, sandbox.BotAppClientID, time.Now())
	if resp, _ := call(t, "GET", base+"/app", forged, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a JWT signed by another key: %s", resp.Status)
	}
	resp, inst := call(t, "GET", base+"/repos/acme/benefits/installation", jwt, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("installation: %s", resp.Status)
	}
	id := int64(inst["id"].(float64))
	tokURL := base + "/app/installations/" + jsonInt(id) + "/access_tokens"
	if resp, _ := call(t, "POST", tokURL, jwt, map[string]any{"permissions": map[string]string{"administration": "write"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a token with more than the App holds: %s", resp.Status)
	}
	resp, tok := call(t, "POST", tokURL, jwt, map[string]any{"repositories": []string{"benefits"}, "permissions": map[string]string{"issues": "write"}})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("access token: %s", resp.Status)
	}
	value := tok["token"].(string)
	resp, _ = call(t, "GET", base+"/installation/repositories", value, nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get(sandbox.TokenExpirationHeader) == "" {
		t.Errorf("installation repositories: %s, expiry %q", resp.Status, resp.Header.Get(sandbox.TokenExpirationHeader))
	}
	resp, c := call(t, "POST", base+"/repos/acme/benefits/issues/1/comments", value, map[string]string{"body": "from the App"})
	if resp.StatusCode != http.StatusCreated || c["user"].(map[string]any)["login"] != sandbox.BotLogin {
		t.Errorf("a comment with the installation token: %s %v", resp.Status, c["user"])
	}
	if n := srv.InstallationTokensMinted(); n != 1 {
		t.Errorf("%d tokens minted, want 1", n)
	}
}

// TestSandboxManifestCodeConvertsOnce: the code GitHub hands back is
// traded for the App's key once; a second conversion is 404.
func TestSandboxManifestCodeConvertsOnce(t *testing.T) {
	t.Parallel()
	_, base := appSandbox(t)
	manifest, _ := json.Marshal(map[string]any{"name": "once", "redirect_url": "http://127.0.0.1:1/callback", "default_permissions": map[string]string{"contents": "read"}})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(base+"/organizations/acme/settings/apps/new?state=s1", map[string][]string{"manifest": {string(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.Contains(loc, "state=s1") {
		t.Fatalf("the manifest page answered %s to %q", resp.Status, loc)
	}
	code := loc[strings.Index(loc, "code=")+5:]
	code = code[:strings.IndexAny(code+"&", "&")]
	r1, app := call(t, "POST", base+"/app-manifests/"+code+"/conversions", "", nil)
	if r1.StatusCode != http.StatusCreated || !strings.HasPrefix(app["pem"].(string), "-----BEGIN RSA PRIVATE KEY-----") {
		t.Fatalf("first conversion: %s", r1.Status)
	}
	if r2, _ := call(t, "POST", base+"/app-manifests/"+code+"/conversions", "", nil); r2.StatusCode != http.StatusNotFound {
		t.Errorf("second conversion: %s, want 404", r2.Status)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
