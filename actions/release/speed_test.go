package release_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions/release"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// counting counts the requests a client sends.
type counting struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// BenchmarkReleaseReadLatency100ms: `aayu release --to main`'s read of the
// demo (Story 14's pack verified again, three merges carried without
// proof) in-process against the sandbox with 100 ms added to every
// request, as ship's figures are measured (docs/performance.md). Its reads
// go one after another, so its round trips are its requests.
func BenchmarkReleaseReadLatency100ms(b *testing.B) {
	var requests int64
	var took time.Duration
	for range b.N {
		_, _, base := conformance.StartSandbox(b, sandbox.Options{StateDir: b.TempDir(), Faults: sandbox.FaultSpec{Latency: 100 * time.Millisecond}})
		cnt := &counting{next: http.DefaultTransport}
		client, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"), Base: cnt})
		if err != nil {
			b.Fatal(err)
		}
		began := time.Now()
		p, err := release.Read(context.Background(), release.Options{Client: client, Owner: "acme", Repo: "benefits", To: "main", Viewer: "founder", WorkDir: b.TempDir()})
		took += time.Since(began)
		if err != nil || len(p.Stories) != 1 {
			b.Fatalf("%v %+v", err, p)
		}
		requests += cnt.n.Load()
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests")
	b.ReportMetric(took.Seconds()/float64(b.N), "s-read")
}
