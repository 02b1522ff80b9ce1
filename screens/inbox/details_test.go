package inbox

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// failedWithLongDetails is a full-screen inbox whose first card failed
// with more details than any card pane holds.
func failedWithLongDetails(t *testing.T, w, h int) *Model {
	t.Helper()
	f := newFake()
	var details []string
	for i := 1; i <= 40; i++ {
		details = append(details, fmt.Sprintf("step %d: POST /repos/acme/benefits/issues/1/comments answered 502", i))
	}
	f.fail["decision#1"] = &Failure{What: "The comment on Decision #1 was not posted.", Changed: "Nothing changed on GitHub.",
		Next: "Press Enter to try again.", Details: details, Retryable: true}
	m := loaded(t, f, w, h, Options{})
	settle(m, press(m, "1"))
	if st, _ := m.list.current(); st.ID() != "decision#1" || m.writes.states["decision#1"].failure == nil {
		t.Fatalf("the first card did not fail: %+v", m.writes.states["decision#1"])
	}
	return m
}

// TestInboxDetailsScroll: d on a failure whose details are longer than the
// pane shows the card from its top with the lines in view, pgdown reaches the
// last detail, pgup the first again, and ↓ still moves to the next card.
func TestInboxDetailsScroll(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		m := failedWithLongDetails(t, w, 24)
		press(m, "d")
		v := ansi.Strip(m.View().Content)
		tuitest.AssertFits(t, m.View().Content, w, 24)
		if !strings.Contains(v, "lines 1–") || !strings.Contains(v, "Decision #1 (needs you)") || strings.Contains(v, "step 40:") {
			t.Fatalf("%d cols: the details do not open at their top with the lines in view:\n%s", w, v)
		}
		if !strings.Contains(v, "pgup/pgdn scroll the card") && w >= 80 {
			t.Errorf("%d cols: the help line does not offer the scroll keys:\n%s", w, v)
		}
		for range 40 {
			press(m, "pgdown")
		}
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, "step 40:") || strings.Contains(v, "lines 1–") {
			t.Fatalf("%d cols: pgdown does not reach the last detail:\n%s", w, v)
		}
		for range 40 {
			m.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
		}
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, "lines 1–") {
			t.Fatalf("%d cols: ctrl+u does not return to the top:\n%s", w, v)
		}
		press(m, "down")
		if st, _ := m.list.current(); st.Item.Number != 2 || m.pane.details {
			t.Fatalf("%d cols: ↓ with details open stayed on #%d", w, st.Item.Number)
		}
	}
}

func TestInboxDetailsGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := failedWithLongDetails(t, w, 24)
			press(m, "d", "pgdown")
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 24)
			xgolden.RequireEqual(t, ansi.Strip(view))
		})
	}
}

// TestInboxCardCutWithoutMoreBelowAt40x24: at 40×24 a card taller than its
// pane (a ready card's choices) says "more below" with the key, pgdown
// brings its last line into view, and the next card opens at its top.
func TestInboxCardCutWithoutMoreBelowAt40x24(t *testing.T) {
	m := loaded(t, newFake(), 40, 24, Options{})
	w, h := m.cardSize()
	tall := -1
	for i := 0; i < 12 && tall < 0; i++ {
		if st, ok := m.list.current(); ok && len(m.cardBody(st, w)) > h {
			tall = i
			break
		}
		press(m, "down")
	}
	if tall < 0 {
		t.Fatal("no card is taller than the 40x24 pane; the fixture changed")
	}
	st, _ := m.list.current()
	body := m.cardBody(st, w)
	last := strings.TrimSpace(ansi.Strip(body[len(body)-1]))
	v := ansi.Strip(m.View().Content)
	tuitest.AssertFits(t, m.View().Content, 40, 24)
	if !strings.Contains(v, "more below: pgdn") || strings.Contains(v, last) {
		t.Fatalf("the cut card does not say more below, or its end already shows (%q):\n%s", last, v)
	}
	for range 5 {
		press(m, "pgdown")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, last) || strings.Contains(v, "more below") {
		t.Fatalf("pgdown does not reach the card's last line %q:\n%s", last, v)
	}
	if tall > 0 {
		press(m, "k", "down") // away and back
	} else {
		press(m, "down", "k")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "more below: pgdn · lines 1–") {
		t.Errorf("back on the card, it does not open at its top:\n%s", v)
	}
}

// TestInboxPlainHelpListsNoKeyPlainRefuses: the plain ? lists the words
// the plain inbox takes (x N, list, enter), not the full screen's arrows,
// / or space, which it would refuse.
func TestInboxPlainHelpListsNoKeyPlainRefuses(t *testing.T) {
	m := loaded(t, newFake(), 80, 24, Options{})
	got := strings.Join(tui.PlainHelp(m), "\n")
	for _, want := range []string{"  x N: ", "  list: ", "  enter: ", "  q: quit", "  1-9: ", "\n" + plainOrder} {
		if !strings.Contains(got, want) {
			t.Errorf("the plain ? lacks %q:\n%s", want, got)
		}
	}
	for _, refused := range []string{"↑", "↓", "/", "space", "esc", "tab"} {
		if strings.Contains(got, "  "+refused) {
			t.Errorf("the plain ? lists %q, which plain mode refuses:\n%s", refused, got)
		}
	}
	for _, l := range strings.Split(got, "\n")[1:] {
		word := strings.SplitN(strings.TrimSpace(l), ":", 2)[0]
		if len(word) == 1 && word != "?" && word != "q" {
			m.onLine(word)
		}
	}
	if page := strings.Join(m.lines, "\n"); strings.Contains(page, "is not a key here") {
		t.Errorf("a word the plain ? lists was refused:\n%s", page)
	}
}
