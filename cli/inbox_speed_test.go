package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// wireLog counts what the sandbox served, from its one line per request.
type wireLog struct {
	mu                          sync.Mutex
	requests, core, graphqlPts  int
	notModified, graphqlQueries int
}

var graphqlPoints = regexp.MustCompile(`counted (\d+) graphql points$`)

func (w *wireLog) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests++
	switch m := graphqlPoints.FindStringSubmatch(line); {
	case m != nil:
		n, _ := strconv.Atoi(m[1])
		w.graphqlPts += n
		w.graphqlQueries++
	case strings.HasSuffix(line, " not counted"):
		w.notModified += map[bool]int{true: 1}[strings.Contains(line, " 304 ")]
	case strings.HasSuffix(line, " counted"):
		w.core++
	}
}

func (w *wireLog) take() (requests, core, graphql int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	requests, core, graphql = w.requests, w.core, w.graphqlPts
	w.requests, w.core, w.graphqlPts, w.notModified, w.graphqlQueries = 0, 0, 0, 0, 0
	return requests, core, graphql
}

// listOnce runs `aayu inbox --list` as a new process would, against base,
// with HOME (and so the caches) in home.
func listOnce(t *testing.T, base, home string) (time.Duration, string) {
	t.Helper()
	var out, errb bytes.Buffer
	began := time.Now()
	code := run(context.Background(), []string{"--api-url", base + "/", "--repo", "acme/benefits", "inbox", "--list"}, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string {
			return map[string]string{"HOME": home, "AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + "founder", "AAYU_AGENT": "1"}[k]
		},
	})
	took := time.Since(began)
	if code != tui.ExitOK {
		t.Fatalf("inbox --list: exit %d\n%s%s", code, out.String(), errb.String())
	}
	return took, out.String()
}

// TestInboxListSpeed measures `aayu inbox --list` cold (no cache) and warm
// (a second process, the first one's caches on disk) side by side, on the
// sandbox with 50 ms of latency per request, and reports the time, the
// requests and the rate-limit points of each. It is a measurement, not a
// timed assertion: it fails only on the request and point counts, which do
// not depend on the machine's load. AAYU_SPEED=1 runs it; AAYU_SPEED_SCALES
// (default "300,10000") picks the scales.
func TestInboxListSpeed(t *testing.T) {
	t.Parallel()
	if os.Getenv("AAYU_SPEED") == "" {
		t.Skip("a measurement: AAYU_SPEED=1 runs it")
	}
	scales := os.Getenv("AAYU_SPEED_SCALES")
	if scales == "" {
		scales = "300,10000"
	}
	for _, field := range strings.Split(scales, ",") {
		scale, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil {
			t.Fatalf("AAYU_SPEED_SCALES: %v", err)
		}
		w := &wireLog{}
		seeding := time.Now()
		srv, err := sandbox.New(sandbox.Options{Scale: scale, Faults: sandbox.FaultSpec{Latency: 50 * time.Millisecond}, Logf: w.logf})
		if err != nil {
			t.Fatal(err)
		}
		base, err := srv.Start("")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = srv.Close() })
		t.Logf("scale %d: the sandbox seeded in %v", scale, time.Since(seeding).Round(time.Millisecond))
		home := t.TempDir()
		w.take()
		for _, kind := range []string{"cold", "warm", "warm"} {
			took, out := listOnce(t, base, home)
			requests, core, graphql := w.take()
			t.Logf("scale %5d %s: %6v, %4d requests, %4d REST points, %2d GraphQL points (%s)", scale, kind,
				took.Round(10*time.Millisecond), requests, core, graphql, firstLine(out, " wait: "))
			switch {
			case kind == "warm" && (requests > 2 || core+graphql != 0):
				t.Errorf("scale %d: a warm start cost %d requests and %d points, want at most 2 and 0", scale, requests, core+graphql)
			case kind == "cold" && scale >= 10000 && requests > 300:
				t.Errorf("scale %d: a cold read cost %d requests, want at most 300", scale, requests)
			}
		}
	}
}

func firstLine(out, containing string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, containing) {
			return strings.TrimSpace(l)
		}
	}
	return "no summary line"
}

// The second `aayu inbox --list` starts from the first one's read: two
// requests (what changed, and which workflows ran, whose runs name the
// repository), both answered 304 and free, and the same cards.
func TestInboxListStartsWarmFromTheLastRead(t *testing.T) {
	t.Parallel()
	w := &wireLog{}
	srv, err := sandbox.New(sandbox.Options{Scale: 40, Logf: w.logf})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	home := t.TempDir()
	_, cold := listOnce(t, base, home)
	coldRequests, _, _ := w.take()
	_, warm := listOnce(t, base, home)
	w.mu.Lock()
	notModified := w.notModified
	w.mu.Unlock()
	requests, core, graphql := w.take()
	if requests > 2 || core+graphql != 0 || notModified != requests {
		t.Errorf("the warm start cost %d requests (%d answered 304), %d points; the cold one %d requests", requests, notModified, core+graphql, coldRequests)
	}
	// The time the cards were read differs by design: the warm start is a
	// newer read that found nothing changed. The cards must not.
	when := regexp.MustCompile(` \(as GitHub had them at [^)]*\)`)
	summary := func(out string) string { return when.ReplaceAllString(firstLine(out, " wait: "), "") }
	if summary(warm) != summary(cold) || strings.Count(warm, "card ") != strings.Count(cold, "card ") {
		t.Errorf("the warm start shows other cards:\ncold: %s\nwarm: %s", firstLine(cold, " wait: "), firstLine(warm, " wait: "))
	}
}
