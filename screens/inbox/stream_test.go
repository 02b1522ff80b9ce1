package inbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// streamingFake reads in two parts: the Decisions first (handed to the
// screen through PartialOf), then, once released, the whole inbox.
func streamingFake(t *testing.T) (*fakeGitHub, Deps, chan struct{}) {
	f := newFake()
	release := make(chan struct{})
	deps := f.deps()
	deps.Read = func(ctx context.Context, prev *model.Snapshot, _ time.Time) (model.Snapshot, error) {
		whole := demoSnapshot()
		if show := PartialOf(ctx); show != nil {
			part := whole
			part.PullRequests, part.PRFacts = nil, nil
			show(part)
		} else if prev == nil {
			t.Error("a first full-screen read was given no way to show its cards as they arrive")
		}
		<-release
		return whole, nil
	}
	return f, deps, release
}

// runCmd executes what a command asks for, the way Bubble Tea would, handing
// each message to m; a read still under way is left running.
func runCmd(m *Model, cmd tea.Cmd, reads chan tea.Msg) {
	if cmd == nil {
		return
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			go func() { reads <- c() }()
		}
		return
	}
	if msg != nil {
		reads <- msg
	}
}

func TestInboxShowsCardsAsTheyArrive(t *testing.T) {
	f, deps, release := streamingFake(t)
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
	msgs := make(chan tea.Msg, 8)
	runCmd(m, m.readOnly(nil, time.Time{}), msgs)
	m.feed.reading = true

	part := (<-msgs).(partialMsg)
	next := m.onPartial(part)
	go func() { msgs <- next() }() // waits for the next part, or the end
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "arriving") || !strings.Contains(v, "Decision #1") || strings.Contains(v, "Review #6") {
		t.Fatalf("the first part is not on screen, marked as arriving:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: '1', Text: "1"})
	if len(f.requests()) != 0 || !strings.Contains(m.status.message, "still arriving") {
		t.Fatalf("acted on a card still arriving: %q", m.status.message)
	}

	close(release)
	var whole readMsg
	for whole.snap.PullRequests == nil {
		if r, ok := (<-msgs).(readMsg); ok {
			whole = r
		}
	}
	m.Update(whole)
	v = ansi.Strip(m.View().Content)
	header, _, _ := strings.Cut(v, "\n")
	if m.feed.partial || m.feed.cached || strings.Contains(header, "arriving") || !strings.Contains(v, "Review #6") {
		t.Fatalf("the whole read did not replace the part:\n%s", v)
	}
}

func TestInboxKeepsACachedReadOverAPartialOne(t *testing.T) {
	_, deps, release := streamingFake(t)
	defer close(release)
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
	m.feed.reading = true
	m.Update(cacheMsg{snap: demoSnapshot(), at: t0.Add(-time.Hour), ok: true})
	part := demoSnapshot()
	part.PullRequests = nil
	m.Update(partialMsg{snap: part, at: t0, ch: make(chan model.Snapshot)})
	if m.feed.partial || len(m.feed.snap.PullRequests) == 0 {
		t.Fatal("a partial read replaced the whole cached one")
	}
}

// TestInboxSpinsWhileReading: the header moves while a read is under way
// (bubbles/spinner), and the spinner stops once the read has landed.
func TestInboxSpinsWhileReading(t *testing.T) {
	f := newFake()
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, f.deps(), Options{})
	m.Init()
	if !m.feed.spin.Spinning() {
		t.Fatal("a read started and the spinner did not")
	}
	before := ansi.Strip(m.View().Content)
	tick := m.feed.spin.Tick().(spinner.TickMsg)
	_, cmd := m.Update(tick)
	if cmd == nil {
		t.Fatal("the spinner stopped while the read is under way")
	}
	if after := ansi.Strip(m.View().Content); after == before {
		t.Errorf("the header did not move on the spinner's tick:\n%s", after)
	}
	snap, _ := f.deps().Read(context.Background(), nil, t0)
	m.Update(readMsg{snap: snap, at: t0})
	if _, cmd := m.Update(m.feed.spin.Tick().(spinner.TickMsg)); cmd != nil || m.feed.spin.Spinning() {
		t.Error("the spinner kept ticking after the read landed")
	}
}
