package tui

import (
	"context"
	"os"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// QuitRequestMsg is ctrl+c in the full screen, or SIGINT, SIGTERM or
// SIGHUP, as one request: quit safely. It is q without the question: a
// screen that writes stops starting writes, lets the ones under way finish
// (each step lands or is recorded as not landed), says so, and finishes;
// nothing is cut in the middle. The stack hands it to the screen on top
// and, as each screen closes, to the one under it.
//
// Force is the second request while the first is being honoured: the
// screen stops what is under way and records each write still running as
// half done (the actions log, a failure card) before it finishes. A third
// request leaves at once.
type QuitRequestMsg struct {
	Why   string // "ctrl+c", "SIGTERM", "SIGHUP", in the words the screen's last line uses
	Force bool

	key *tea.KeyPressMsg // the ctrl+c key itself, for a screen that does not quit safely
}

// SafeQuitter is implemented by a screen that takes QuitRequestMsg and
// finishes (Done) once nothing it started is cut in the middle. A screen
// without it writes nothing a quit could cut: ctrl+c closes it at once,
// after it has seen the key.
type SafeQuitter interface {
	QuitsSafely()
}

// quitSignals are the signals routed to the screen as a quit request.
var quitSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// QuitSignals lists the signals a process should route through Signals.
func QuitSignals() []os.Signal { return append([]os.Signal(nil), quitSignals...) }

// Signals routes the process's quit signals: to the program running a
// screen while there is one, as a QuitRequestMsg; otherwise (before the
// first screen starts, or between screens) they cancel the context the
// process runs under, as they always did, since nothing is being written.
type Signals struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	to     func(os.Signal) // the running program's, or nil
}

// NewSignals returns a router that cancels with cancel when no screen runs.
func NewSignals(cancel context.CancelFunc) *Signals {
	return &Signals{cancel: cancel}
}

// Deliver routes one signal.
func (s *Signals) Deliver(sig os.Signal) {
	s.mu.Lock()
	to := s.to
	s.mu.Unlock()
	if to != nil {
		to(sig)
		return
	}
	s.cancel()
}

// route sends signals to to until the returned function is called.
func (s *Signals) route(to func(os.Signal)) (restore func()) {
	s.mu.Lock()
	prev := s.to
	s.to = to
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.to = prev
		s.mu.Unlock()
	}
}

// signalWords names a signal as a person reads it in the last line.
func signalWords(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "ctrl+c"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// routeSignals sends the process's quit signals to p as quit requests while
// p runs. With no router (tests), Bubble Tea's own handler stays.
func routeSignals(sigs *Signals, p *tea.Program) (restore func()) {
	if sigs == nil {
		return func() {}
	}
	return sigs.route(func(sig os.Signal) {
		// Send blocks until the program takes it; a signal handler must not.
		go p.Send(QuitRequestMsg{Why: signalWords(sig)})
	})
}

// ctrlC turns the ctrl+c key into a quit request.
func ctrlC(msg tea.KeyPressMsg) (QuitRequestMsg, bool) {
	if msg.String() != "ctrl+c" {
		return QuitRequestMsg{}, false
	}
	return QuitRequestMsg{Why: "ctrl+c", key: &msg}, true
}

// interrupted says whether a screen gave up on a quit request and must stop
// at once (nothing on it quits safely, or a third request came).
func interrupted(s Screen) bool {
	i, ok := s.(interface{ Interrupted() bool })
	return ok && i.Interrupted()
}
