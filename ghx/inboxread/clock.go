package inboxread

import (
	"net/http"
	"sync"
	"time"
)

// serverClock is what the reader knows of GitHub's clock: a lower bound on
// its offset from the reader's own, from the Date header of each answer.
// An answer sent at server time s carries Date = s rounded down to the
// second, and arrives after it was sent, so Date minus the local arrival
// time never exceeds the true offset; the largest such bound is kept.
// Measuring, rather than assuming the two clocks agree, is what lets a
// version be called settled a second after its updated_at, on a machine
// whose clock is off by minutes.
type serverClock struct {
	mu     sync.Mutex
	offset time.Duration
	known  bool
}

// observe takes one answer's Date header, read at local time arrived.
func (c *serverClock) observe(h http.Header, arrived time.Time) {
	date, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return
	}
	bound := date.Sub(arrived)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known || bound > c.offset {
		c.offset, c.known = bound, true
	}
}

// atOrBefore is a server time no later than the server's clock was at
// local time t; zero when no answer has said what the server's clock is.
func (c *serverClock) atOrBefore(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known {
		return time.Time{}
	}
	return t.Add(c.offset).UTC()
}
