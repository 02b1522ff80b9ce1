package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Plain mode's page size when the caller gives none.
const (
	plainWidth  = 80
	plainHeight = 24
)

// ErrInterrupted is returned by Run, with ExitFailed, when the person pressed
// Ctrl-C (or the process got SIGINT) before the screen finished.
var ErrInterrupted = errors.New("interrupted before the screen finished")

// RunOptions says how Run draws a screen.
type RunOptions struct {
	// Plain selects the plain renderer: lines appended to Out, never a
	// redraw, never colour. Decide it with DecidePlain.
	Plain bool
	// In is where input comes from. Full screen: the terminal (nil means
	// standard input). Plain: lines of choices ("3", "x 2", "enter", "q"),
	// delivered as LineMsg; nil means there is none, and the screen gets
	// InputClosedMsg at once (as in CI).
	In io.Reader
	// Lines, when set, is the process's one reader of plain input, shared by
	// every screen it runs, and In is not read (see LineReader).
	Lines *LineReader
	// Out is where the screen is drawn or the lines are printed (nil means
	// standard output in full screen; plain mode requires it).
	Out io.Writer
	// Width and Height are the terminal size. Full screen: only used when Out
	// is not a terminal (tests); a real terminal reports its own. Plain:
	// the size the screen lays its lines out for, 80×24 when zero.
	Width, Height int
	// ColorProfile forces a colour profile in full screen (tests use
	// colorprofile.Ascii); the zero value detects it from Out and the
	// environment.
	ColorProfile colorprofile.Profile
	// Signals, when set, routes the process's SIGINT, SIGTERM and SIGHUP to
	// the screen as quit requests while it runs (quit.go), so a signal is as
	// safe as q; nil keeps Bubble Tea's own handler, which quits at once.
	Signals *Signals
	// ActionsLog is where the actions log is kept, named at the end of the
	// quit summary the full screen leaves behind ("" names nothing).
	ActionsLog string
}

// Run runs one screen to the end and returns the exit code it finished
// with. This is aayu's one renderer decision: the same model runs in a
// full-screen Bubble Tea program, or — with opts.Plain — in a program without
// a renderer whose only output is the screen's Transcript, printed a line at
// a time.
//
// The shell quits the program as soon as the screen reports Done; a command
// returned from that last Update is not run, so a screen finishes its work
// before it says it is done. Ctrl-C (and, with opts.Signals, SIGINT,
// SIGTERM and SIGHUP) is a quit request: a screen that writes finishes what
// is under way and says so; any other screen stops at once. A screen
// that stops without finishing (Ctrl-C, a cancelled ctx, a crash) gives
// ExitFailed — or the code it set, when it set one — and an error saying why.
func Run(ctx context.Context, s Screen, opts RunOptions) (int, error) {
	if s == nil {
		return ExitFailed, errors.New("run: no screen to run")
	}
	stack, ok := s.(*Stack)
	if !ok {
		stack = NewStack(s)
	}
	stack.SetActionsLog(opts.ActionsLog)
	run := runFullScreen
	if opts.Plain {
		run = runPlain
	}
	code, err := run(ctx, stack, opts)
	if stack.Err() != nil {
		return ExitFailed, stack.Err()
	}
	return code, err
}

func runFullScreen(ctx context.Context, s Screen, opts RunOptions) (int, error) {
	progOpts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.In != nil {
		progOpts = append(progOpts, tea.WithInput(opts.In))
	}
	if opts.Out != nil {
		progOpts = append(progOpts, tea.WithOutput(opts.Out))
	}
	if opts.ColorProfile != colorprofile.Unknown {
		progOpts = append(progOpts, tea.WithColorProfile(opts.ColorProfile))
	}
	if opts.Width > 0 && opts.Height > 0 {
		progOpts = append(progOpts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	if opts.Signals != nil {
		progOpts = append(progOpts, tea.WithoutSignalHandler())
	}
	p := tea.NewProgram(newFullScreen(s), progOpts...)
	restore := routeSignals(opts.Signals, p)
	final, err := p.Run()
	restore()
	shell, ok := final.(*fullScreen)
	if !ok {
		return ExitFailed, fmt.Errorf("run: the program returned an unexpected model %T: %w", final, err)
	}
	if shell.err != nil {
		return ExitFailed, shell.err
	}
	if shell.interrupted && err == nil {
		err = ErrInterrupted
	}
	printEpilogue(shell.screen, opts.Out)
	return outcome(shell.screen, err)
}

// Epilogue is implemented by a screen that has something to leave behind
// after the full screen closes, such as the inbox's log of what it wrote
// and the details of what failed. Plain mode never needs it: its lines are
// already on the page.
type Epilogue interface {
	Epilogue() []string
}

func printEpilogue(s Screen, out io.Writer) {
	var lines []string
	if e, ok := s.(Epilogue); ok {
		lines = e.Epilogue()
	} else if t := s.Transcript(); len(t) > 0 {
		// Every screen's transcript ends on its outcome ("result: …"):
		// leave that line behind so no outcome, above all no refusal, is
		// gone with the alternate screen.
		lines = t[len(t)-1:]
	}
	if out == nil {
		out = os.Stdout
	}
	for _, l := range lines {
		// Printed after the full screen closes, onto the person's shell:
		// as clean as every plain line.
		fmt.Fprintln(out, Sanitize(ansi.Strip(l)))
	}
}

// outcome turns the final screen and the program's error into Run's result.
func outcome(s Screen, runErr error) (int, error) {
	finished, code := s.Done()
	if finished {
		if errors.Is(runErr, tea.ErrProgramPanic) {
			return ExitFailed, fmt.Errorf("the screen crashed: %w", runErr)
		}
		return code, nil
	}
	if code == ExitOK {
		code = ExitFailed
	}
	switch {
	case runErr == nil:
		return code, errors.New("the screen stopped without finishing; this is a bug in aayu")
	case errors.Is(runErr, ErrInterrupted), errors.Is(runErr, tea.ErrInterrupted):
		return code, ErrInterrupted
	case errors.Is(runErr, context.Canceled), errors.Is(runErr, context.DeadlineExceeded):
		return code, fmt.Errorf("cancelled before the screen finished: %w", runErr)
	default:
		return code, fmt.Errorf("the screen stopped before it finished: %w", runErr)
	}
}
