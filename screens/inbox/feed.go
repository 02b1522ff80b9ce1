package inbox

// The feed: the reads from GitHub. It keeps the last snapshot and how
// fresh it is, the read under way with its spinner, and the lines typed
// before the first read landed; its View is the header's word on how
// fresh the cards are. What a read means for the cards is the root's
// (model.go): the feed only takes it in.

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// feed is the reads: the last snapshot, how fresh it is, and the read
// under way with its spinner.
type feed struct {
	snap    *model.Snapshot
	readAt  time.Time
	cached  bool // the cards shown are the last read, not yet refreshed
	partial bool // ... or the first read so far, still arriving (stream.go)
	reading bool
	readErr error
	// stale: the last read failed, and the cards shown are the last good
	// read's (readAt), kept on screen and marked so.
	stale bool
	// refreshAsked: the person pressed r, so the landing of this read is
	// said in words, never left at "Refreshing from GitHub…".
	refreshAsked bool
	spin         tui.Spin         // beside "reading" while a read is under way
	readSince    time.Time        // when the read under way began
	early        []string         // plain: lines typed before the first read landed
	interrupted  []actions.Record // requests an earlier run stopped part-way (the actions log)
}

// startSpin marks a read under way from now, with the spinner beside
// "reading" in the full screen (a read at a slow network's pace always
// moves); its ticks stop once no read is under way (Update).
func (f *feed) startSpin(now time.Time, animate bool) tea.Cmd {
	f.readSince = now
	return f.spin.Start(animate)
}

// Update moves the spinner while a read is under way and drops the tick
// after, which stops it. Another screen's spinner ticks carry another ID
// and leave this one alone.
func (f *feed) Update(msg spinner.TickMsg) tea.Cmd { return f.spin.Update(msg, f.reading) }

// takeCache shows the cached read when nothing else is shown yet,
// reporting whether it did.
func (f *feed) takeCache(msg cacheMsg) bool {
	if !msg.ok || f.snap != nil {
		return false
	}
	s := msg.snap
	f.snap, f.readAt, f.cached = &s, msg.at, true
	return true
}

// takePartial shows part of the first read while it arrives, unless a
// whole read (a cached one) is shown; it reports whether it did.
func (f *feed) takePartial(msg partialMsg) bool {
	if !f.reading || (f.snap != nil && !f.partial) {
		return false
	}
	s := msg.snap
	f.snap, f.readAt, f.cached, f.partial = &s, msg.at, true, true
	return true
}

// dropPartial forgets a first read that failed before it was whole,
// reporting whether there was one.
func (f *feed) dropPartial() bool {
	if !f.partial {
		return false
	}
	f.snap, f.cached, f.partial = nil, false, false
	return true
}

// land takes a whole read in. It reports whether it is the first whole
// one, and whether the person asked for it with r.
func (f *feed) land(msg readMsg) (first, asked bool) {
	f.readErr = nil
	first = f.snap == nil || f.cached
	s := msg.snap
	f.snap, f.readAt, f.cached, f.stale, f.partial = &s, msg.at, false, false, false
	return first, f.takeAsked()
}

// takeAsked ends the read under way, reporting whether r asked for it.
func (f *feed) takeAsked() bool {
	f.reading = false
	asked := f.refreshAsked
	f.refreshAsked = false
	return asked
}

// notReady says why the cards shown cannot be acted on yet, or "".
func (f *feed) notReady() string {
	switch {
	case f.snap == nil:
		return "still reading GitHub"
	case f.partial:
		return "the read from GitHub is still arriving"
	case f.cached:
		return "these cards are from the last read; waiting for GitHub"
	}
	return ""
}

// viewer is the login the cards were read as, or "".
func (f *feed) viewer() string {
	if f.snap == nil {
		return ""
	}
	return f.snap.Viewer
}

// View is the feed in the header: how fresh the cards are, in words (when
// the read they come from was made, and whether a newer one is under way
// or failed). now is the clock, read only while a read is under way;
// cards is how many cards a read still arriving brought so far.
func (f *feed) View(st tui.Styles, now func() time.Time, cards int) string {
	at := clock(f.readAt)
	refreshing, spin := "", ""
	if f.reading {
		refreshing = ", refreshing…" + f.readingFor(now)
		spin = f.spin.View() + " "
	}
	switch {
	case f.snap == nil && f.readErr != nil:
		return st.Failed.Render("read failed")
	case f.snap == nil:
		return spin + "reading GitHub…" + f.readingFor(now)
	case f.partial:
		return spin + st.Warning.Render("arriving") + fmt.Sprintf(": %d cards so far, reading GitHub…", cards) + f.readingFor(now)
	case f.cached && f.readErr != nil:
		return st.Warning.Render("cached") + " from " + at + "; the read failed"
	case f.cached:
		return spin + st.Warning.Render("cached") + " from " + at + refreshing
	case f.stale:
		return spin + st.Failed.Render("stale") + " from " + at + "; the read failed" + refreshing
	}
	return spin + "read at " + at + refreshing
}

// readingFor is how long the read under way has taken, once it is a
// second or more: " 3s".
func (f *feed) readingFor(now func() time.Time) string {
	if !f.reading || f.readSince.IsZero() {
		return ""
	}
	d := now().Sub(f.readSince)
	if d < time.Second {
		return ""
	}
	return " " + d.Truncate(time.Second).String()
}
