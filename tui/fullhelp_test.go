package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// manyKeysScreen lists more keys than one help line holds, one disabled.
type manyKeysScreen struct{ fakeScreen }

func (s manyKeysScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.fakeScreen.Update(msg)
	s.fakeScreen = next.(fakeScreen)
	return s, cmd
}

func (manyKeysScreen) Keys() []key.Binding {
	k := DefaultKeys()
	nb := func(keys, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
	}
	return []key.Binding{
		k.Up, k.Down, nb("enter", "recommendation"), nb("1-9", "choice"), nb("s", "skip"),
		nb("x", "select housekeeping"), Disable(nb("S", "ship"), "CI is still running on the head commit"),
		nb("d", "details"), nb("r", "refresh"), nb("o", "output"), k.Quit,
	}
}

func TestFullHelpGolden(t *testing.T) {
	for _, width := range []int{40, 80, 120} {
		t.Run(fmt.Sprintf("%d", width), func(t *testing.T) {
			view := FullHelpView(manyKeysScreen{}, width, 24, NewStyles(true))
			plain := ansi.Strip(view)
			for i, l := range strings.Split(plain, "\n") {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("line %d is %d cells wide at %d: %q", i+1, w, width, l)
				}
			}
			for _, want := range []string{"recommendation", "housekeeping", "refresh", "output", "on the head commit", "quit", "help", "close help"} {
				if !strings.Contains(plain, want) {
					t.Errorf("full help at %d lacks %q", width, want)
				}
			}
			xgolden.RequireEqual(t, plain)
		})
	}
}

func TestFullScreenQuestionMarkShowsEveryKeyAndEscCloses(t *testing.T) {
	tm := teatest.NewTestModel(t, newFullScreen(manyKeysScreen{}),
		teatest.WithInitialTermSize(40, 24))
	tm.Type("?")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("housekeeping")) && bytes.Contains(b, []byte("close help"))
	}, teatest.WithDuration(5*time.Second))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("q")
	shell := finalShell(t, tm)
	if shell.helpOpen {
		t.Error("esc did not close the full help")
	}
	got := strings.Join(shell.screen.Transcript(), "|")
	if strings.Contains(got, "key ?") || strings.Contains(got, "key esc") {
		t.Errorf("the help keys reached the screen: %s", got)
	}
	if !strings.Contains(got, "key q") {
		t.Errorf("q after the help did not reach the screen: %s", got)
	}
}

// typingScreen takes typed text: "?" is a character of it.
type typingScreen struct{ fakeScreen }

func (s typingScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.fakeScreen.Update(msg)
	s.fakeScreen = next.(fakeScreen)
	return s, cmd
}
func (typingScreen) Typing() bool { return true }

func TestFullScreenQuestionMarkIsTextWhileTyping(t *testing.T) {
	m := newFullScreen(typingScreen{})
	next, _ := m.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	shell := next.(*fullScreen)
	if shell.helpOpen {
		t.Fatal("? opened the help while the screen takes typed text")
	}
	if got := strings.Join(shell.screen.Transcript(), "|"); !strings.Contains(got, "key ?") {
		t.Errorf("? did not reach the typing screen: %s", got)
	}
}

func TestPlainQuestionMarkPrintsEveryKey(t *testing.T) {
	_, out, err := runPlainForTest(t, manyKeysScreen{fakeScreen{quitOnClose: true}}, strings.NewReader("?\nq\n"), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"keys:", "  x: select housekeeping", "  S: ship (unavailable: CI is still running on the head commit)", "  ?: help", "  q: quit"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("plain ? output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "line ?") {
		t.Errorf("the plain ? reached the screen:\n%s", out)
	}
}
