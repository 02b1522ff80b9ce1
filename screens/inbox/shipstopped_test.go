package inbox

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/tui"
)

// TestStoppedShipIsOneCardThatSaysOneThing: a ship stopped after its merge
// (GitHub holds ship's merge commit of #10 and no record; the actions log
// says it stopped) is one card, the ship's: it names what landed and what
// did not, Enter finishes it with aayu ship 10, and nothing on the page
// also offers to mark the Story merged without proof or shows a second,
// half-done account of it.
func TestStoppedShipIsOneCardThatSaysOneThing(t *testing.T) {
	f := newFake()
	d := f.deps()
	opened := 0
	d.OpenShip = func(pr int, solo bool) (tui.Screen, error) {
		opened = pr
		return &stubScreen{name: "ship", closed: new(bool)}, nil
	}
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, d, Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	snap := demoSnapshot()
	snap.ShipMerges = map[int]bool{10: true}
	m.Update(readMsg{snap: snap, at: t0})
	m.Update(interruptedMsg{{Time: t0, Command: "ship 10", Repo: "acme/benefits", Item: "#10", Outcome: actions.OutcomeInterrupted,
		Detail: "merged as 3543d4864c49, but the record did not reach the ledger; run aayu ship 10 again to finish it without merging twice"}})
	var ids []string
	for _, st := range m.list.steps {
		ids = append(ids, st.ID())
	}
	if got := strings.Join(ids, " "); !strings.Contains(got, "ship-stopped#10") || strings.Contains(got, "merged-without-ship#9") {
		t.Fatalf("cards %s; want ship-stopped#10 and no merged-without-ship#9", got)
	}
	if cs := m.writes.states["ship-stopped#10"]; cs != nil && cs.failure != nil {
		t.Errorf("the stopped ship's card also shows a half-done account: %+v", cs.failure)
	}
	m.list.cursor = m.rowIndex(t, "ship-stopped#10")
	page := ansi.Strip(m.View().Content)
	for _, want := range []string{"and stopped: its record is not", "finish it with aayu ship 10 (recommended)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the card lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "without proof") {
		t.Errorf("the page still offers to mark it merged without proof:\n%s", page)
	}
	press(m, "enter")
	if opened != 10 {
		t.Errorf("Enter opened ship for #%d, want aayu ship 10 to finish it", opened)
	}
}
