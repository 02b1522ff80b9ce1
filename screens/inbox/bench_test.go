package inbox

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"

	"github.com/aayudha/aayu/model/untrusted"
)

// bigSnapshot holds n steps: Decisions, merged-without-ship Stories and
// fixed Bugs in equal parts.
func bigSnapshot(n int) model.Snapshot {
	s := demoSnapshot()
	s.Issues, s.PullRequests = nil, nil
	for i := range n {
		num := 1000 + i*2
		switch i % 3 {
		case 0:
			s.Issues = append(s.Issues, model.Issue{Number: num, Title: untrusted.Text(fmt.Sprintf("Decision %d", i)), State: "open", Labels: []untrusted.Label{model.LabelDecision}, Author: writer,
				Body: "## Options\n1. Keep it (recommended)\n2. Change it\n\nDoor: two-way\n"})
		case 1:
			s.Issues = append(s.Issues, model.Issue{Number: num, Title: untrusted.Text(fmt.Sprintf("Story %d", i)), State: "open", Labels: []untrusted.Label{model.LabelStory}})
			s.PullRequests = append(s.PullRequests, model.PullRequest{Number: num + 1, Title: "PR", HeadRef: untrusted.Ref(fmt.Sprintf("story/%d-x", num)), BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, Author: agent})
		case 2:
			s.Issues = append(s.Issues, model.Issue{Number: num, Title: untrusted.Text(fmt.Sprintf("Bug %d", i)), State: "open", Labels: []untrusted.Label{model.LabelBug}})
			s.PullRequests = append(s.PullRequests, model.PullRequest{Number: num + 1, Title: "Fix", Body: untrusted.Text(fmt.Sprintf("Fixes #%d", num)), BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, Author: agent})
		}
	}
	return s
}

// BenchmarkFirstFrameFromCache1000 is the path before any network answer:
// the last read loaded from the cache file, derived, and drawn once.
func BenchmarkFirstFrameFromCache1000(b *testing.B) {
	snap := bigSnapshot(1000)
	client, _ := github.NewClient(nil).WithEnterpriseURLs("http://127.0.0.1:1/", "http://127.0.0.1:1/")
	reader := inboxread.New(client, "acme", "benefits", inboxread.Options{})
	dir := b.TempDir()
	if err := reader.SaveCache(dir, "founder", snap, t0); err != nil {
		b.Fatal(err)
	}
	if steps := len(model.Derive(snap)); steps != 1000 {
		b.Fatalf("%d steps, want 1000", steps)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m := New(context.Background(), tui.Common{Width: 120, Height: 40, Styles: tui.NewStyles(true)}, Deps{Now: time.Now}, Options{})
		cached, at, err := reader.LoadCache(dir, "founder")
		if err != nil {
			b.Fatal(err)
		}
		m.Update(cacheMsg{snap: cached, at: at, ok: true})
		_ = m.View()
	}
}

// BenchmarkKeypress1000 is one keypress's Update and View with 1,000 cards.
func BenchmarkKeypress1000(b *testing.B) {
	benchKeypress(b, 1000)
}

// BenchmarkKeypress100 shows the cost does not grow with the number of
// cards: compare it with BenchmarkKeypress1000.
func BenchmarkKeypress100(b *testing.B) {
	benchKeypress(b, 100)
}

func benchKeypress(b *testing.B, n int) {
	m := New(context.Background(), tui.Common{Width: 120, Height: 40, Styles: tui.NewStyles(true)}, Deps{Now: time.Now}, Options{})
	m.Update(readMsg{snap: bigSnapshot(n), at: t0})
	down, up := tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyUp}
	m.list.cursor = n / 2
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		key := down
		if i%2 == 1 {
			key = up
		}
		i++
		m.Update(key)
		_ = m.View()
	}
}
