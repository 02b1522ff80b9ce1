package ghx_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestSandboxRefreshIs304AndFree: reading an unchanged issue again is a
// conditional request GitHub answers 304, served from the cache as a 200,
// and it does not touch the rate limit.
func TestSandboxRefreshIs304AndFree(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	first, resp1, err := env.client.Issues.Get(ctx, owner, repo, sandbox.DemoDecision)
	if err != nil {
		t.Fatal(err)
	}
	mark := env.served.mark()
	again, resp2, err := env.client.Issues.Get(ctx, owner, repo, sandbox.DemoDecision)
	if err != nil {
		t.Fatal(err)
	}
	lines, counted := env.served.since(mark)
	if resp2.Header.Get(ghx.CacheHeader) != "hit" || again.GetTitle() != first.GetTitle() {
		t.Errorf("refresh: cache header %q, title %q (was %q)", resp2.Header.Get(ghx.CacheHeader), again.GetTitle(), first.GetTitle())
	}
	if resp1.Rate.Remaining != resp2.Rate.Remaining {
		t.Errorf("x-ratelimit-remaining went from %d to %d on a 304", resp1.Rate.Remaining, resp2.Rate.Remaining)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], " 304 not counted") || counted != 0 {
		t.Errorf("the sandbox saw %q, want one 304 not counted", lines)
	}
}

// TestSandboxListAllPages reads more than 250 issues 100 at a time through
// Link headers, and reads them again for free.
func TestSandboxListAllPages(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{Scale: 260}})
	ctx := context.Background()
	list := func(opts *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return env.client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "all", ListOptions: *opts})
	}
	mark := env.served.mark()
	all, err := ghx.ListAll(ctx, list)
	if err != nil {
		t.Fatal(err)
	}
	lines, _ := env.served.since(mark)
	seen := map[int]bool{}
	for _, is := range all {
		seen[is.GetNumber()] = true
	}
	if len(all) < 275 || len(seen) != len(all) || len(lines) != (len(all)+99)/100 {
		t.Errorf("%d items (%d distinct) in %d requests", len(all), len(seen), len(lines))
	}
	mark = env.served.mark()
	again, err := ghx.ListAll(ctx, list)
	if _, counted := env.served.since(mark); err != nil || len(again) != len(all) || counted != 0 {
		t.Errorf("second read: %d items, %d counted, %v", len(again), counted, err)
	}
}

// TestSandboxRidesOutFaults: each fault the sandbox can inject, on the
// first request only, is waited out or retried as GitHub asks, and the read
// succeeds.
func TestSandboxRidesOutFaults(t *testing.T) {
	t.Parallel()
	const path = "/repos/acme/benefits/issues/3"
	cases := []struct {
		name   string
		fault  sandbox.Fault
		wait   time.Duration
		reason string
	}{
		{"403 with retry-after", sandbox.FaultSecondaryRetry, 60 * time.Second, "secondary rate limit"},
		{"403 without retry-after", sandbox.FaultSecondaryNoWait, time.Minute, "secondary rate limit"},
		{"429 with retry-after", sandbox.FaultSecondary429, 30 * time.Second, "secondary rate limit"},
		{"502", sandbox.FaultBadGateway, 500 * time.Millisecond, "502"},
		{"503", sandbox.FaultUnavailable, 500 * time.Millisecond, "503"},
		{"dropped mid-body", sandbox.FaultDrop, 500 * time.Millisecond, "connection"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := startSandbox(t, envConfig{sandbox: sandbox.Options{FaultPlan: planOnce("GET", path, c.fault)}})
			mark := env.served.mark()
			is, _, err := env.client.Issues.Get(context.Background(), owner, repo, sandbox.DemoStoryReady)
			if err != nil || is.GetNumber() != sandbox.DemoStoryReady {
				t.Fatalf("read after the fault: %v", err)
			}
			if got := env.sleeps.recorded(); len(got) != 1 || got[0] != c.wait {
				t.Errorf("waited %v, want once %v", got, c.wait)
			}
			if w := *env.waits; len(w) != 1 || !strings.Contains(w[0].Reason, c.reason) || w[0].Attempt != 2 {
				t.Errorf("waits announced: %+v", w)
			}
			if lines, _ := env.served.since(mark); len(lines) != 2 {
				t.Errorf("requests served: %q, want the faulty one and its retry", lines)
			}
		})
	}
}

// TestSandboxWriteFaultsAreNotRepeated: a write that met a 502 or a dropped
// connection may have landed; it is reported so, never sent twice.
func TestSandboxWriteFaultsAreNotRepeated(t *testing.T) {
	t.Parallel()
	const path = "/repos/acme/benefits/issues/1/comments"
	for _, fault := range []sandbox.Fault{sandbox.FaultBadGateway, sandbox.FaultDrop} {
		env := startSandbox(t, envConfig{sandbox: sandbox.Options{FaultPlan: planOnce("POST", path, fault)}})
		mark := env.served.mark()
		_, _, err := env.client.Issues.CreateComment(context.Background(), owner, repo, 1, &github.IssueComment{Body: github.String("hello")})
		if !errors.Is(err, ghx.ErrMayHaveLanded) {
			t.Errorf("fault %d: err %v, want ErrMayHaveLanded", fault, err)
		}
		if lines, _ := env.served.since(mark); len(lines) != 1 {
			t.Errorf("fault %d: the write was sent %d times", fault, len(lines))
		}
	}
}

// TestSandboxListAllUnderRandomFaults: with faults drawn at random from a
// fixed seed, a long read still completes with every item once.
func TestSandboxListAllUnderRandomFaults(t *testing.T) {
	t.Parallel()
	faults := sandbox.FaultSpec{ServerError: 0.15, SecondaryLimit: 0.1, Drop: 0.1, Seed: 7}
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{Scale: 260, Faults: faults}})
	ctx := context.Background()
	all, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		opts.PerPage = 30
		return env.client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "all", ListOptions: *opts})
	})
	seen := map[int]bool{}
	for _, is := range all {
		seen[is.GetNumber()] = true
	}
	if err != nil || len(all) < 275 || len(seen) != len(all) {
		t.Fatalf("%d items (%d distinct): %v", len(all), len(seen), err)
	}
	if len(env.sleeps.recorded()) == 0 {
		t.Errorf("no fault was met; the seed should give some")
	}
}

// TestSandboxArtifacts: every merge-gate artifact downloads through the
// 302 and the signed URL, except the expired one, which reads as expired.
func TestSandboxArtifacts(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	runs, _, err := env.client.Actions.ListWorkflowRunsByFileName(ctx, owner, repo, sandbox.GateFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	downloaded, expired := 0, 0
	for _, run := range runs.WorkflowRuns {
		arts, _, err := env.client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, run.GetID(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arts.Artifacts {
			var buf bytes.Buffer
			_, err := ghx.DownloadArtifact(ctx, env.client, owner, repo, a.GetID(), &buf, 64<<20)
			switch {
			case a.GetExpired() && ghx.IsExpired(err) && errors.Is(err, ghx.ErrArtifactExpired):
				expired++
				if !strings.Contains(ghx.Describe(err), "expired") {
					t.Errorf("Describe: %q", ghx.Describe(err))
				}
			case !a.GetExpired() && err == nil && bytes.HasPrefix(buf.Bytes(), []byte("PK")):
				downloaded++
			default:
				t.Errorf("artifact %d (expired %v): %v", a.GetID(), a.GetExpired(), err)
			}
		}
	}
	if downloaded == 0 || expired != 1 {
		t.Errorf("downloaded %d, expired %d; the demo has several and exactly one expired", downloaded, expired)
	}
	arts, _, err := env.client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, env.srv.RunID(sandbox.RunExpired), nil)
	if err != nil || len(arts.Artifacts) != 1 {
		t.Fatalf("expired run's artifacts: %v", err)
	}
	_, err = ghx.DownloadArtifact(ctx, env.client, owner, repo, arts.Artifacts[0].GetID(), &bytes.Buffer{}, 1<<20)
	if !ghx.IsExpired(err) || strings.Contains(err.Error(), "unexpected status") {
		t.Errorf("expired artifact: %v", err)
	}
}
