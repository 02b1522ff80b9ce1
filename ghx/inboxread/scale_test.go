package inboxread_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// TestReadAtScale reads a demo with 2,000 more issues and pull requests
// and reports what each kind of read costs. Not run with -short.
func TestReadAtScale(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scale test: run without -short")
	}
	const scale = 2000
	f := start(t, sandbox.Options{ShareSeed: true, Scale: scale}, "founder")
	ctx := context.Background()

	began := time.Now()
	first := read(t, f.reader)
	took := time.Since(began)
	requests, counted, paths := f.wire.take()
	t.Logf("first Read by endpoint: %v", byEndpoint(paths))
	steps := inbox.Derive(first)
	t.Logf("scale %d: %d issues and %d pull requests kept, %d steps", scale, len(first.Issues), len(first.PullRequests), len(steps))
	for _, kind := range inbox.Kinds() {
		t.Logf("  %-20s %d", kind, len(stepsByKind(steps)[kind]))
	}
	t.Logf("first Read: %d requests, %d counted against the rate limit, %v", requests, counted, took.Round(time.Millisecond))
	for _, kind := range inbox.Kinds() {
		if kind == inbox.KindShipStopped {
			continue // the scale demo stops no ship part-way; model/inbox's tests cover it
		}
		if len(stepsByKind(steps)[kind]) == 0 {
			t.Errorf("no %s step at scale", kind)
		}
	}
	if requests > scale {
		t.Errorf("the first Read cost %d requests for %d items; it should read details only for items that can become a step", requests, scale)
	}

	began = time.Now()
	second := read(t, f.reader)
	took = time.Since(began)
	requests, counted, paths = f.wire.take()
	t.Logf("second Read, nothing changed: %d requests, %d counted, %v", requests, counted, took.Round(time.Millisecond))
	graphql := byEndpoint(paths)["POST /graphql"]
	if counted > 1+graphql || len(inbox.Derive(second)) != len(steps) {
		t.Errorf("a second full Read with nothing changed should be 304s but for its new since query and its GraphQL pages (%d): %d counted", graphql, counted)
	}

	began = time.Now()
	_, stats, err := f.reader.Refresh(ctx, second, f.reader.LastReadAt())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Refresh, nothing changed: %+v, %v", stats, time.Since(began).Round(time.Millisecond))
	if stats.Requests != 2 || stats.CountedAgainstLimit != 0 {
		t.Errorf("refresh with nothing changed at scale: %+v, want two free requests", stats)
	}

	w := writer(t, f.base)
	if _, _, err := w.Issues.CreateComment(ctx, owner, repo, sandbox.DemoDecision, &github.IssueComment{Body: github.String(inbox.CounselMarker + "\nStill option 1.")}); err != nil {
		t.Fatal(err)
	}
	began = time.Now()
	_, stats, err = f.reader.Refresh(ctx, second, f.reader.LastReadAt())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Refresh after one comment: %+v, %v", stats, time.Since(began).Round(time.Millisecond))
	if stats.Requests > 3 {
		t.Errorf("refresh after one comment cost %d requests", stats.Requests)
	}
}

var numberOrSHA = regexp.MustCompile(`/([0-9]+|[0-9a-f]{40})(/|$)`)

// byEndpoint counts request paths with numbers and SHAs folded away.
func byEndpoint(paths []string) map[string]int {
	out := map[string]int{}
	for _, p := range paths {
		p = regexp.MustCompile(`\?.*`).ReplaceAllString(p, "")
		out[numberOrSHA.ReplaceAllString(numberOrSHA.ReplaceAllString(p, "/N$2"), "/N$2")]++
	}
	return out
}
