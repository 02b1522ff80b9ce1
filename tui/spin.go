package tui

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// NewSpinner is the spinner every screen shows beside work that waits (a
// read, a gate, a build). Line is plain ASCII: it draws on every terminal
// and font.
func NewSpinner() spinner.Model { return spinner.New(spinner.WithSpinner(spinner.Line)) }

// Spin is the spinner line's state, shared by the screens that show one:
// the spinner and whether its ticks are running. Its ticks run only while
// the screen has work under way, so an idle screen sends no messages.
type Spin struct {
	model spinner.Model
	on    bool // a tick is in flight
}

// NewSpin returns a stopped spinner.
func NewSpin() Spin { return Spin{model: NewSpinner()} }

// Start starts the ticks when motion is allowed (the full screen, not CI)
// and they are not already running.
func (s *Spin) Start(motion bool) tea.Cmd {
	if !motion || s.on {
		return nil
	}
	s.on = true
	return s.model.Tick
}

// Update moves the spinner while work is active and drops the tick after,
// which stops it. A tick of another screen's spinner carries another ID
// and moves nothing.
func (s *Spin) Update(msg spinner.TickMsg, active bool) tea.Cmd {
	if !active {
		s.on = false
		return nil
	}
	var cmd tea.Cmd
	s.model, cmd = s.model.Update(msg)
	return cmd
}

// ID tells this spinner's ticks from another screen's.
func (s Spin) ID() int { return s.model.ID() }

// View is the spinner's current frame.
func (s Spin) View() string { return s.model.View() }

// Waited is the frame and how long the work has waited, in whole seconds:
// "/ 12s".
func (s Spin) Waited(d time.Duration) string {
	return s.model.View() + " " + max(0, d).Truncate(time.Second).String()
}

// Spinning says whether its ticks are running.
func (s Spin) Spinning() bool { return s.on }

// Tick is the spinner's next tick message, as its command would send it.
func (s Spin) Tick() tea.Msg { return s.model.Tick() }
