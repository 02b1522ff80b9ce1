package tui

import (
	"bytes"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"context"
	"errors"
	"fmt"
	"github.com/aayudha/aayu/internal/syncbuf"
	"github.com/charmbracelet/colorprofile"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeScreen is a value-type screen, as real screens are: every Update
// returns a changed copy. It records the messages that matter as transcript
// lines, finishes with code on the line "q" (or on closed input when
// quitOnClose), and can be told to do other things by its fields.
type fakeScreen struct {
	lines        []string
	done         bool
	code         int
	quitOnClose  bool
	initCmd      tea.Cmd           // returned from Init
	onLine       map[string]string // a LineMsg text → an extra transcript line
	clipboard    bool              // ask for an OSC 52 write on the first size message
	quitRaw      bool              // return tea.Quit without finishing on "q"
	doneOnResult bool              // finish when a background result arrives
}

func (s fakeScreen) Init() tea.Cmd { return s.initCmd }

func (s fakeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	s.lines = append([]string(nil), s.lines...) // never share the backing array
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.lines = append(s.lines, fmt.Sprintf("size %dx%d", msg.Width, msg.Height))
		if s.clipboard {
			return s, tea.SetClipboard("secret")
		}
	case LineMsg:
		s.lines = append(s.lines, "line "+msg.Line)
		if extra, ok := s.onLine[msg.Line]; ok {
			s.lines = append(s.lines, extra)
		}
		if msg.Line == "q" {
			if s.quitRaw {
				return s, tea.Quit
			}
			s.done = true
		}
	case InputClosedMsg:
		s.lines = append(s.lines, "input closed")
		if s.quitOnClose {
			s.done = true
		}
	case tea.KeyPressMsg:
		s.lines = append(s.lines, "key "+msg.String())
		if msg.String() == "q" {
			s.done = true
		}
	case string: // a background command's result
		s.lines = append(s.lines, "result "+msg)
		s.done = s.doneOnResult
	}
	return s, nil
}

func (s fakeScreen) View() tea.View {
	last := "starting"
	if len(s.lines) > 0 {
		last = s.lines[len(s.lines)-1]
	}
	return tea.NewView("fake screen: " + last)
}

func (s fakeScreen) Transcript() []string { return s.lines }
func (s fakeScreen) Done() (bool, int)    { return s.done, s.code }
func (s fakeScreen) Keys() []key.Binding  { return DefaultKeys().shortList() }
func (k KeyMap) shortList() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Enter, k.Help, k.Quit}
}

func runPlainForTest(t *testing.T, s Screen, in io.Reader, opts RunOptions) (int, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	opts.Plain, opts.In, opts.Out = true, in, &out
	code, err := Run(ctx, s, opts)
	return code, out.String(), err
}

func TestRunPlain(t *testing.T) {
	tests := []struct {
		name     string
		screen   fakeScreen
		in       io.Reader
		opts     RunOptions
		wantCode int
		wantOut  string
		wantHas  []string // lines whose order races, each printed once
	}{
		{
			name:     "lines in order, input trimmed, exit code passes through",
			screen:   fakeScreen{code: ExitRefused, onLine: map[string]string{"3": "chose option 3"}},
			in:       strings.NewReader("3\n  x 2  \nq\nnever read\n"),
			wantCode: ExitRefused,
			wantOut:  "size 80x24\nline 3\nchose option 3\nline x 2\nline q\n",
		},
		{
			name:     "end of input delivers InputClosedMsg after the last line",
			screen:   fakeScreen{quitOnClose: true, code: ExitOK},
			in:       strings.NewReader("a\nb"),
			wantCode: ExitOK,
			wantOut:  "size 80x24\nline a\nline b\ninput closed\n",
		},
		{
			name:     "no input at all closes input at once",
			screen:   fakeScreen{quitOnClose: true, code: ExitFloor},
			wantCode: ExitFloor,
			wantOut:  "size 80x24\ninput closed\n",
		},
		{
			name:     "size comes from the options",
			screen:   fakeScreen{quitOnClose: true},
			opts:     RunOptions{Width: 120, Height: 40},
			wantCode: ExitOK,
			wantOut:  "size 120x40\ninput closed\n",
		},
		{
			name:     "background command results reach the screen",
			screen:   fakeScreen{initCmd: func() tea.Msg { time.Sleep(20 * time.Millisecond); return "fetched" }, doneOnResult: true, code: ExitFloor},
			in:       strings.NewReader("a\n"),
			wantCode: ExitFloor,
			wantHas:  []string{"size 80x24\n", "line a\n", "result fetched\n"},
		},
		{
			name: "escape sequences never reach plain output",
			screen: fakeScreen{quitOnClose: true, clipboard: true, onLine: map[string]string{
				"x": "\x1b[31mred\x1b[0m \x1b]52;c;c2VjcmV0\x07 \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\ \x9b2J",
			}},
			in:       strings.NewReader("x\n"),
			wantCode: ExitOK,
			wantOut:  "size 80x24\nline x\nred  link \ninput closed\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, err := runPlainForTest(t, tt.screen, tt.in, tt.opts)
			if err != nil {
				t.Fatalf("Run failed: %v\noutput:\n%s", err, out)
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			if tt.wantOut != "" && out != tt.wantOut {
				t.Errorf("output\n%q\nwant\n%q", out, tt.wantOut)
			}
			for _, want := range tt.wantHas {
				if strings.Count(out, want) != 1 {
					t.Errorf("output should hold %q exactly once:\n%s", want, out)
				}
			}
			assertNoRepeats(t, out)
			assertSafe(t, "plain output", out)
		})
	}
}

// assertNoRepeats fails when a line was printed twice: plain mode appends,
// it never redraws. Every fake transcript line is unique by construction.
func assertNoRepeats(t *testing.T, out string) {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line != "" && seen[line] {
			t.Errorf("line %q printed twice in:\n%s", line, out)
		}
		seen[line] = true
	}
}

func TestRunPlainStopsWithoutFinishing(t *testing.T) {
	t.Run("screen quits without being done", func(t *testing.T) {
		code, out, err := runPlainForTest(t, fakeScreen{quitRaw: true, code: ExitOK}, strings.NewReader("q\n"), RunOptions{})
		if code != ExitFailed || err == nil || !strings.Contains(err.Error(), "without finishing") {
			t.Errorf("Run = %d, %v; want ExitFailed and an error saying the screen did not finish", code, err)
		}
		if !strings.Contains(out, "line q\n") {
			t.Errorf("lines before the quit were not printed:\n%s", out)
		}
	})
	t.Run("context cancelled while waiting for input", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		ctx, cancel := context.WithCancel(context.Background())
		var out syncbuf.Buffer
		done := make(chan struct{})
		var code int
		var err error
		go func() {
			defer close(done)
			code, err = Run(ctx, fakeScreen{}, RunOptions{Plain: true, In: pr, Out: &out})
		}()
		if _, werr := io.WriteString(pw, "a\n"); werr != nil {
			t.Fatal(werr)
		}
		waitFor(t, &out, "line a\n")
		cancel()
		<-done
		if code != ExitFailed || !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %d, %v; want ExitFailed and context.Canceled", code, err)
		}
	})
	t.Run("write failure ends the run", func(t *testing.T) {
		code, err := Run(context.Background(), fakeScreen{quitOnClose: true}, RunOptions{Plain: true, Out: failingWriter{}})
		if code != ExitFailed || err == nil || !strings.Contains(err.Error(), "writing the screen's lines") {
			t.Errorf("Run = %d, %v; want ExitFailed and a write error", code, err)
		}
	})
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func waitFor(t *testing.T, b *syncbuf.Buffer, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("output never held %q; it was:\n%s", want, b.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRunFullScreen(t *testing.T) {
	tests := []struct {
		name     string
		screen   fakeScreen
		in       string
		wantCode int
		wantErr  error
	}{
		{"q finishes with the screen's code", fakeScreen{code: ExitRefused}, "q", ExitRefused, nil},
		{"ctrl+c quits even when the screen ignores it", fakeScreen{}, "\x03", ExitFailed, ErrInterrupted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var out bytes.Buffer
			code, err := Run(ctx, tt.screen, RunOptions{
				In: strings.NewReader(tt.in), Out: &out, Width: 80, Height: 24, ColorProfile: colorprofile.ASCII,
			})
			if code != tt.wantCode || !errors.Is(err, tt.wantErr) {
				t.Fatalf("Run = %d, %v; want %d, %v", code, err, tt.wantCode, tt.wantErr)
			}
			if !strings.Contains(out.String(), "\x1b[?1049h") {
				t.Errorf("full-screen output never entered the alternate screen: %q", out.String())
			}
			if !strings.Contains(out.String(), "fake screen:") {
				t.Errorf("full-screen output never drew the screen: %q", out.String())
			}
		})
	}
}
