package inboxread_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// BenchmarkColdRead10000Latency50ms is the inbox's first read of a
// repository with 10,000 more issues and pull requests than the demo, on
// the sandbox in-process with 50 ms added to every request, each read
// with an empty ETag cache. Seeding takes about a minute and is not
// timed; run it with -benchtime=1x or 2x. On a loaded machine the sandbox's
// own work (it shares the cores) dominates the latency: compare figures
// from one run only; avg-in-flight (the requests' wire times over the
// read's time) shows how much of the read overlapped.
func BenchmarkColdRead10000Latency50ms(b *testing.B) {
	benchColdRead(b, 10000, 50*time.Millisecond)
}

func benchColdRead(b *testing.B, scale int, latency time.Duration) {
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, Scale: scale, Faults: sandbox.FaultSpec{Latency: latency}})
	if err != nil {
		b.Fatal(err)
	}
	base, err := srv.Start("")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	var (
		requests int
		busy     time.Duration // the requests' times on the wire, summed
		took     time.Duration
		cpu      time.Duration // the process's CPU time over the reads
		most     int
	)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		f := &flight{next: http.DefaultTransport}
		w := &wire{next: f}
		client, err := ghx.NewClient(ghx.ClientOptions{
			APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
			CacheDir: b.TempDir(), CacheNamespace: "founder", Base: w,
		})
		if err != nil {
			b.Fatal(err)
		}
		r := inboxread.New(client, owner, repo, inboxread.Options{})
		b.StartTimer()
		began, cpuBegan := time.Now(), processCPU()
		if _, err := r.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
		took += time.Since(began)
		cpu += processCPU() - cpuBegan
		b.StopTimer()
		n, _, _ := w.take()
		requests += n
		busy += f.busy
		most = max(most, f.max)
		b.StartTimer()
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
	// How many requests were on the wire on average: the pool's effect,
	// which the machine's load does not change as much as the time.
	b.ReportMetric(busy.Seconds()/took.Seconds(), "avg-in-flight")
	b.ReportMetric(float64(most), "max-in-flight")
	// The CPU both sides spent per read (the sandbox is in-process): unlike
	// the wall time it does not grow with the machine's load.
	if cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}
