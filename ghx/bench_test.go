package ghx

import (
	"context"
	"io"
	"net/http"
	"testing"
)

// BenchmarkConditionalRefresh measures one refresh of an unchanged issue
// through the whole transport: cache lookup on disk, If-None-Match, GitHub's
// 304 over loopback, and the stored body served as a 200.
func BenchmarkConditionalRefresh(b *testing.B) {
	f := newFakeGitHub(b)
	body := map[string]any{"number": 131, "title": "Story 131: benefits summary", "state": "open",
		"body": string(make([]byte, 2048))}
	f.mux.HandleFunc("GET /repos/acme/benefits/issues/131", func(w http.ResponseWriter, r *http.Request) {
		f.serveJSON(w, r, http.StatusOK, body)
	})
	s := newTestClient(b, f, func(o *ClientOptions) { o.Logger = nil })
	hc := s.client.Client()
	url := f.url() + "repos/acme/benefits/issues/131"
	get := func() *http.Response {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
		req.Header.Set("Accept", "application/vnd.github.v3+json")
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	get() // fills the cache
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if resp := get(); resp.Header.Get(CacheHeader) != "hit" {
			b.Fatal("refresh was not a cache hit")
		}
	}
}
