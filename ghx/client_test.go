package ghx

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestParseAPIURL(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want, wantErr string }{
		{"", "https://api.github.com/", ""},
		{"https://api.github.com", "https://api.github.com/", ""},
		{"http://127.0.0.1:8765/", "http://127.0.0.1:8765/", ""},
		{"http://127.0.0.1:8765", "http://127.0.0.1:8765/", ""},
		{"http://localhost:9000", "http://localhost:9000/", ""},
		{"http://[::1]:9000/", "http://[::1]:9000/", ""},
		{"https://ghes.example.com", "https://ghes.example.com/api/v3/", ""},
		{"https://ghes.example.com/api/v3", "https://ghes.example.com/api/v3/", ""},
		{"https://api.ghe.example.com/", "https://api.ghe.example.com/", ""},
		{"https://proxy.example.com/github/", "https://proxy.example.com/github/", ""},
		{"ftp://example.com/", "", "must start with https://"},
		{"api.github.com", "", "must start with https://"},
		{"https://user:pw@ghes.example.com/", "", "must not carry credentials"},
	}
	for _, c := range cases {
		got, err := ParseAPIURL(c.in)
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ParseAPIURL(%q) err = %v, want %q", c.in, err, c.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("ParseAPIURL(%q) error shows the password", c.in)
			}
		case err != nil:
			t.Errorf("ParseAPIURL(%q): %v", c.in, err)
		case got.String() != c.want:
			t.Errorf("ParseAPIURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	gh, err := NewClient(ClientOptions{APIURL: "https://ghes.example.com"})
	if err != nil || gh.UploadURL.String() != "https://ghes.example.com/api/uploads/" || gh.UserAgent != "aayu" {
		t.Errorf("GHES client: upload %v, agent %q, err %v", gh.UploadURL, gh.UserAgent, err)
	}
}

// blobHost stands in for the artifact storage host; it records whether an
// Authorization header ever reached it.
func blobHost(t *testing.T, body []byte) (*httptest.Server, *atomic.Int32, *atomic.Bool) {
	var hits atomic.Int32
	var sawAuth atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Authorization") != "" {
			sawAuth.Store(true)
			http.Error(w, "signed URLs take no Authorization", http.StatusBadRequest)
			return
		}
		if r.URL.Query().Get("sig") == "" {
			http.Error(w, "unsigned", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/zip")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits, &sawAuth
}

func TestAuthorizationNeverLeavesTheAPIHost(t *testing.T) {
	t.Parallel()
	zip := []byte("PK\x03\x04 pretend zip")
	blob, blobHits, blobSawAuth := blobHost(t, zip)
	f := newFakeGitHub(t)
	signed := blob.URL + "/artifacts/42.zip?sv=2021&se=2026-10-12T09%3A53%3A00Z&sig=SIGNATUREVALUE"
	f.mux.HandleFunc("GET /repos/acme/benefits/actions/artifacts/42/zip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", signed)
		w.WriteHeader(http.StatusFound)
	})
	f.mux.HandleFunc("GET /repos/acme/benefits/archive", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, signed, http.StatusFound)
	})
	s := newTestClient(t, f, nil)
	ctx := context.Background()

	// go-github returns the signed URL; our helper fetches it.
	var out bytes.Buffer
	n, err := DownloadArtifact(ctx, s.client, "acme", "benefits", 42, &out, 1<<20)
	if err != nil {
		t.Fatalf("DownloadArtifact: %v", err)
	}
	if n != int64(len(zip)) || !bytes.Equal(out.Bytes(), zip) {
		t.Errorf("downloaded %d bytes, want the zip", n)
	}

	// A redirect to another host is never followed by http.Client itself
	// (redirect.go): only DownloadArtifact takes that hop, as a request
	// of its own.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.url()+"repos/acme/benefits/archive", nil)
	resp, err := s.client.Client().Do(req)
	var cross *CrossHostRedirectError
	if !errors.As(err, &cross) {
		if resp != nil {
			resp.Body.Close()
		}
		t.Fatalf("a redirect to the blob host was followed: %v", err)
	}

	// Even a header set by the caller is stripped for another host.
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, signed, nil)
	req.Header.Set("Authorization", "Bearer "+testTokenValue)
	resp, err = s.client.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	if blobHits.Load() != 2 || blobSawAuth.Load() {
		t.Errorf("blob host: %d hits, saw Authorization: %v; want 2 hits and never", blobHits.Load(), blobSawAuth.Load())
	}
	f.mu.Lock()
	authorised := f.authorised
	f.mu.Unlock()
	if authorised != 2 {
		t.Errorf("the API host got the token on %d requests, want 2", authorised)
	}
	assertNoToken(t, "log", s.logs.String())
	if strings.Contains(s.logs.String(), "SIGNATUREVALUE") {
		t.Error("the log shows the signed URL's signature")
	}
}

// The sandbox serves signed blob URLs on the API host itself: the token must
// stay off those too.
func TestNoTokenOnSignedURLOnTheAPIHost(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var blobAuth atomic.Bool
	f.mux.HandleFunc("GET /repos/acme/benefits/actions/artifacts/5/zip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", f.srv.URL+"/_blob/artifacts/5?exp=99&sig=abcdef")
		w.WriteHeader(http.StatusFound)
	})
	f.mux.HandleFunc("GET /_blob/artifacts/5", func(w http.ResponseWriter, r *http.Request) {
		blobAuth.Store(r.Header.Get("Authorization") != "")
		w.Write([]byte("zip"))
	})
	s := newTestClient(t, f, nil)
	var out bytes.Buffer
	if _, err := DownloadArtifact(context.Background(), s.client, "acme", "benefits", 5, &out, 100); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	authorised := f.authorised
	f.mu.Unlock()
	if blobAuth.Load() || out.String() != "zip" || authorised != 1 {
		t.Errorf("signed URL got Authorization: %v; body %q; API requests with the token %d (want 1)", blobAuth.Load(), out.String(), authorised)
	}
}

func TestExpiredArtifact(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	f.mux.HandleFunc("GET /repos/acme/benefits/actions/artifacts/{id}/zip", func(w http.ResponseWriter, r *http.Request) {
		githubError(w, http.StatusGone, "Artifact has expired", "https://docs.github.com/rest/actions/artifacts#download-an-artifact")
	})
	s := newTestClient(t, f, nil)
	ctx := context.Background()

	// go-github v66 itself returns an untyped error for the 410.
	_, resp, err := s.client.Actions.DownloadArtifact(ctx, "acme", "benefits", 9, 1)
	if err == nil || resp == nil || resp.StatusCode != http.StatusGone {
		t.Fatalf("DownloadArtifact: err %v, resp %v", err, resp)
	}
	if !IsExpired(err) {
		t.Errorf("IsExpired(%q) = false", err)
	}
	if d := Describe(err); !strings.Contains(d, "expired") || strings.Contains(d, "unexpected") {
		t.Errorf("Describe = %q, want it reported as expired", d)
	}

	_, err = DownloadArtifact(ctx, s.client, "acme", "benefits", 9, &bytes.Buffer{}, 1<<20)
	if !errors.Is(err, ErrArtifactExpired) || !IsExpired(err) {
		t.Errorf("helper err = %v, want ErrArtifactExpired", err)
	}
	if IsExpired(errors.New("unexpected status code: 404 Not Found")) {
		t.Error("a 404 is not an expired artifact")
	}
}

func TestDownloadArtifactRefusesOversize(t *testing.T) {
	t.Parallel()
	blob, _, _ := blobHost(t, bytes.Repeat([]byte("z"), 2048))
	f := newFakeGitHub(t)
	f.mux.HandleFunc("GET /repos/acme/benefits/actions/artifacts/1/zip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", blob.URL+"/a.zip?sig=x")
		w.WriteHeader(http.StatusFound)
	})
	s := newTestClient(t, f, nil)
	_, err := DownloadArtifact(context.Background(), s.client, "acme", "benefits", 1, &bytes.Buffer{}, 1024)
	if err == nil || !strings.Contains(err.Error(), "larger than the 1024 bytes") {
		t.Errorf("err = %v, want a size refusal", err)
	}
}
