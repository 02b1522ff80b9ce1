package sandbox

import (
	"net/http"
	"strconv"
	"time"
)

// rateBucket is one account's primary limit for the core resource.
type rateBucket struct {
	limit int
	used  int
	reset time.Time
}

// bucket returns the caller's bucket, opening a new hour when the last one
// has passed. Anonymous callers share one bucket of 60, as per IP on GitHub.
func (s *Server) bucket(c caller) *rateBucket {
	key, limit := c.Login, s.opts.RateLimit
	if c.anonymous {
		key, limit = "", 60
	}
	now := s.now()
	b := s.rates[key]
	if b == nil || !now.Before(b.reset) {
		b = &rateBucket{limit: limit, reset: now.Add(time.Hour).Truncate(time.Second)}
		s.rates[key] = b
	}
	return b
}

func (b *rateBucket) remaining() int {
	if b.used >= b.limit {
		return 0
	}
	return b.limit - b.used
}

func (b *rateBucket) setHeaders(h http.Header) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(b.remaining()))
	h.Set("X-RateLimit-Used", strconv.Itoa(b.used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(b.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
}

// writeRateLimited answers as GitHub does when the primary limit is spent:
// 403 with remaining 0, which go-github v66 turns into a RateLimitError.
func writeRateLimited(w http.ResponseWriter, c caller) {
	who := "user ID " + strconv.FormatInt(c.ID, 10)
	if c.anonymous {
		who = "127.0.0.1"
	}
	writeErrorDoc(w, http.StatusForbidden, "API rate limit exceeded for "+who+".",
		"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits")
}

func (s *Server) handleRateLimit(w http.ResponseWriter, r *http.Request) {
	b := s.bucket(callerOf(r))
	core := map[string]any{"limit": b.limit, "remaining": b.remaining(), "used": b.used, "reset": b.reset.Unix()}
	other := func(limit int) map[string]any {
		return map[string]any{"limit": limit, "remaining": limit, "used": 0, "reset": b.reset.Unix()}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"resources": map[string]any{
			"core":    core,
			"search":  other(30),
			"graphql": s.graphqlBucket(callerOf(r)).overview(),
		},
		"rate": core,
	})
}

func (b *rateBucket) overview() map[string]any {
	return map[string]any{"limit": b.limit, "remaining": b.remaining(), "used": b.used, "reset": b.reset.Unix()}
}
