package tui

import (
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/model/exitcode"
)

// FlowPhase is where a ConfirmFlow is: reading what it will ask about,
// asking, writing after the yes, or finished.
type FlowPhase int

// The phases of a ConfirmFlow, in the order they come.
const (
	FlowReading FlowPhase = iota
	FlowAsking
	FlowWriting
	FlowFinished
)

// ConfirmFlow is the chrome of a screen that reads, asks one yes/no
// question and writes (ready, plan, decide; proof push is the same flow
// without the question): its phases, its lines in both renderers, the
// scroll window, the y/n keys, the early plain answer, the end of input as
// a no, ctrl+c and the signals (a no at the question; the write under way
// lands first), and the "result: exit N" that ends it. A screen describes
// its read and its writes (ReadAskWrite) and Flow runs them over it; a
// screen not yet described that way embeds it, handles its own read and
// write messages, and hands every other message to Update. Either way the
// embedded View, Transcript, Done, Epilogue, Keys and QuitsSafely are the
// screen's.
//
// Hand-written rather than a bubbles component: bubbles has no
// confirmation model, and huh's Confirm is a form field that owns its own
// keys and rendering, where these screens need the plain renderer's typed
// line, the end of input and the quit request to answer the same question
// with the same words, and the transcript to stay byte for byte what the
// goldens hold.
type ConfirmFlow struct {
	C     Common
	Title string // the full screen's title
	Phase FlowPhase
	// Lines are the plain transcript; the first is the introduction the
	// full screen's title stands in for.
	Lines []string
	Code  int
	// Yes and No answer the question in the full screen.
	Yes, No key.Binding
	// Prompt is shown under the question in the full screen.
	Prompt []string
	// StopWhileWriting follows the quit request's why while writing, e.g.
	// ": ready stops once the write under way lands, …".
	StopWhileWriting string
	// HideWhenDone is how many lines after the first the full screen
	// leaves out once finished (a "pushing…" that the outcome replaces).
	HideWhenDone int
	// Write starts the writes once the person says yes.
	Write func() tea.Cmd
	// Link is the result's one link (a comment the writes posted), which
	// the copy key (c) copies once it is set.
	Link ResultLink
	// MoreKeys are the screen's own keys for now (approve's copy of a
	// device code), listed before the flow's outside the question; Note is
	// the screen's own confirmation, shown as the link's is.
	MoreKeys []key.Binding
	Note     string

	keys   KeyMap
	scroll Scrollback
	closed bool
	// early is a plain line, or the end of input, that came while reading;
	// it answers the question once asked, and only a y is a yes.
	early *bool
	// stopWhy is a quit request that came while writing: the write under
	// way finishes, then the screen ends.
	stopWhy string
}

// NewConfirmFlow returns a flow in its reading phase whose first line is
// intro; the yes and no keys say "write these" and "write nothing".
func NewConfirmFlow(c Common, title, intro string) ConfirmFlow {
	return ConfirmFlow{C: c, Title: title, Lines: []string{intro}, keys: DefaultKeys(),
		Yes:    YesKey("yes, write these"),
		No:     NoKey("no, write nothing"),
		Prompt: []string{"", "y            yes: write all of these", "n/esc/enter  no: write nothing"},
	}
}

// QuitsSafely marks the screen as one that never quits in the middle of a
// write (SafeQuitter).
func (f *ConfirmFlow) QuitsSafely() {}

// Update handles what every such screen shares: size, colours, the quit
// request, the plain line, the end of input and the keys. It does no I/O;
// the Cmd it returns is Write's after a yes, or tea.Quit.
func (f *ConfirmFlow) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.C.Width, f.C.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		f.C.Styles = NewStyles(msg.IsDark())
	case QuitRequestMsg:
		return f.onQuitRequest(msg)
	case LineMsg:
		return f.early1(YesLine(msg.Line))
	case InputClosedMsg:
		// The end of input is never a yes.
		return f.early1(false)
	case CopiedMsg:
		f.Link.Copied(msg, f.C.Clipboard)
	case tea.KeyPressMsg:
		if cmd, ok := f.Link.Key(msg, f.C.Clipboard); ok {
			return cmd
		}
		if f.scroll.Key(msg, f.keys.Up, f.keys.Down, f.C, f.Body(), f.Keys()) {
			return nil
		}
		switch {
		case f.Phase == FlowAsking && key.Matches(msg, f.Yes):
			return f.Answer(true)
		case f.Phase == FlowAsking && key.Matches(msg, f.No):
			return f.Answer(false)
		case f.Phase == FlowFinished && key.Matches(msg, f.keys.Quit, f.keys.Enter):
			f.closed = true
			return tea.Quit
		case f.Phase == FlowReading && key.Matches(msg, f.keys.Quit):
			f.Say("Stopped before anything was written.")
			return f.Finish(ExitRefused)
		}
	}
	return nil
}

// early1 is a plain answer: at the question it answers; while reading the
// first one is kept for the question.
func (f *ConfirmFlow) early1(yes bool) tea.Cmd {
	if f.Phase == FlowAsking {
		return f.Answer(yes)
	}
	if f.Phase == FlowReading && f.early == nil {
		f.early = &yes
	}
	return nil
}

// onQuitRequest is ctrl+c, SIGTERM or SIGHUP: before the yes it writes
// nothing (at the question it is a no); after it, the write under way
// lands first and the screen says what landed.
func (f *ConfirmFlow) onQuitRequest(q QuitRequestMsg) tea.Cmd {
	switch f.Phase {
	case FlowFinished:
		f.closed = true
		return tea.Quit
	case FlowAsking:
		f.stopWhy = q.Why
		f.Say(q.Why + " at the confirmation is a no.")
		return f.Answer(false)
	case FlowWriting:
		if f.stopWhy == "" {
			f.stopWhy = q.Why
			f.Say(q.Why + f.StopWhileWriting)
		}
		return nil
	}
	f.Say(fmt.Sprintf("Stopped on %s before anything was written.", q.Why))
	return f.Finish(ExitRefused)
}

// Stopped ends the flow on an error from a core action: a refusal
// (exitcode.Refusal, whichever action refused) is "refused:" and exit 4,
// any other error "failed:" and exit 1. The plan, ready and decide screens
// each told the two apart themselves. nothing is a refusal's second line
// (what was not written); next is a failure's.
func (f *ConfirmFlow) Stopped(err error, nothing, next string) tea.Cmd {
	var refusal *exitcode.Refusal
	if errors.As(err, &refusal) {
		f.Say("refused: "+Sentence(SanitizeLine(refusal.Reason)), nothing)
		return f.Finish(ExitRefused)
	}
	f.Say("failed: "+Sentence(SanitizeLine(err.Error())), next)
	return f.Finish(ExitFailed)
}

// Say adds lines to both renderers.
func (f *ConfirmFlow) Say(lines ...string) { f.Lines = append(f.Lines, lines...) }

// Finish ends the flow with code; the plain renderer, CI and a quit
// request close at once, the full screen waits for q or enter.
func (f *ConfirmFlow) Finish(code int) tea.Cmd {
	f.Phase, f.Code = FlowFinished, code
	f.Say(fmt.Sprintf("result: exit %d", code))
	if f.C.Plain || f.C.CI || f.stopWhy != "" {
		f.closed = true
		return tea.Quit
	}
	return nil
}

// Ask puts the question: its lines, the plain renderer's hint, and an
// answer that came early answers it at once.
func (f *ConfirmFlow) Ask(question []string, plainHint string) tea.Cmd {
	f.Phase = FlowAsking
	f.Say(question...)
	if f.C.Plain {
		f.Say(plainHint)
	}
	if f.early != nil {
		return f.Answer(*f.early)
	}
	return nil
}

// Answer is the person's answer: a no writes nothing and finishes refused,
// a yes starts the writes.
func (f *ConfirmFlow) Answer(yes bool) tea.Cmd {
	if !yes {
		f.Say("answer: no; nothing was written.")
		return f.Finish(ExitRefused)
	}
	f.Say("answer: yes")
	return f.StartWrite()
}

// StartWrite starts the writes without a question (or after the yes).
func (f *ConfirmFlow) StartWrite() tea.Cmd {
	f.Phase = FlowWriting
	return f.Write()
}

// View draws the same lines in the full screen, wrapped to its width.
func (f *ConfirmFlow) View() tea.View {
	notice := f.Link.Notice()
	if notice == "" {
		notice = f.Note
	}
	return f.scroll.ViewNotice(f.C, f.Title, f.Body(), f.Keys(), notice)
}

// Body is what the full screen shows under its title.
func (f *ConfirmFlow) Body() []string {
	if f.Phase == FlowFinished && f.HideWhenDone > 0 {
		return append([]string(nil), f.Lines[1+f.HideWhenDone:]...)
	}
	body := f.Lines[1:]
	if f.Phase == FlowAsking && !f.C.Plain {
		body = append(append([]string(nil), body...), f.Prompt...)
	}
	return body
}

// Transcript returns the plain lines.
func (f *ConfirmFlow) Transcript() []string { return f.Lines }

// Done reports whether the screen is over and its exit code.
func (f *ConfirmFlow) Done() (bool, int) { return f.Phase == FlowFinished && f.closed, f.Code }

// Epilogue leaves what the screen read and what became of it on the
// person's shell once the full screen closes.
func (f *ConfirmFlow) Epilogue() []string {
	if f.Phase == FlowAsking {
		return f.Lines[1:]
	}
	return f.Body()
}

// Keys lists the bindings that work now.
func (f *ConfirmFlow) Keys() []key.Binding {
	if f.Phase == FlowAsking {
		return []key.Binding{f.Yes, f.No}
	}
	return append(append(append([]key.Binding(nil), f.MoreKeys...), f.Link.Keys(f.C)...), f.keys.Quit)
}
