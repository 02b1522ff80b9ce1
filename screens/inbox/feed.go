package inbox

// The feed: the reads from GitHub. It keeps the last snapshot and how
// fresh it is, the read under way with its spinner, and the lines typed
// before the first read landed; its View is the header's word on how
// fresh the cards are. What a read means for the cards is the root's
// (model.go): the feed only takes it in.

import (
	"fmt"
	"strings"
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

// halfDone is the failure card of a card an earlier run left half done,
// so the next run does not pass it off as a fresh card: a Decision GitHub
// shows commented as accepted but still open, or a request the actions log
// records as stopped part-way; nil for any other card.
func (f *feed) halfDone(st model.Step) *Failure {
	if st.HalfDone != "" {
		return &Failure{
			What:      st.HalfDone,
			Changed:   "The comment is on GitHub; the rest is not.",
			Next:      "Press Enter to finish it: aayu makes only the writes still missing, each once.",
			Details:   []string{"Found on GitHub at this read: the comment accepting the option is there and the item is still open (an earlier run was stopped, or failed, after its first write)."},
			Retryable: true,
		}
	}
	if pr, r, ok := f.stoppedShip(st); ok {
		changed := "Nothing was merged; the bypass comment, if one was posted, stays for this head."
		if r.Detail != "" {
			changed = capitalise(r.Detail) + "."
		}
		return &Failure{
			What:      fmt.Sprintf("Half done: aayu ship %d was stopped at %s after a write landed; the ship is not finished.", pr, clock(r.Time)),
			Changed:   changed,
			Next:      fmt.Sprintf("Press Enter to finish it with aayu ship %d: it never merges twice and writes only what is missing. 1 would mark it merged without proof instead.", pr),
			Details:   []string{"From the actions log: ship " + fmt.Sprint(pr) + ", outcome interrupted."},
			Retryable: true,
		}
	}
	for _, r := range f.interrupted {
		for _, c := range st.Choices {
			if r.Item != fmt.Sprintf("#%d", st.Item.Number) || r.Command != actions.InboxCommand(st, c) {
				continue
			}
			changed := "Nothing was recorded as landed; a write may have reached GitHub, and aayu checks each before writing it again."
			if len(r.Writes) > 0 {
				changed = "What landed: " + strings.Join(r.Writes, "; ") + ". The rest did not, or may not have."
			}
			next := fmt.Sprintf("Press %s to finish it (%s): aayu makes only the writes still missing, each once.", c.Key, c.Label)
			if c.Key == st.Recommendation.Key {
				next = "Press Enter to finish it: aayu makes only the writes still missing, each once."
			}
			return &Failure{
				What:      fmt.Sprintf("Half done: an earlier run was stopped at %s while it wrote %s.", clock(r.Time), c.Label),
				Changed:   changed,
				Next:      next,
				Details:   append([]string{"From the actions log: " + r.Command + ", outcome interrupted."}, strings.Split(r.Detail, " | ")...),
				Retryable: true,
			}
		}
	}
	return nil
}

// stoppedShip finds, for a Story merged without a ship record, the ship of
// one of its pull requests a quit request stopped part-way (the actions
// log): the merge landed, the record did not, and aayu ship finishes it.
func (f *feed) stoppedShip(st model.Step) (int, actions.Record, bool) {
	if st.Kind != model.KindMergedWithoutShip {
		return 0, actions.Record{}, false
	}
	for _, l := range st.Links {
		for _, r := range f.interrupted {
			if l.IsPR && r.Item == fmt.Sprintf("#%d", l.Number) && r.Command == fmt.Sprintf("ship %d", l.Number) {
				return l.Number, r, true
			}
		}
	}
	return 0, actions.Record{}, false
}
