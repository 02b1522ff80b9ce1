package inbox

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	model "github.com/aayudha/aayu/model/inbox"
)

// A first read shows its cards as they arrive instead of a static
// "reading" screen: Deps.Read may hand what it has so far to the function
// PartialOf finds in its context. Those cards are shown marked as still
// arriving and, like cached ones, are never acted on; the whole read
// replaces them. A cached read already on screen is kept instead: it is
// whole, where a partial one is not.

type partialKey struct{}

// partialMsg is part of the first read, as it arrived.
type partialMsg struct {
	snap model.Snapshot
	at   time.Time
	ch   <-chan model.Snapshot
}

// PartialOf returns the function a Read may call, from its own goroutine,
// with the snapshot read so far; nil when the screen shows no partial
// results (--list, plain mode, a refresh).
func PartialOf(ctx context.Context) func(model.Snapshot) {
	f, _ := ctx.Value(partialKey{}).(func(model.Snapshot))
	return f
}

// withPartial gives ctx a PartialOf function that feeds ch; the read
// closes ch once it returns.
func withPartial(ctx context.Context) (context.Context, chan model.Snapshot) {
	ch := make(chan model.Snapshot, 4)
	send := func(s model.Snapshot) {
		select {
		case ch <- s:
		default: // the screen is behind; the whole read follows anyway
		}
	}
	return context.WithValue(ctx, partialKey{}, send), ch
}

func waitPartial(ch <-chan model.Snapshot, now func() time.Time) tea.Cmd {
	return func() tea.Msg {
		s, ok := <-ch
		if !ok {
			return nil
		}
		return partialMsg{snap: s, at: now(), ch: ch}
	}
}

// onPartial shows part of the first read as it arrives, and waits for
// the next part.
func (m *Model) onPartial(msg partialMsg) tea.Cmd {
	if m.feed.takePartial(msg) {
		m.setSteps(model.Derive(msg.snap))
	}
	return waitPartial(msg.ch, m.deps.Now)
}
