package inbox

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// TestInboxEnterOnAStoryLoopCardOpensItsCommand: Enter on a Story waiting
// for its Ready snapshot opens aayu ready's screen for it, and on a pull
// request waiting for its plan review aayu plan's for its Story (with
// --solo-bypass in solo mode, as the choice says), on the inbox's stack;
// coming back reads GitHub again, since either may have written. Where no
// screen opens (--dry-run), the card says the command and writes nothing.
func TestInboxEnterOnAStoryLoopCardOpensItsCommand(t *testing.T) {
	f := newFake()
	f.snap.SoloMode = true
	f.snap.ReadySnapshots = map[int]bool{}
	f.snap.PlanRecords = map[int]pass.PlanRecord{}
	f.snap.Issues = append(f.snap.Issues,
		model.Issue{Number: 17, Title: "Dental\x1b[2J cap", State: "open", Labels: []untrusted.Label{model.LabelStory}})
	f.snap.PullRequests = append(f.snap.PullRequests, model.PullRequest{Number: 18, Title: "Dental cap", HeadRef: "story/17-dental-cap",
		HeadSHA: headB, BaseRef: "dev", State: "open", Author: agent})
	f.snap.NeverLayers = map[int][]string{18: {"L04"}}

	type opened struct {
		command string
		story   int
		solo    bool
	}
	var got []opened
	deps := f.deps()
	closed := false
	deps.OpenCommand = func(command string, story int, solo bool) (tui.Screen, error) {
		got = append(got, opened{command, story, solo})
		return &stubScreen{name: command, closed: &closed, lines: []string{"result: exit 0"}}, nil
	}
	m := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{})
	st := tui.NewStack(m)
	st.Init()
	st.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	snap, _ := f.deps().Read(context.Background(), nil, t0)
	st.Update(readMsg{snap: snap, at: t0})

	for _, want := range []struct {
		kind model.Kind
		open opened
	}{{model.KindNeedsReady, opened{model.CommandReady, 17, false}}, {model.KindNeedsPlanReview, opened{model.CommandPlan, 17, true}}} {
		at := -1
		for i, s := range m.list.steps {
			if s.Kind == want.kind {
				at = i
			}
		}
		if at < 0 {
			t.Fatalf("no %s card among %d", want.kind, len(m.list.steps))
		}
		for m.list.cursor < at {
			pressOn(st, "j")
		}
		for m.list.cursor > at {
			pressOn(st, "k")
		}
		if view := ansi.Strip(m.View().Content); strings.Contains(view, "\x1b[2J") {
			t.Errorf("a hostile title reaches the screen:\n%s", view)
		}
		pressOn(st, "enter")
		if st.Depth() != 2 || len(got) == 0 || got[len(got)-1] != want.open {
			t.Fatalf("enter on the %s card: depth %d, opened %+v; want %+v on top", want.kind, st.Depth(), got, want.open)
		}
		m.feed.reading = false
		pressOn(st, "esc")
		if st.Depth() != 1 || !closed {
			t.Fatalf("esc did not come back from the %s screen", want.open.command)
		}
		if !m.feed.reading {
			t.Errorf("back from the %s screen, the inbox does not read GitHub again", want.open.command)
		}
		closed = false
	}

	// --dry-run opens nothing and names the command.
	dry := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, deps, Options{DryRun: true})
	ds := tui.NewStack(dry)
	ds.Init()
	ds.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	ds.Update(readMsg{snap: snap, at: t0})
	for dry.list.cursor < len(dry.list.steps)-1 && dry.list.steps[dry.list.cursor].Kind != model.KindNeedsReady {
		pressOn(ds, "j")
	}
	n := len(got)
	pressOn(ds, "enter")
	if ds.Depth() != 1 || len(got) != n || !strings.Contains(dry.status.message, "Run: aayu ready 17") {
		t.Errorf("--dry-run: depth %d, opened %d more, message %q; want nothing opened and the command named", ds.Depth(), len(got)-n, dry.status.message)
	}
}
