package ghx

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
)

const secondaryDoc = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"

func TestRetriesGatewayErrorThenSucceeds(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var calls atomic.Int32
	f.mux.HandleFunc("GET /repos/acme/benefits/pulls/148", func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			githubError(w, http.StatusBadGateway, "Server Error", "")
		case 2:
			githubError(w, http.StatusServiceUnavailable, "Service Unavailable", "")
		default:
			f.serveJSON(w, r, http.StatusOK, map[string]any{"number": 148})
		}
	})
	s := newTestClient(t, f, nil)
	pr, _, err := s.client.PullRequests.Get(context.Background(), "acme", "benefits", 148)
	if err != nil {
		t.Fatalf("PullRequests.Get: %v", err)
	}
	if pr.GetNumber() != 148 || calls.Load() != 3 {
		t.Errorf("number %d after %d calls, want 148 after 3", pr.GetNumber(), calls.Load())
	}
	// Full jitter is pinned to its ceiling here: 500ms, then 1s.
	if got := s.sleep.recorded(); len(got) != 2 || got[0] != 500*time.Millisecond || got[1] != time.Second {
		t.Errorf("backoff waits %v, want [500ms 1s]", got)
	}
	if len(*s.waits) != 2 || !strings.Contains((*s.waits)[0].String(), "502") {
		t.Errorf("waits reported %v", *s.waits)
	}
}

func TestGatewayErrorsGiveUpAfterMaxAttempts(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var calls atomic.Int32
	f.mux.HandleFunc("GET /repos/acme/benefits/pulls/148", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		githubError(w, http.StatusGatewayTimeout, "timeout", "")
	})
	s := newTestClient(t, f, func(o *ClientOptions) { o.Retry.MaxAttempts = 3 })
	_, resp, err := s.client.PullRequests.Get(context.Background(), "acme", "benefits", 148)
	if err == nil || resp == nil || resp.StatusCode != http.StatusGatewayTimeout || calls.Load() != 3 {
		t.Fatalf("err %v after %d calls; want the 504 after 3", err, calls.Load())
	}
}

func TestDroppedConnectionMidBodyIsRetried(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var calls atomic.Int32
	f.mux.HandleFunc("GET /repos/acme/benefits/issues/131", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("ETag", `"abc"`)
			w.Header().Set("Content-Length", "4000")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(`{"number":131,"title":"cut off`))
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		f.serveJSON(w, r, http.StatusOK, map[string]any{"number": 131, "title": "whole"})
	})
	s := newTestClient(t, f, nil)
	issue, _, err := s.client.Issues.Get(context.Background(), "acme", "benefits", 131)
	if err != nil {
		t.Fatalf("Issues.Get: %v", err)
	}
	if issue.GetTitle() != "whole" || calls.Load() != 2 {
		t.Errorf("title %q after %d calls, want the whole body after 2", issue.GetTitle(), calls.Load())
	}
}

func TestDroppedConnectionWithoutCacheIsRetried(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var calls atomic.Int32
	f.mux.HandleFunc("GET /repos/acme/benefits/issues/131", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Length", "4000")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(`{"number":`))
			w.(http.Flusher).Flush()
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		w.Write([]byte(`{"number":131}`))
	})
	s := newTestClient(t, f, func(o *ClientOptions) { o.CacheDir = "" })
	issue, _, err := s.client.Issues.Get(context.Background(), "acme", "benefits", 131)
	if err != nil || issue.GetNumber() != 131 || calls.Load() != 2 {
		t.Fatalf("err %v, %d calls; want success on the second", err, calls.Load())
	}
}

func TestWriteOnGatewayErrorMayHaveLanded(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			f := newFakeGitHub(t)
			var posts atomic.Int32
			f.mux.HandleFunc("POST /repos/acme/benefits/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
				posts.Add(1)
				githubError(w, status, "Server Error", "")
			})
			s := newTestClient(t, f, nil)
			_, _, err := s.client.Issues.CreateComment(context.Background(), "acme", "benefits", 7,
				&github.IssueComment{Body: github.String("Accepted option 2")})
			if !errors.Is(err, ErrMayHaveLanded) {
				t.Fatalf("err = %v, want ErrMayHaveLanded", err)
			}
			var landed *MayHaveLandedError
			if !errors.As(err, &landed) || landed.Status != status || landed.Method != "POST" {
				t.Errorf("MayHaveLandedError = %+v", landed)
			}
			if posts.Load() != 1 || len(s.sleep.recorded()) != 0 {
				t.Errorf("the write was sent %d times with waits %v; a write is never retried", posts.Load(), s.sleep.recorded())
			}
			if d := Describe(err); !strings.Contains(d, "may or may not") {
				t.Errorf("Describe = %q", d)
			}
		})
	}
}

func TestWriteOnDroppedConnectionMayHaveLanded(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var patches atomic.Int32
	f.mux.HandleFunc("PATCH /repos/acme/benefits/issues/7", func(w http.ResponseWriter, r *http.Request) {
		patches.Add(1)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	})
	s := newTestClient(t, f, nil)
	_, _, err := s.client.Issues.Edit(context.Background(), "acme", "benefits", 7, &github.IssueRequest{State: github.String("closed")})
	if !errors.Is(err, ErrMayHaveLanded) || patches.Load() != 1 {
		t.Fatalf("err = %v after %d PATCHes; want ErrMayHaveLanded after 1", err, patches.Load())
	}
}

func TestWaitsOutSecondaryRateLimit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		status   int
		header   map[string]string
		body     bool
		wantWait time.Duration
	}{
		{"403 with retry-after", http.StatusForbidden, map[string]string{"Retry-After": "30"}, true, 30 * time.Second},
		{"429 with retry-after", http.StatusTooManyRequests, map[string]string{"Retry-After": "7"}, false, 7 * time.Second},
		{"403 without retry-after", http.StatusForbidden, nil, true, time.Minute},
		{"403 with reset", http.StatusForbidden, map[string]string{"X-RateLimit-Remaining": "0",
			"X-RateLimit-Reset": strconv.FormatInt(time.Unix(1_800_000_000, 0).Add(45*time.Second).Unix(), 10)}, true, 45 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeGitHub(t)
			var calls atomic.Int32
			f.mux.HandleFunc("POST /repos/acme/benefits/issues/7/labels", func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					for k, v := range c.header {
						w.Header().Set(k, v)
					}
					msg := "Too many requests"
					if c.body {
						msg = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
					}
					githubError(w, c.status, msg, secondaryDoc)
					return
				}
				f.serveJSON(w, r, http.StatusOK, []map[string]any{{"name": "status:accepted"}})
			})
			s := newTestClient(t, f, func(o *ClientOptions) {
				o.Now = func() time.Time { return time.Unix(1_800_000_000, 0) }
			})
			labels, _, err := s.client.Issues.AddLabelsToIssue(context.Background(), "acme", "benefits", 7, []string{"status:accepted"})
			if err != nil {
				t.Fatalf("AddLabelsToIssue: %v", err)
			}
			if len(labels) != 1 || calls.Load() != 2 {
				t.Errorf("%d labels after %d calls", len(labels), calls.Load())
			}
			if got := s.sleep.recorded(); len(got) != 1 || got[0] != c.wantWait {
				t.Errorf("waits %v, want [%v]", got, c.wantWait)
			}
			want := "waiting " + c.wantWait.String() + " for GitHub's secondary rate limit"
			if len(*s.waits) != 1 || (*s.waits)[0].String() != want {
				t.Errorf("reported %v, want %q", *s.waits, want)
			}
		})
	}
}

func TestSecondaryLimitTooLongIsReturnedNotWaited(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	f.mux.HandleFunc("GET /repos/acme/benefits", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		githubError(w, http.StatusForbidden, "You have exceeded a secondary rate limit.", secondaryDoc)
	})
	s := newTestClient(t, f, nil)
	_, _, err := s.client.Repositories.Get(context.Background(), "acme", "benefits")
	var secondary *SecondaryRateLimitError
	if !errors.As(err, &secondary) || secondary.RetryAfter != time.Hour {
		t.Fatalf("err = %v, want a SecondaryRateLimitError of 1h", err)
	}
	if len(s.sleep.recorded()) != 0 {
		t.Error("waited although the wait is over the cap")
	}
	if d := Describe(err); !strings.Contains(d, "wait 1h0m0s") {
		t.Errorf("Describe = %q", d)
	}
}

func TestSecondaryLimitWaitHonoursContext(t *testing.T) {
	f := newFakeGitHub(t)
	f.mux.HandleFunc("GET /repos/acme/benefits", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		githubError(w, http.StatusTooManyRequests, "slow down", "")
	})
	ctx, cancel := context.WithCancel(context.Background())
	s := newTestClient(t, f, func(o *ClientOptions) {
		o.Sleep = sleepContext
		o.Retry.OnWait = func(Wait) { cancel() }
	})
	start := time.Now()
	_, _, err := s.client.Repositories.Get(ctx, "acme", "benefits")
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v, want a prompt cancellation", err, time.Since(start))
	}
}

func TestPrimaryRateLimitIsTypedAndNotWaited(t *testing.T) {
	t.Parallel()
	reset := time.Unix(1_800_003_600, 0)
	for _, status := range []int{http.StatusForbidden, http.StatusTooManyRequests} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			f := newFakeGitHub(t)
			f.mux.HandleFunc("GET /user", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-RateLimit-Limit", "5000")
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
				githubError(w, status, "API rate limit exceeded for user ID 1.",
					"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits")
			})
			s := newTestClient(t, f, nil)
			_, _, err := s.client.Users.Get(context.Background(), "")
			var primary *PrimaryRateLimitError
			if !errors.As(err, &primary) || !primary.Reset.Equal(reset) || primary.Limit != 5000 {
				t.Fatalf("err = %v, want a PrimaryRateLimitError resetting at %v", err, reset)
			}
			if len(s.sleep.recorded()) != 0 {
				t.Error("waited for the primary limit")
			}
			if d := Describe(err); !strings.Contains(d, reset.UTC().Format("15:04 UTC")) {
				t.Errorf("Describe = %q, want the reset time", d)
			}
		})
	}
}

func TestPermissionForbiddenIsNotARateLimit(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	f.mux.HandleFunc("GET /repos/acme/benefits/collaborators/writer/permission", func(w http.ResponseWriter, r *http.Request) {
		githubError(w, http.StatusForbidden, "Must have push access to view collaborator permission.", "https://docs.github.com/rest")
	})
	s := newTestClient(t, f, nil)
	_, _, err := s.client.Repositories.GetPermissionLevel(context.Background(), "acme", "benefits", "writer")
	var resp *github.ErrorResponse
	if !errors.As(err, &resp) || resp.Response.StatusCode != http.StatusForbidden || len(s.sleep.recorded()) != 0 {
		t.Fatalf("err = %v, want the plain 403 without waiting", err)
	}
	if d := Describe(err); !strings.Contains(d, "push access") || !strings.Contains(d, "nothing was changed") {
		t.Errorf("Describe = %q", d)
	}
}

// While one request sits out a secondary rate limit, a request issued
// beside it must not reach GitHub: the limit is the client's, and asking
// again meanwhile is what GitHub's guidance forbids.
func TestSecondaryLimitHoldsTheClientsOtherRequests(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	var limited atomic.Int32
	var othersDuringWait atomic.Int32
	waiting := make(chan struct{})
	release := make(chan struct{})
	var inWait atomic.Bool
	f.mux.HandleFunc("GET /repos/acme/benefits", func(w http.ResponseWriter, r *http.Request) {
		if limited.Add(1) == 1 {
			w.Header().Set("Retry-After", "7")
			githubError(w, http.StatusTooManyRequests, "You have exceeded a secondary rate limit.", secondaryDoc)
			return
		}
		f.serveJSON(w, r, http.StatusOK, map[string]any{"name": "benefits"})
	})
	f.mux.HandleFunc("GET /repos/acme/other", func(w http.ResponseWriter, r *http.Request) {
		if inWait.Load() {
			othersDuringWait.Add(1)
		}
		f.serveJSON(w, r, http.StatusOK, map[string]any{"name": "other"})
	})
	s := newTestClient(t, f, func(o *ClientOptions) {
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			inWait.Store(true)
			close(waiting)
			select {
			case <-release:
			case <-ctx.Done():
				return ctx.Err()
			}
			inWait.Store(false)
			return nil
		}
	})
	ctx := context.Background()
	first := make(chan error, 1)
	go func() {
		_, _, err := s.client.Repositories.Get(ctx, "acme", "benefits")
		first <- err
	}()
	<-waiting
	second := make(chan error, 1)
	go func() {
		_, _, err := s.client.Repositories.Get(ctx, "acme", "other")
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("a request went out while the client sat out a secondary limit (err %v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("the limited request: %v", err)
	}
	if err := <-second; err != nil {
		t.Fatalf("the held request: %v", err)
	}
	if n := othersDuringWait.Load(); n != 0 {
		t.Errorf("%d requests reached GitHub during the wait", n)
	}
}

// TestRefusedLoopbackFailsAtOnce: nothing listening on this machine (a
// sandbox not running) is said after one try, not after four with
// backoff; the error still says nothing was sent.
func TestRefusedLoopbackFailsAtOnce(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // the port is free now: a dial is refused
	waits := 0
	rt := &retryTransport{next: http.DefaultTransport, policy: RetryPolicy{OnWait: func(Wait) { waits++ }}.withDefaults(),
		sleep: func(context.Context, time.Duration) error { return nil }, now: time.Now}
	c := &http.Client{Transport: rt}
	resp, err := c.Get("http://" + addr + "/user")
	if err == nil {
		resp.Body.Close()
		t.Fatal("a refused connection answered")
	}
	if waits != 0 || !neverSent(err) {
		t.Errorf("a refused loopback connection waited %d times (err %v); want none, and nothing sent", waits, err)
	}
}
