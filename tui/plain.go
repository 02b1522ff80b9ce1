package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

func runPlain(ctx context.Context, s Screen, opts RunOptions) (int, error) {
	if opts.Out == nil {
		return ExitFailed, errors.New("run: plain mode needs somewhere to print its lines")
	}
	w, h := opts.Width, opts.Height
	if w <= 0 || h <= 0 {
		w, h = plainWidth, plainHeight
	}
	if _, ok := s.(*Stack); !ok {
		s = NewStack(s) // the stack routes quit requests
	}
	shell := &plainShell{screen: s, out: opts.Out, done: make(chan struct{})}
	defer close(shell.done) // a wait still under way takes no line
	switch {
	case opts.Lines != nil:
		shell.input = opts.Lines
	case opts.In != nil:
		shell.input = NewLineReader(opts.In)
	}
	// The program gets no input and discards its own output: everything the
	// person sees is written by plainShell, so nothing a screen asks of the
	// terminal (a clipboard write, a title) can reach Out.
	progOpts := []tea.ProgramOption{
		tea.WithContext(ctx),
		tea.WithoutRenderer(),
		tea.WithInput(nil),
		tea.WithOutput(io.Discard),
		tea.WithColorProfile(colorprofile.NoTTY),
		tea.WithWindowSize(w, h),
	}
	if opts.Signals != nil {
		progOpts = append(progOpts, tea.WithoutSignalHandler())
	}
	p := tea.NewProgram(shell, progOpts...)
	restore := routeSignals(opts.Signals, p)
	final, err := p.Run()
	restore()
	shell, ok := final.(*plainShell)
	if !ok {
		return ExitFailed, fmt.Errorf("run: the program returned an unexpected model %T: %w", final, err)
	}
	// A cancelled program stops without a last Update; print what is left.
	shell.printNew()
	if shell.err != nil {
		return ExitFailed, shell.err
	}
	if shell.interrupted && err == nil {
		err = ErrInterrupted
	}
	return outcome(shell.screen, err)
}

// plainShell wraps a screen for the plain renderer. After every Update it
// prints the screen's transcript lines it has not printed yet — it never
// redraws — and it feeds the screen the person's input one line at a time.
type plainShell struct {
	screen  Screen
	out     io.Writer
	printed int // transcript lines already printed

	// input holds the person's lines; nil when there is none. Only one
	// wait is ever in flight, and a line is taken in Update, never in the
	// wait, so a line nobody took stays for the next screen.
	input   *LineReader
	reading bool          // the first wait has been started
	done    chan struct{} // closed when the run ends

	err         error // a failed write or a broken screen; ends the run
	interrupted bool  // a quit request the screen could not honour safely
}

func (m *plainShell) Init() tea.Cmd { return m.screen.Init() }

func (m *plainShell) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(lineReadyMsg); ok {
		line, ok, ended := m.input.take()
		switch {
		case ok:
			msg = LineMsg{Line: line}
		case ended:
			msg = InputClosedMsg{}
		default:
			return m, m.wait()
		}
		if line == "?" && !typing(m.screen) {
			if !m.printHelp() {
				return m, tea.Quit
			}
			// The screen hears of it, so a question it was asking is said
			// again under the keys (HelpShownMsg).
			msg = HelpShownMsg{}
		}
	}
	next, cmd := m.screen.Update(msg)
	s, ok := next.(Screen)
	if !ok {
		m.err = fmt.Errorf("run: screen %T returned %T from Update, which is not a Screen; this is a bug in aayu", m.screen, next)
		return m, tea.Quit
	}
	m.screen = s
	if !m.printNew() {
		return m, tea.Quit
	}
	if done, _ := s.Done(); done {
		return m, tea.Quit
	}
	if interrupted(s) {
		m.interrupted = true
		return m, tea.Quit
	}
	return m, tea.Batch(cmd, m.nextInput(msg))
}

// View is never drawn: plain mode has no renderer.
func (m *plainShell) View() tea.View { return tea.NewView("") }

// nextInput returns the command that reads the next input line, if msg calls
// for one. Reading starts after the first size message, so a screen knows its
// width before the first choice arrives, and continues after each line.
func (m *plainShell) nextInput(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case tea.WindowSizeMsg:
		if m.reading {
			return nil
		}
		m.reading = true
		if m.input == nil {
			return func() tea.Msg { return InputClosedMsg{} }
		}
	case LineMsg, HelpShownMsg:
	default:
		return nil
	}
	return m.wait()
}

// lineReadyMsg says a line (or the end of input) is waiting to be taken.
type lineReadyMsg struct{}

func (m *plainShell) wait() tea.Cmd {
	in, done := m.input, m.done
	return func() tea.Msg {
		if in.wait(done) {
			return lineReadyMsg{}
		}
		return nil
	}
}

// printNew prints the transcript lines not printed yet. Lines should hold no
// escape sequences already; any that slipped in are stripped, and control
// characters made visible, so plain output is always plain. It reports
// whether printing worked.
func (m *plainShell) printNew() bool {
	if m.err != nil {
		return false
	}
	lines := m.screen.Transcript()
	if m.printed > len(lines) {
		m.err = fmt.Errorf("run: screen %T's transcript shrank from %d to %d lines; this is a bug in aayu", m.screen, m.printed, len(lines))
		return false
	}
	if m.printed == len(lines) {
		return true
	}
	var b strings.Builder
	for _, line := range lines[m.printed:] {
		b.WriteString(Sanitize(ansi.Strip(line)))
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(m.out, b.String()); err != nil {
		m.err = fmt.Errorf("writing the screen's lines: %w", err)
		return false
	}
	m.printed = len(lines)
	return true
}

// printHelp is the plain "?": every key of the screen as a line. It
// reports whether the lines were written.
func (m *plainShell) printHelp() bool {
	var b strings.Builder
	for _, l := range PlainHelp(m.screen) {
		b.WriteString(Sanitize(ansi.Strip(l)))
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(m.out, b.String()); err != nil {
		m.err = fmt.Errorf("writing the keys: %w", err)
		return false
	}
	return true
}

// HelpShownMsg tells a plain screen that "?" printed its keys: a screen
// asking a question says it again, so the question is the last line.
type HelpShownMsg struct{}
