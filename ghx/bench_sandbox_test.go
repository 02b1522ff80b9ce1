package ghx_test

import (
	"context"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// BenchmarkConditionalRefreshSandbox measures one refresh of an unchanged
// issue through the whole ghx transport and go-github against the sandbox
// on loopback: cache lookup on disk, If-None-Match, the sandbox's 304 (its
// handler renders the issue to compute the ETag, as GitHub does), and the
// stored body decoded as a 200. The validator is off: it is not part of the
// round trip being measured.
func BenchmarkConditionalRefreshSandbox(b *testing.B) {
	srv, err := sandbox.New(sandbox.Options{Now: func() time.Time { return demoNow }})
	if err != nil {
		b.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	client, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken("sandbox-founder", "test"), CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := client.Issues.Get(ctx, owner, repo, sandbox.DemoStoryReady); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_, resp, err := client.Issues.Get(ctx, owner, repo, sandbox.DemoStoryReady)
		if err != nil || resp.Header.Get(ghx.CacheHeader) != "hit" {
			b.Fatalf("refresh was not a cache hit: %v", err)
		}
	}
}
