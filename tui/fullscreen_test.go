package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

func newShellTest(t *testing.T, s Screen) *teatest.TestModel {
	t.Helper()
	return teatest.NewTestModel(t, newFullScreen(s),
		teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ASCII)),
	)
}

func finalShell(t *testing.T, tm *teatest.TestModel) *fullScreen {
	t.Helper()
	shell, ok := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*fullScreen)
	if !ok {
		t.Fatal("final model is not the full-screen shell")
	}
	return shell
}

func TestFullScreenQuitsWhenScreenIsDone(t *testing.T) {
	tm := newShellTest(t, fakeScreen{code: ExitFloor})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("fake screen: size 80x24"))
	}, teatest.WithDuration(5*time.Second))
	tm.Type("jq")

	shell := finalShell(t, tm)
	done, code := shell.screen.Done()
	if !done || code != ExitFloor {
		t.Errorf("screen Done() = %v, %d; want true, %d", done, code, ExitFloor)
	}
	if shell.interrupted {
		t.Error("a screen that finished was recorded as interrupted")
	}
	got := strings.Join(shell.screen.Transcript(), "|")
	if !strings.Contains(got, "key j|key q") {
		t.Errorf("keys did not reach the screen in order: %s", got)
	}
}

func TestFullScreenCtrlCAlwaysQuits(t *testing.T) {
	tm := newShellTest(t, fakeScreen{})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	shell := finalShell(t, tm)
	if !shell.interrupted {
		t.Error("ctrl+c did not stop the program as interrupted")
	}
	if done, _ := shell.screen.Done(); done {
		t.Error("the fake screen should not have finished on ctrl+c")
	}
	if got := strings.Join(shell.screen.Transcript(), "|"); !strings.Contains(got, "key ctrl+c") {
		t.Errorf("ctrl+c was not passed to the screen first: %s", got)
	}
}

func TestFullScreenViewUsesAltScreen(t *testing.T) {
	v := newFullScreen(fakeScreen{}).View()
	if !v.AltScreen {
		t.Error("the full-screen shell must draw in the alternate screen")
	}
	if !strings.Contains(v.Content, "fake screen: starting") {
		t.Errorf("view content %q is not the screen's", v.Content)
	}
}
