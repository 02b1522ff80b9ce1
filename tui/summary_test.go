package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// namedScreen is a fakeScreen with a name and, optionally, a headline.
type namedScreen struct {
	fakeScreen
	name, headline string
}

func (s namedScreen) Name() string { return s.name }

func (s namedScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.fakeScreen.Update(msg)
	s.fakeScreen = next.(fakeScreen)
	return s, cmd
}

type headlined struct{ namedScreen }

func (s headlined) Headline() string { return s.headline }

func (s headlined) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.namedScreen.Update(msg)
	s.namedScreen = next.(namedScreen)
	return s, cmd
}

// TestQuitSummaryRefusesAnUnnamedResult: a ship refused inside the inbox
// leaves a block that names it ("ship #8: …", never a bare "result: exit
// 4"), the run exits 4 although the inbox itself finished with 0, the last
// line says which screen gave that code, and the actions log's path is
// named.
func TestQuitSummaryRefusesAnUnnamedResult(t *testing.T) {
	ship := headlined{namedScreen{
		fakeScreen: fakeScreen{code: ExitRefused, lines: []string{"gate: refused — no approval", "result: exit 4"}},
		name:       "ship #8", headline: "refused — no approval (exit 4)",
	}}
	s := NewStack(namedOpener{openerScreen: newOpener(fakeScreen{}, ship), name: "inbox"})
	s.SetActionsLog("/state/aayu/actions/2026-12-02.jsonl")
	send(t, s, tea.KeyPressMsg{Code: 'o', Text: "o"})
	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"}) // ship closes
	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"}) // the inbox closes
	done, code := s.Done()
	if !done || code != ExitRefused {
		t.Errorf("done %v, exit %d; a refused ship inside the inbox makes the run exit 4", done, code)
	}
	ep := s.Epilogue()
	got := strings.Join(ep, "\n")
	if strings.Contains(got, "result: exit 4") {
		t.Errorf("the summary still has an unnamed result line:\n%s", got)
	}
	for _, want := range []string{
		"ship #8: refused — no approval (exit 4)",
		"inbox: exit 0",
		"/state/aayu/actions/2026-12-02.jsonl",
		"exit 4, the worst of the screens above: ship #8.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasPrefix(got, "ship #8: ") {
		t.Errorf("the ship's block should come first, in the order the screens closed:\n%s", got)
	}
}

type namedOpener struct {
	openerScreen
	name string
}

func (s namedOpener) Name() string { return s.name }

func (s namedOpener) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.openerScreen.Update(msg)
	s.openerScreen = next.(openerScreen)
	return s, cmd
}

// TestWorstExitCodeRanksAFailureAboveARefusal: the run's code is its worst
// screen's, whatever order they ended in.
func TestWorstExitCodeRanksAFailureAboveARefusal(t *testing.T) {
	tests := []struct{ a, b, want int }{
		{ExitOK, ExitRefused, ExitRefused},
		{ExitRefused, ExitOK, ExitRefused},
		{ExitFloor, ExitRefused, ExitRefused},
		{ExitRefused, ExitFailed, ExitFailed},
		{ExitFailed, ExitFloor, ExitFailed},
		{ExitOK, ExitOK, ExitOK},
	}
	for _, tt := range tests {
		if got := Worst(tt.a, tt.b); got != tt.want {
			t.Errorf("Worst(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// shownScreen is a named screen that only shows (a pack viewer).
type shownScreen struct{ namedScreen }

func (s shownScreen) OnlyShows() bool { return true }

func (s shownScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.namedScreen.Update(msg)
	s.namedScreen = next.(namedScreen)
	return s, cmd
}

// TestLookingAtATamperedPackLeavesTheExitCode: a pack that does not
// verify, opened from the inbox only to look at it, is in the summary
// with its own exit 4, but the run exits with what the person did (0
// here), and the last line blames no screen.
func TestLookingAtATamperedPackLeavesTheExitCode(t *testing.T) {
	pack := shownScreen{namedScreen{
		fakeScreen: fakeScreen{code: ExitRefused, lines: []string{"result: exit 4"}},
		name:       "pack, Story #3",
	}}
	s := NewStack(namedOpener{openerScreen: newOpener(fakeScreen{}, pack), name: "inbox"})
	send(t, s, tea.KeyPressMsg{Code: 'o', Text: "o"})
	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"}) // the pack closes
	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"}) // the inbox closes
	done, code := s.Done()
	if !done || code != ExitOK {
		t.Errorf("done %v, exit %d; looking at a pack is not something that failed", done, code)
	}
	got := strings.Join(s.Epilogue(), "\n")
	if !strings.Contains(got, "pack, Story #3: exit 4") || strings.Contains(got, "the worst of the screens above") || !strings.Contains(got, "exit 0: every screen finished.") {
		t.Errorf("the summary should show the pack's own result and exit 0:\n%s", got)
	}
}
