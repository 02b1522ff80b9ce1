package ghx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
)

func redirectTestClient(t *testing.T, api string) *github.Client {
	t.Helper()
	c, err := NewClient(ClientOptions{APIURL: api + "/", Token: NewToken("ghp_redirectTest0123456789abcdefABCDEF", "test"),
		Retry: RetryPolicy{MaxAttempts: 1}, Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAPIReadRefusesRedirectToAnotherHost: an API read answered by a 307
// (or 301, 302, 308) to another host is refused in words; the other host's
// body — a perfectly GitHub-shaped repository — is never decoded as
// GitHub's, and the other host never sees the token. A redirect on the API
// host itself (a renamed repository) is still followed.
func TestAPIReadRefusesRedirectToAnotherHost(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int32
	var sawAuth atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		if r.Header.Get("Authorization") != "" {
			sawAuth.Store(true)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 666, "full_name": "evil/impostor", "default_branch": "evil"})
	}))
	t.Cleanup(other.Close)
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusMovedPermanently, http.StatusFound, http.StatusPermanentRedirect} {
		api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/repos/acme/renamed":
				http.Redirect(w, r, "/repos/acme/benefits", status)
			case "/repos/acme/benefits":
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"id": 1, "full_name": "acme/benefits", "default_branch": "main"})
			default:
				http.Redirect(w, r, other.URL+r.URL.Path, status)
			}
		}))
		c := redirectTestClient(t, api.URL)
		repo, _, err := c.Repositories.Get(context.Background(), "acme", "elsewhere")
		var cross *CrossHostRedirectError
		if err == nil || !errors.As(err, &cross) || repo.GetFullName() == "evil/impostor" {
			t.Errorf("%d: repo %q, err %v; want the cross-host redirect refused", status, repo.GetFullName(), err)
		} else if d := Describe(err); !strings.Contains(d, "redirected a request to another host") || strings.Contains(d, "?") {
			t.Errorf("%d: Describe says %q", status, d)
		}
		repo, _, err = c.Repositories.Get(context.Background(), "acme", "renamed")
		if err != nil || repo.GetFullName() != "acme/benefits" {
			t.Errorf("%d: a same-host redirect was not followed: %q, %v", status, repo.GetFullName(), err)
		}
		api.Close()
	}
	if n := elsewhere.Load(); n != 0 || sawAuth.Load() {
		t.Errorf("the other host got %d requests (with the token: %v), want none", n, sawAuth.Load())
	}
}

// TestArtifactDownloadStillTakesItsStorageHop: the Actions artifact's 302
// to a storage host on another host still downloads, without the
// Authorization header there, and its bytes are copied as they came (a
// body that looks like JSON is not decoded).
func TestArtifactDownloadStillTakesItsStorageHop(t *testing.T) {
	t.Parallel()
	blob := []byte(`{"message":"not an API answer","zip":"PK\u0003\u0004"}`)
	var storageAuth atomic.Value
	storage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		storageAuth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(blob)
	}))
	t.Cleanup(storage.Close)
	var apiAuth atomic.Value
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apiAuth.Store(r.Header.Get("Authorization"))
		if r.URL.Path != "/repos/acme/benefits/actions/artifacts/7/zip" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Location", storage.URL+"/blob/7.zip?sig=abc&se=2026")
		w.WriteHeader(http.StatusFound)
	}))
	t.Cleanup(api.Close)
	c := redirectTestClient(t, api.URL)
	var got bytes.Buffer
	n, err := DownloadArtifact(context.Background(), c, "acme", "benefits", 7, &got, 1<<20)
	if err != nil || n != int64(len(blob)) || !bytes.Equal(got.Bytes(), blob) {
		t.Fatalf("download: %d bytes, %v; got %q", n, err, got.Bytes())
	}
	if a, _ := apiAuth.Load().(string); !strings.HasPrefix(a, "Bearer ") {
		t.Errorf("the API host got no token (%q)", a)
	}
	if a, _ := storageAuth.Load().(string); a != "" {
		t.Errorf("the storage host got an Authorization header")
	}
}

// TestSameHostRedirectNeverResendsAForm: the device flow's client posts
// its form to the OAuth host; a 307 or 308 to another host would re-send
// the form (the device code) there, so it is refused before any request.
func TestSameHostRedirectNeverResendsAForm(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		oauth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/login/oauth/access_token", status)
		}))
		c := &http.Client{CheckRedirect: SameHostRedirect}
		resp, err := c.PostForm(oauth.URL+"/login/oauth/access_token", map[string][]string{"device_code": {"secret-device-code"}})
		var cross *CrossHostRedirectError
		if !errors.As(err, &cross) {
			if resp != nil {
				resp.Body.Close()
			}
			t.Errorf("%d: err %v, want the cross-host redirect refused", status, err)
		}
		oauth.Close()
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
}
