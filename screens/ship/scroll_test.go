package ship

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// TestShipScreenScrolledToVerdictGolden: at 24 lines the gate list of a
// successful ship does not fit; the screen follows the run, so the verdict
// is what shows when it ends, not "human pass".
func TestShipScreenScrolledToVerdictGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := finished(t, tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}, shipped)
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 24)
			v := ansi.Strip(view)
			if !strings.Contains(v, "shipped:") || !strings.Contains(v, "q quit") {
				t.Fatalf("the verdict or q is not on the screen at %dx24:\n%s", w, v)
			}
			xgolden.RequireEqual(t, v)
		})
	}
}

// TestShipScreenScrollsToEveryGate: the first gates, cut off at 80×24, are
// one key away, and the end comes back with G.
func TestShipScreenScrollsToEveryGate(t *testing.T) {
	m := finished(t, tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, shipped)
	first := "pull request open and mergeable"
	if v := ansi.Strip(m.View().Content); strings.Contains(v, first) || !strings.Contains(v, "lines ") {
		t.Fatalf("at 80x24 the first gate should be scrolled out, with a position shown:\n%s", v)
	}
	m.Update(keyMsg("g"))
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, first) || strings.Contains(v, "shipped:") {
		t.Fatalf("g did not go to the top:\n%s", v)
	}
	if !strings.Contains(v, "↑/↓ pgup/pgdn scroll") {
		t.Errorf("the help line does not offer scrolling:\n%s", v)
	}
	m.Update(keyMsg("pgdown"))
	m.Update(keyMsg("pgdown"))
	m.Update(keyMsg("pgdown"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "shipped:") {
		t.Fatalf("page down did not reach the verdict:\n%s", v)
	}
	m.Update(keyMsg("up"))
	m.Update(keyMsg("G"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "shipped:") {
		t.Fatalf("G did not go back to the verdict:\n%s", v)
	}
}

// TestShipLongConfirmationScrolls: a confirmation of many writes opens at
// its top and scrolls to its last write and the two answers; y still
// answers.
func TestShipLongConfirmationScrolls(t *testing.T) {
	plan := demoPlan
	plan.Writes = nil
	for i := 1; i <= 30; i++ {
		plan.Writes = append(plan.Writes, fmt.Sprintf("write number %d of the long plan", i))
	}
	m := New(context.Background(), tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}, Options{PR: 4})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	reply := make(chan bool, 1)
	m.question.confirm, m.question.confirmReply = &plan, reply
	v := ansi.Strip(m.View().Content)
	tuitest.AssertFits(t, m.View().Content, 80, 24)
	if !strings.Contains(v, "write number 1 of") || strings.Contains(v, "write number 30 of") {
		t.Fatalf("the confirmation should open at its top:\n%s", v)
	}
	// A yes must be to writes the person could see: it waits, and says
	// why, until the last write has been in view.
	if !strings.Contains(v, "y end, then yes") || !strings.Contains(v, "n/esc/enter no") {
		t.Errorf("the answers left the help line:\n%s", v)
	}
	m.Update(keyMsg("y"))
	select {
	case <-reply:
		t.Fatal("y was taken before the last write was in view")
	default:
	}
	m.Update(keyMsg("G"))
	v = ansi.Strip(m.View().Content)
	if !strings.Contains(v, "y yes, write these") {
		t.Errorf("after G the yes is still not offered:\n%s", v)
	}
	if !strings.Contains(v, "write number 30 of") || !strings.Contains(v, "no: write nothing") {
		t.Fatalf("the last write and the answers cannot be reached:\n%s", v)
	}
	m.Update(keyMsg("y"))
	if yes := <-reply; !yes {
		t.Error("y after scrolling was not a yes")
	}
}
