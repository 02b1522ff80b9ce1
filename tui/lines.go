package tui

import (
	"bufio"
	"io"
	"strings"
	"sync"
)

// LineReader is the process's one reader of standard input in plain mode.
// Screens follow each other (the presence check, then the inbox, then
// ship, then the inbox again); each used to wrap the input in a scanner of
// its own, and the scanner buffered lines the next screen never saw. A
// LineReader outlives the screens: a line stays queued until a screen takes
// it, so no line typed before, between or after a screen change is lost.
type LineReader struct {
	src   io.Reader
	start sync.Once

	mu      sync.Mutex
	queue   []string
	ended   bool
	changed chan struct{} // closed and replaced whenever queue or ended changes
}

// NewLineReader returns a reader of src's lines; nothing is read from src
// until a screen first waits for a line, so a token prompt that reads the
// terminal before any screen is not raced.
func NewLineReader(src io.Reader) *LineReader {
	return &LineReader{src: src, changed: make(chan struct{})}
}

func (r *LineReader) run() {
	if r.src == nil {
		r.push("", true)
		return
	}
	sc := bufio.NewScanner(r.src)
	for sc.Scan() {
		r.push(strings.TrimSpace(sc.Text()), false)
	}
	r.push("", true)
}

func (r *LineReader) push(line string, end bool) {
	r.mu.Lock()
	if end {
		r.ended = true
	} else {
		r.queue = append(r.queue, line)
	}
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// wait blocks until a line is queued or the input ended (true), or done is
// closed (false). It takes nothing: the screen's own Update takes the line,
// so a screen that finished while waiting leaves the line for the next.
func (r *LineReader) wait(done <-chan struct{}) bool {
	r.start.Do(func() { go r.run() })
	for {
		r.mu.Lock()
		ready, ch := len(r.queue) > 0 || r.ended, r.changed
		r.mu.Unlock()
		if ready {
			return true
		}
		select {
		case <-ch:
		case <-done:
			return false
		}
	}
}

// take removes the next line; ok is false when none is queued, and ended
// then says whether the input is over.
func (r *LineReader) take() (line string, ok, ended bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.queue) > 0 {
		line, r.queue = r.queue[0], r.queue[1:]
		return line, true, false
	}
	return "", false, r.ended
}
