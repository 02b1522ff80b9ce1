package ghx

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostile starts a bounded server on 127.0.0.1 that stops with the test.
func hostile(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func limitedClientGet(t *testing.T, url string, l Limits) (time.Duration, error) {
	t.Helper()
	c, err := NewClient(ClientOptions{APIURL: url, Token: NewToken("ghp_limits-test-token", "test"), Limits: l,
		Retry: RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	// A bound on a hang only, never reached by a passing run: the limits
	// under test stop each request long before it. Streaming 32 MiB under
	// -race on a loaded two-core machine took 37 s, past the 30 s this was.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	_, _, err = c.Users.Get(ctx, "")
	return time.Since(start), err
}

func wantLimit(t *testing.T, err error, kind LimitKind, words ...string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Kind != kind {
		t.Fatalf("want a limit error of kind %d, got %v", kind, err)
	}
	said := Describe(err)
	for _, w := range append(words, "/user") {
		if !strings.Contains(said, w) {
			t.Errorf("Describe does not say %q: %s", w, said)
		}
	}
	if strings.Contains(said, "ghp_limits-test-token") {
		t.Fatalf("the words show the token: %s", said)
	}
}

// trickle answers /user with JSON headers, then one byte per every, for at
// most n bytes or until the client goes away.
func trickle(every time.Duration, n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for i := 0; i < n; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(every):
			}
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

func TestTransportRefusesServerTricklingAByteEveryTwoSeconds(t *testing.T) {
	url := hostile(t, trickle(2*time.Second, 10))
	took, err := limitedClientGet(t, url, Limits{Idle: 300 * time.Millisecond})
	wantLimit(t, err, LimitIdle, "sent nothing for 300ms")
	if took > 1500*time.Millisecond {
		t.Errorf("refusing a silent server took %v with a 300ms idle limit", took)
	}
}

func TestTransportRefusesBodyPastTheOverallDeadline(t *testing.T) {
	url := hostile(t, trickle(20*time.Millisecond, 500))
	took, err := limitedClientGet(t, url, Limits{Timeout: 400 * time.Millisecond, Idle: 300 * time.Millisecond})
	wantLimit(t, err, LimitDeadline, "took longer than 400ms")
	if took > 2*time.Second {
		t.Errorf("the 400ms deadline took %v to stop the request", took)
	}
}

func TestTransportRefusesHugeJSONBody(t *testing.T) {
	t.Run("declared 600 MB", func(t *testing.T) {
		url := hostile(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "600000000")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"login":"`))
		})
		took, err := limitedClientGet(t, url, Limits{})
		wantLimit(t, err, LimitSize, "572.2 MiB", "over the 32 MiB")
		if took > time.Second {
			t.Errorf("a declared 600 MB body took %v to refuse", took)
		}
	})
	t.Run("streamed 600 MB", func(t *testing.T) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		url := hostile(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"login":"`))
			for i := 0; i < 600; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		})
		before := allocated()
		_, err := limitedClientGet(t, url, Limits{})
		grew := allocated() - before
		wantLimit(t, err, LimitSize, "grew past the 32 MiB")
		t.Logf("refusing a 600 MB /user allocated %d MiB in all", grew>>20)
		if grew > 256<<20 {
			t.Errorf("reading a capped body allocated %d MiB", grew>>20)
		}
	})
}

func TestTransportRefusesGzipBomb(t *testing.T) {
	// 256 gzip members of 1 MiB of spaces each, one after another: one
	// stream that inflates to 256 MiB (RFC 1952 2.2: a gzip file is a
	// series of members; Go's gzip reader, which the transport's
	// decompression uses, reads them all as one body). Compressing 256 MiB
	// as a single member took minutes under -race on two busy cores; one
	// member compressed once and repeated is the same bomb on the wire's
	// far side.
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	_, _ = zw.Write(bytes.Repeat([]byte(" "), 1<<20))
	_ = zw.Close()
	bomb := bytes.NewBuffer(bytes.Repeat(member.Bytes(), 256)) // 256 MiB inflated
	url := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			http.Error(w, "the test expects Go's transport to ask for gzip", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb.Bytes())
	})
	t.Logf("the bomb is %d KiB and inflates to 256 MiB", bomb.Len()>>10)
	took, err := limitedClientGet(t, url, Limits{MaxJSON: 4 << 20})
	wantLimit(t, err, LimitSize, "grew past the 4 MiB")
	if took > 5*time.Second {
		t.Errorf("refusing the bomb took %v", took)
	}
}

func TestTransportLimitsLeaveSoundAnswersAlone(t *testing.T) {
	url := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"login":"founder","id":1}`))
	})
	c, err := NewClient(ClientOptions{APIURL: url, Limits: Limits{Idle: 200 * time.Millisecond, Timeout: time.Second, MaxJSON: 64}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		u, _, err := c.Users.Get(context.Background(), "")
		if err != nil || u.GetLogin() != "founder" {
			t.Fatalf("a sound answer within the limits failed: %v", err)
		}
	}
	// The timers of a finished request never fire into the next one.
	time.Sleep(1200 * time.Millisecond)
	if _, _, err := c.Users.Get(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
}

func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestTransportLimitsTakeAHeadAtItsWord: a HEAD answer declares the size of
// a body it never sends; that is no reason to refuse it.
func TestTransportLimitsTakeAHeadAtItsWord(t *testing.T) {
	t.Parallel()
	url := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "600000000")
	})
	c, err := NewClient(ClientOptions{APIURL: url})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodHead, url+"repos/acme/benefits", nil)
	resp, err := c.Client().Do(req)
	if err != nil {
		t.Fatalf("HEAD was refused: %v", err)
	}
	resp.Body.Close()
}
