package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// hostileLine holds one of each class of byte a GitHub writer could use
// against a terminal: a screen clear, an OSC 52 clipboard write, a C1 CSI
// (U+009B), a bidi override, a bidi isolate, a zero-width space, a carriage
// return and a backspace.
const hostileLine = "title\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07 \u009b6n \u202eevil\u2066 \u200bhid\rover\bx"

// assertNoControls fails when out holds a byte a terminal would obey, or a
// rune that reorders or hides text.
func assertNoControls(t *testing.T, where, out string) {
	t.Helper()
	if at, r, bad := firstControl(out); bad {
		t.Fatalf("%s holds %U at byte %d:\n%q", where, r, at, out)
	}
}

// TestPlainShellNeutralisesATranscriptLine: the plain shell is the last
// layer before standard output; a transcript line holding raw controls
// comes out with each of them shown, none obeyed.
func TestPlainShellNeutralisesATranscriptLine(t *testing.T) {
	s := fakeScreen{lines: []string{"first " + hostileLine}, quitOnClose: true, onLine: map[string]string{"x": "later " + hostileLine}}
	code, out, err := runPlainForTest(t, s, strings.NewReader("x\n"), RunOptions{})
	if err != nil || code != ExitOK {
		t.Fatalf("Run = %d, %v", code, err)
	}
	assertNoControls(t, "the plain output", out)
	for _, want := range []string{"first title", "later title", "^[[6n", "<U+202E>evil", "<U+2066>", "<U+200B>hid", "^Mover^Hx"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plain output does not show %q:\n%s", want, out)
		}
	}
}

// TestEpilogueNeutralisesItsLines: what a full screen leaves behind on the
// person's shell after the alternate screen closes is sanitised too.
func TestEpilogueNeutralisesItsLines(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	s := epilogueScreen{fakeScreen{code: ExitOK}}
	code, err := Run(ctx, s, RunOptions{In: strings.NewReader("q"), Out: &out, Width: 80, Height: 24, ColorProfile: colorprofile.ASCII})
	if err != nil || code != ExitOK {
		t.Fatalf("Run = %d, %v", code, err)
	}
	const leave = "\x1b[?1049l"
	i := strings.LastIndex(out.String(), leave)
	if i < 0 {
		t.Fatalf("the full screen never left the alternate screen: %q", out.String())
	}
	after := out.String()[i+len(leave):]
	if j := strings.Index(after, "epilogue "); j >= 0 {
		after = after[j:]
	} else {
		t.Fatalf("no epilogue after the full screen closed: %q", after)
	}
	assertNoControls(t, "the epilogue", after)
	for _, want := range []string{"epilogue title", "^[[6n", "<U+202E>evil", "<U+200B>hid"} {
		if !strings.Contains(after, want) {
			t.Errorf("the epilogue does not show %q: %q", want, after)
		}
	}
}

// epilogueScreen is a full screen that leaves hostileLine behind.
type epilogueScreen struct{ fakeScreen }

func (s epilogueScreen) Epilogue() []string { return []string{"epilogue " + hostileLine} }

func (s epilogueScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := s.fakeScreen.Update(msg)
	return epilogueScreen{m.(fakeScreen)}, cmd
}

// TestPlainHelpNeutralisesAKeyReason: "?" in plain mode prints every key
// with its help, and a disabled key's reason can quote outside text.
func TestPlainHelpNeutralisesAKeyReason(t *testing.T) {
	s := keysScreen{fakeScreen{quitOnClose: true}}
	code, out, err := runPlainForTest(t, s, strings.NewReader("?\n"), RunOptions{})
	if err != nil || code != ExitOK {
		t.Fatalf("Run = %d, %v", code, err)
	}
	assertNoControls(t, "the plain help", out)
	if !strings.Contains(out, "2: approve — unavailable: title ^[[6n") || !strings.Contains(out, "<U+202E>evil") {
		t.Fatalf("the plain help does not show the reason neutralised:\n%s", out)
	}
}

// keysScreen has a disabled key whose reason holds hostileLine.
type keysScreen struct{ fakeScreen }

func (s keysScreen) Keys() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "approve — unavailable: "+hostileLine))}
}

func (s keysScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := s.fakeScreen.Update(msg)
	return keysScreen{m.(fakeScreen)}, cmd
}
