package inbox

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui/tuitest"
)

// press hands m each key and returns what the keys asked to run.
func press(m *Model, keys ...string) tea.Cmd {
	var cmds []tea.Cmd
	do := func(msg tea.Msg) {
		_, cmd := m.Update(msg)
		cmds = append(cmds, cmd)
	}
	for _, k := range keys {
		switch k {
		case "enter":
			do(tea.KeyPressMsg{Code: tea.KeyEnter})
		case "esc":
			do(tea.KeyPressMsg{Code: tea.KeyEscape})
		case "home":
			do(tea.KeyPressMsg{Code: tea.KeyHome})
		case "end":
			do(tea.KeyPressMsg{Code: tea.KeyEnd})
		case "pgup":
			do(tea.KeyPressMsg{Code: tea.KeyPgUp})
		case "pgdown":
			do(tea.KeyPressMsg{Code: tea.KeyPgDown})
		case "down":
			do(tea.KeyPressMsg{Code: tea.KeyDown})
		default:
			for _, r := range k {
				do(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		}
	}
	return tea.Batch(cmds...)
}

// noteChoice opens the note of the review card's "approve its head".
func noteChoice(t *testing.T, m *Model) {
	t.Helper()
	for i, st := range m.list.steps {
		for _, c := range st.Choices {
			if c.NeedsNote != "" {
				m.list.cursor = i
				press(m, c.Key)
				if !m.Typing() {
					t.Fatalf("choice %s of %s did not ask for its note", c.Key, rowLabel(st))
				}
				return
			}
		}
	}
	t.Fatal("no card asks for a note")
}

// TestInboxNoteTakesPastedText: a bracketed paste lands in the note as one
// line, its escape sequences and control characters gone, hidden
// characters made visible.
func TestInboxNoteTakesPastedText(t *testing.T) {
	m := loaded(t, newFake(), 100, 24, Options{DryRun: true})
	noteChoice(t, m)
	press(m, "ran ")
	m.Update(tea.PasteMsg{Content: "the tests\r\nand\tread \x1b[31mthe diff\x1b[0m\x07\u202e"})
	want := "ran the tests and read the diff<U+202E>"
	if got := m.pend.noteIn.Value(); got != want {
		t.Fatalf("note = %q, want %q", got, want)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "> "+want) {
		t.Errorf("the pasted note is not shown:\n%s", v)
	}
}

// TestInboxPasteOutsideATextLineIsDropped: pasted text is no key press, so
// a paste on the list picks nothing and writes nothing.
func TestInboxPasteOutsideATextLineIsDropped(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	m.Update(tea.PasteMsg{Content: "1\ny\n"})
	if m.pend != nil || len(f.requests()) != 0 || m.list.cursor != 0 {
		t.Fatalf("a paste on the list acted: pend=%v requests=%v cursor=%d", m.pend, f.requests(), m.list.cursor)
	}
}

// TestInboxPagesAndJumps: g/home and G/end reach the first and last card,
// pgup/pgdown move a page, and the card reached is drawn.
func TestInboxPagesAndJumps(t *testing.T) {
	f := newFake()
	f.snap = bigSnapshot(90)
	for _, w := range []int{40, 120} {
		m := loaded(t, f, w, 24, Options{})
		last := len(m.list.steps) - 1
		page := m.list.pageSize(m.c.Width, m.c.Height)
		for _, c := range []struct {
			keys []string
			want int
		}{
			{[]string{"G"}, last}, {[]string{"g"}, 0}, {[]string{"end"}, last}, {[]string{"home"}, 0},
			{[]string{"pgdown"}, page}, {[]string{"pgdown", "pgdown"}, 3 * page}, {[]string{"pgup"}, 2 * page},
			{[]string{"pgup", "pgup"}, 0}, {[]string{"G", "pgdown"}, last}, {[]string{"pgup"}, last - page},
		} {
			press(m, c.keys...)
			if m.list.cursor != c.want {
				t.Fatalf("%d cols: %v left the cursor on %d, want %d", w, c.keys, m.list.cursor, c.want)
			}
			v := ansi.Strip(m.View().Content)
			tuitest.AssertFits(t, m.View().Content, w, 24)
			if !strings.Contains(v, fmt.Sprintf("#%d", m.list.steps[m.list.cursor].Item.Number)) {
				t.Fatalf("%d cols: after %v the card #%d is not on screen:\n%s", w, c.keys, m.list.steps[m.list.cursor].Item.Number, v)
			}
		}
	}
}

// TestInboxFilterByTitleOrNumber: / lists only the cards whose title or
// number holds the text, every key typed is text (q and ? included),
// enter keeps the filter and esc clears it.
func TestInboxFilterByTitleOrNumber(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	press(m, "/", "vision")
	if !m.Typing() || m.done {
		t.Fatal("the filter line does not have the keyboard")
	}
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "#9 Vision") || strings.Contains(v, "Production") || !strings.Contains(v, "(1 of 5)") {
		t.Fatalf("filtering by title:\n%s", v)
	}
	press(m, "enter")
	if m.Typing() || m.list.filter != "vision" {
		t.Fatalf("enter did not keep the filter: typing=%v filter=%q", m.Typing(), m.list.filter)
	}
	if st, _ := m.list.current(); st.Item.Number != 9 {
		t.Fatalf("the cursor is on #%d, a card the filter hides", st.Item.Number)
	}
	press(m, "esc")
	if m.list.filter != "" || !strings.Contains(ansi.Strip(m.View().Content), "Production") {
		t.Fatal("esc did not clear the filter")
	}
	press(m, "/", "#6")
	if st, _ := m.list.current(); st.Item.Number != 6 || st.Kind != model.KindNeedsReview {
		t.Fatalf("filtering by number put the cursor on #%d", st.Item.Number)
	}
	press(m, "esc")
	if m.Typing() || m.list.filter != "" {
		t.Fatal("esc while typing did not clear the filter")
	}
}

// TestInboxFilterMatchingNothingActsOnNothing: with every card hidden,
// enter and the digits are refused in words and write nothing.
func TestInboxFilterMatchingNothingActsOnNothing(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	press(m, "/", "zzz", "enter", "1", "enter")
	if m.pend != nil || len(f.requests()) != 0 {
		t.Fatalf("a hidden card was acted on: %v", f.requests())
	}
	if !strings.Contains(m.status.message, "No card matches the filter") {
		t.Fatalf("the refusal is not in words: %q", m.status.message)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "No card matches") || strings.Contains(v, "Production") {
		t.Fatalf("the view with nothing matching:\n%s", v)
	}
}

func TestInboxFilterGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := loaded(t, newFake(), w, 24, Options{})
			press(m, "/", "decision")
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 24)
			xgolden.RequireEqual(t, ansi.Strip(view))
		})
	}
}

// TestInboxFilterMatchesKindsAndGroups: the filter finds a card by what the
// screen shows besides its row: the group heading ("housekeeping", "needs
// you") and the kind in words ("ready to ship", "merged without ship"),
// not only its title or number.
func TestInboxFilterMatchesKindsAndGroups(t *testing.T) {
	f := newFake()
	m := loaded(t, f, 100, 24, Options{})
	for _, c := range []struct {
		filter string
		want   []int
	}{
		{"housekeeping", []int{9, 11}},
		{"Needs You", []int{1, 2, 6}},
		{"merged without ship", []int{9}},
		{"bug with its fix", []int{11}},
		{"needs your review", []int{6}},
		{"decision", []int{1, 2}},
	} {
		m.list.filter = c.filter
		var got []int
		for _, i := range m.list.visible() {
			got = append(got, m.list.steps[i].Item.Number)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Fatalf("filter %q lists %v, want %v", c.filter, got, c.want)
		}
	}
	m.list.filter = ""
	press(m, "/", "housekeeping")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "(2 of 5)") || strings.Contains(v, "Claims export") {
		t.Fatalf("filtering by group:\n%s", v)
	}
	// A kind the fixture has no card of: the rule itself, on one step.
	ready := model.Step{Kind: model.KindReadyToShip, Group: model.KindReadyToShip.Group(), Item: model.Item{Number: 4, Title: "Dental plan", IsPR: true}}
	m.list.steps = []model.Step{ready}
	for _, filter := range []string{"ready to ship", "READY-TO-SHIP", "story pr ready", "ship #4", "dental"} {
		m.list.filter = filter
		if !m.list.matches(0) {
			t.Fatalf("filter %q does not match a ready-to-ship card", filter)
		}
	}
	m.list.filter = "housekeeping"
	if m.list.matches(0) {
		t.Fatal("a ready-to-ship card matched the housekeeping group")
	}
}
