package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// openerScreen is a fakeScreen that opens child on the line "open" or the
// key o, says what it was told when the child returned, and records its own
// background results (ownResult) so a test can see where they land.
type openerScreen struct {
	fakeScreen
	child    Screen
	opening  *Screen // the screen to hand the stack; a pointer, as the model is a value
	returned []ReturnedMsg
}

func (s openerScreen) Opening() Screen {
	if s.opening == nil {
		return nil
	}
	o := *s.opening
	*s.opening = nil
	return o
}

func newOpener(base fakeScreen, child Screen) openerScreen {
	return openerScreen{fakeScreen: base, child: child, opening: new(Screen)}
}

type ownResult string

func (s openerScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case LineMsg:
		if msg.Line == "open" {
			s.lines = append(append([]string(nil), s.lines...), "opening")
			*s.opening = s.child
			return s, nil
		}
	case tea.KeyPressMsg:
		if msg.String() == "o" {
			s.lines = append(append([]string(nil), s.lines...), "opening")
			*s.opening = s.child
			return s, nil
		}
	case ReturnedMsg:
		s.lines = append(append([]string(nil), s.lines...), fmt.Sprintf("returned %d after %q", msg.Code, msg.Transcript[len(msg.Transcript)-1]))
		s.returned = append(append([]ReturnedMsg(nil), s.returned...), msg)
		return s, nil
	case ownResult:
		s.lines = append(append([]string(nil), s.lines...), "own result "+string(msg))
		return s, nil
	}
	next, cmd := s.fakeScreen.Update(msg)
	s.fakeScreen = next.(fakeScreen)
	return s, cmd
}

// closingScreen is a child that counts its Close.
type closingScreen struct {
	fakeScreen
	closes *int
}

func (c closingScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := c.fakeScreen.Update(msg)
	c.fakeScreen = next.(fakeScreen)
	return c, cmd
}

func (c closingScreen) Close() { *c.closes++ }

// drive runs cmd and feeds every message it yields back into the stack,
// as the program would, depth first.
func drive(t *testing.T, s *Stack, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	msg := cmd()
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			drive(t, s, c)
		}
	default:
		_, next := s.Update(msg)
		drive(t, s, next)
	}
}

func send(t *testing.T, s *Stack, msg tea.Msg) {
	t.Helper()
	_, cmd := s.Update(msg)
	drive(t, s, cmd)
}

func TestStackKeysGoToTheTopScreenOnly(t *testing.T) {
	closes := 0
	child := closingScreen{fakeScreen: fakeScreen{code: ExitRefused}, closes: &closes}
	s := NewStack(newOpener(fakeScreen{}, child))
	send(t, s, tea.WindowSizeMsg{Width: 40, Height: 12})
	send(t, s, tea.KeyPressMsg{Code: 'o', Text: "o"})
	if s.Depth() != 2 {
		t.Fatalf("after o the stack holds %d screens, want 2", s.Depth())
	}
	send(t, s, tea.KeyPressMsg{Code: 'x', Text: "x"})
	top := s.Top().(closingScreen)
	if got := strings.Join(top.lines, "|"); got != "size 40x12|key x" {
		t.Errorf("the opened screen saw %q; want the size it opened at, then the key", got)
	}
	bottom := s.Bottom().(openerScreen)
	for _, l := range bottom.lines {
		if l == "key x" {
			t.Error("a key pressed on the opened screen reached the screen under it")
		}
	}
	// A message that is not input reaches the screen underneath too: its
	// background work lands while another screen shows.
	send(t, s, ownResult("write landed"))
	bottom = s.Bottom().(openerScreen)
	if last := bottom.lines[len(bottom.lines)-1]; last != "own result write landed" {
		t.Errorf("the screen under the top did not get its own result; its last line is %q", last)
	}
	if done, _ := s.Done(); done {
		t.Fatal("the stack is done while its bottom screen is not")
	}

	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"})
	if s.Depth() != 1 {
		t.Fatalf("the opened screen finished and the stack still holds %d screens", s.Depth())
	}
	if closes != 1 {
		t.Errorf("the popped screen was closed %d times, want 1", closes)
	}
	bottom = s.Bottom().(openerScreen)
	if len(bottom.returned) != 1 || bottom.returned[0].Code != ExitRefused {
		t.Fatalf("the screen underneath was told %+v; want one return with the code %d", bottom.returned, ExitRefused)
	}
	if done, _ := s.Done(); done {
		t.Error("q on the opened screen ended the whole program; it should only go back")
	}
	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"})
	if done, _ := s.Done(); !done {
		t.Error("q on the bottom screen did not end the program")
	}
}

// TestStackPlainIsOnePage: the plain twin of a stack is one transcript and
// one input stream: the opened screen's lines follow the opener's, input
// goes to whichever screen shows, and the end of input reaches the screen
// shown after it ended, so the program ends instead of waiting.
func TestStackPlainIsOnePage(t *testing.T) {
	child := fakeScreen{code: ExitFloor}
	opener := newOpener(fakeScreen{quitOnClose: true}, child)
	code, out, err := runPlainForTest(t, opener, strings.NewReader("open\nx\nq\ny\n"), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"size 80x24", "opening", // the opener
		"size 80x24", "line x", "line q", // the opened screen
		`returned 3 after "line q"`, "size 80x24", "line y", "input closed", // the opener again
	}, "\n") + "\n"
	if out != want {
		t.Errorf("plain page:\n%s\nwant:\n%s", out, want)
	}
	if code != ExitFloor {
		t.Errorf("exit %d; the run exits with the worst of its screens' codes (SPEC §3), here the opened screen's 3", code)
	}
}

// TestStackEndOfInputReachesTheScreenShownAfter: input that ended while a
// screen was on top also ends the one shown when it closes.
func TestStackEndOfInputReachesTheScreenShownAfter(t *testing.T) {
	child := fakeScreen{quitOnClose: true}
	opener := newOpener(fakeScreen{quitOnClose: true}, child)
	code, out, err := runPlainForTest(t, opener, strings.NewReader("open\n"), RunOptions{})
	if err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if strings.Count(out, "\ninput closed\n") != 2 {
		t.Errorf("each screen should be told once that input ended:\n%s", out)
	}
}

func TestStackEpilogueKeepsWhatPoppedScreensLeft(t *testing.T) {
	child := fakeScreen{lines: []string{"result: exit 3"}}
	s := NewStack(newOpener(fakeScreen{}, child))
	send(t, s, tea.KeyPressMsg{Code: 'o', Text: "o"})
	send(t, s, tea.KeyPressMsg{Code: 'q', Text: "q"})
	ep := strings.Join(s.Epilogue(), "|")
	if !strings.HasPrefix(ep, "key q|") { // the popped screen's last line
		t.Errorf("the epilogue lost the popped screen's outcome: %q", ep)
	}
}
