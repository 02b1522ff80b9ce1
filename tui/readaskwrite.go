package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// ReadAskWrite describes a screen that reads, asks one yes/no question and
// writes, by its reads and writes alone: Flow runs it. R is what the read
// brings, W what the writes bring. The descriptions say their lines and end
// the flow through the ConfirmFlow they are handed (Say, Ask, Finish,
// Stopped); the phases, the keys, the plain answer, the quit request and
// both renderers are the flow's.
type ReadAskWrite[R, W any] struct {
	// Name is the screen's name in the quit summary.
	Name string
	// Read reads what the screen asks about; it runs as a command. Nil:
	// the flow asks nothing and writes from the start (proof push).
	Read func(ctx context.Context) (R, error)
	// Ask takes the read: it says what was read, then asks (f.Ask) or ends
	// the flow (f.Finish, f.Stopped) when there is nothing to ask.
	Ask func(f *ConfirmFlow, r R, err error) tea.Cmd
	// Write makes the writes once the person said yes (or at once, for a
	// flow without a question); it runs as a command.
	Write func(ctx context.Context, r R) (W, error)
	// Wrote takes the writes' outcome: it says what landed and ends the
	// flow.
	Wrote func(f *ConfirmFlow, r R, w W, err error) tea.Cmd
	// Other, when set, takes the screen's own messages and keys before
	// the flow does (approve's device code while it waits for its
	// approval); it reports whether it took msg.
	Other func(f *ConfirmFlow, msg tea.Msg) (tea.Cmd, bool)
	// Close, when set, releases what the screen was built with once it
	// closes (Closer); it runs once.
	Close func()
}

// ReadMsg is a ReadAskWrite's read landing.
type ReadMsg[R any] struct {
	Value R
	Err   error
}

// WroteMsg is a ReadAskWrite's writes ending.
type WroteMsg[W any] struct {
	Value W
	Err   error
}

// Flow is the screen a ReadAskWrite describes: Init reads, Update hands
// the read to Ask and the writes' end to Wrote, and everything else (the
// answer, the keys, the quit request) to the ConfirmFlow it embeds, whose
// View, Transcript, Done, Epilogue, Keys and QuitsSafely are the screen's.
type Flow[R, W any] struct {
	ConfirmFlow
	ctx  context.Context
	desc ReadAskWrite[R, W]
	read R // what the read brought, for the write and Wrote
}

// NewFlow returns the screen d describes, with f as its chrome (title,
// introduction, keys, the words said when a quit request comes while
// writing).
func NewFlow[R, W any](ctx context.Context, f ConfirmFlow, d ReadAskWrite[R, W]) *Flow[R, W] {
	s := &Flow[R, W]{ConfirmFlow: f, ctx: ctx, desc: d}
	s.ConfirmFlow.Write = s.write
	if d.Read == nil {
		s.Phase = FlowWriting
	}
	return s
}

// Close releases what the screen was built with, once (Closer).
func (s *Flow[R, W]) Close() {
	if s.desc.Close != nil {
		s.desc.Close()
		s.desc.Close = nil
	}
}

// Name is the screen's name in the quit summary.
func (s *Flow[R, W]) Name() string { return s.desc.Name }

// Read is what the read brought (the zero R before it landed).
func (s *Flow[R, W]) Read() R { return s.read }

// Init starts the read in the background, or the writes when there is
// nothing to read.
func (s *Flow[R, W]) Init() tea.Cmd {
	if s.desc.Read == nil {
		return s.write()
	}
	ctx, read := s.ctx, s.desc.Read
	return func() tea.Msg {
		r, err := read(ctx)
		return ReadMsg[R]{Value: r, Err: err}
	}
}

// Update hands the read and the writes' end to the description, and every
// other message to the flow. It does no I/O.
func (s *Flow[R, W]) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ReadMsg[R]:
		s.read = msg.Value
		return s, s.desc.Ask(&s.ConfirmFlow, msg.Value, msg.Err)
	case WroteMsg[W]:
		return s, s.desc.Wrote(&s.ConfirmFlow, s.read, msg.Value, msg.Err)
	}
	if s.desc.Other != nil {
		if cmd, ok := s.desc.Other(&s.ConfirmFlow, msg); ok {
			return s, cmd
		}
	}
	return s, s.ConfirmFlow.Update(msg)
}

// write runs the writes on what was read, as a command.
func (s *Flow[R, W]) write() tea.Cmd {
	ctx, write, r := s.ctx, s.desc.Write, s.read
	return func() tea.Msg {
		w, err := write(ctx, r)
		return WroteMsg[W]{Value: w, Err: err}
	}
}
