package verify

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/build"
	"github.com/aayudha/aayu/tui"
)

type phase int

const (
	phasePreparing phase = iota
	phaseRunning
	phaseDone
)

type stepState int

const (
	stepWaiting stepState = iota
	stepRunning
	stepPassed
	stepFailed
	stepSkipped
)

// stepRow is one floor (or step) on the list.
type stepRow struct {
	name   string
	state  stepState
	what   string // what it does, while running
	test   string // the test under way, while running
	detail string // the result in words, once ended
}

// maxOutputLines bounds the output kept for the viewer; the oldest lines
// go first. A real run of a large module prints far fewer.
const maxOutputLines = 20000

type keyMap struct {
	tui.KeyMap
	Output key.Binding
	Back   key.Binding
	PageUp key.Binding
	PageDn key.Binding
}

func newKeys() keyMap {
	return keyMap{
		KeyMap: tui.DefaultKeys(),
		Output: key.NewBinding(key.WithKeys("o", "enter"), key.WithHelp("o", "test output")),
		Back:   key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		PageUp: key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDn: key.NewBinding(key.WithKeys("pgdown", "f", "space"), key.WithHelp("pgdn", "page down")),
	}
}

// Model is the verify screen.
type Model struct {
	c      tui.Common
	deps   Deps
	keys   keyMap
	ctx    context.Context
	cancel context.CancelFunc
	events chan tea.Msg

	phase   phase
	req     build.Request
	steps   []stepRow
	output  []string
	outcome *build.Outcome
	err     error

	showOutput bool
	offset     int  // first output line shown
	follow     bool // keep the newest output line in view

	lines    []string // the plain transcript so far
	exitCode int
	finished bool // the run has ended
	done     bool // the screen is over
}

// New returns the verify screen. ctx cancels the run when the program
// stops; quitting the screen cancels it too.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	if c.Width == 0 {
		c.Width, c.Height = 80, 24
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{c: c, deps: deps, keys: newKeys(), ctx: ctx, cancel: cancel, events: make(chan tea.Msg, 64), follow: true}
	m.say(plainIntro(deps.Story))
	m.say("working…")
	return m
}

// Init starts preparing the checkout.
func (m *Model) Init() tea.Cmd { return prepare(m.ctx, m.deps) }

// Update handles the run's messages, resizes and keys. It does no I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case preparedMsg:
		if msg.err != nil {
			return m, m.finish(finishedMsg{err: msg.err})
		}
		m.phase, m.req = phaseRunning, msg.req
		m.steps = nil
		for _, s := range build.Steps(msg.req.Bug) {
			m.steps = append(m.steps, stepRow{name: s})
		}
		m.say(plainCheckout(msg.req))
		return m, tea.Batch(start(m.ctx, m.deps, msg.req, m.events), wait(m.ctx, m.events))
	case eventMsg:
		m.apply(msg.ev)
		return m, wait(m.ctx, m.events)
	case finishedMsg:
		return m, m.finish(msg)
	case tui.LineMsg, tui.InputClosedMsg:
		// Plain mode asks nothing of the person on this screen.
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	}
	return m, nil
}

// apply records one event of the run.
func (m *Model) apply(ev build.Event) {
	switch ev := ev.(type) {
	case build.StepStarted:
		row := m.row(ev.Step)
		row.state, row.what, row.test = stepRunning, ev.What, ""
		m.say(plainStarted(ev))
	case build.TestRunning:
		m.row(ev.Step).test = shortTest(ev.Package, ev.Test)
	case build.Output:
		m.output = append(m.output, ev.Line)
		if over := len(m.output) - maxOutputLines; over > 0 {
			m.output = m.output[over:]
			m.offset = max(0, m.offset-over)
		}
	case build.StepEnded:
		row := m.row(ev.Step)
		row.test, row.detail = "", ev.Detail
		switch ev.Result {
		case proof.ResultPass, proof.ResultWaived:
			row.state = stepPassed
		case proof.ResultSkipped:
			row.state = stepSkipped
		default:
			row.state = stepFailed
		}
		m.say(plainEnded(ev))
	}
}

// row finds a step's row, adding one for a step the list did not expect.
func (m *Model) row(name string) *stepRow {
	for i := range m.steps {
		if m.steps[i].name == name {
			return &m.steps[i]
		}
	}
	m.steps = append(m.steps, stepRow{name: name})
	return &m.steps[len(m.steps)-1]
}

// finish records the outcome and its exit code, and ends the screen in
// plain mode and in CI.
func (m *Model) finish(msg finishedMsg) tea.Cmd {
	m.finished, m.phase = true, phaseDone
	m.outcome, m.err = msg.out, msg.err
	switch {
	case msg.err != nil:
		m.exitCode = build.ExitFailed
		for i := range m.steps {
			if m.steps[i].state == stepRunning {
				m.steps[i].state, m.steps[i].detail = stepFailed, "could not run"
			}
		}
	case msg.out == nil:
		m.exitCode, m.err = build.ExitFailed, errNoOutcome
	default:
		m.exitCode = msg.out.ExitCode
	}
	for _, l := range plainResult(m.outcome, m.err) {
		m.say(l)
	}
	if m.c.Plain || m.c.CI {
		return m.quit()
	}
	return nil
}

// quit ends the screen. Quitting before the run ends is a failure: no pack
// was built, and the run is cancelled.
func (m *Model) quit() tea.Cmd {
	m.done = true
	if !m.finished {
		m.exitCode = build.ExitFailed
		m.say("stopped before the pack was built; nothing was written (exit 1)")
	}
	m.cancel()
	return tea.Quit
}

func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.showOutput {
		page := max(1, m.c.Height-2)
		last := max(0, len(m.output)-page)
		if m.follow {
			m.offset = last
		}
		switch {
		case key.Matches(msg, k.Back), msg.String() == "q", msg.String() == "o":
			m.showOutput = false
		case key.Matches(msg, k.Quit):
			return m, m.quit()
		case key.Matches(msg, k.Up):
			m.offset, m.follow = max(0, m.offset-1), false
		case key.Matches(msg, k.Down):
			m.offset = min(last, m.offset+1)
			m.follow = m.offset == last
		case key.Matches(msg, k.PageUp):
			m.offset, m.follow = max(0, m.offset-page), false
		case key.Matches(msg, k.PageDn):
			m.offset = min(last, m.offset+page)
			m.follow = m.offset == last
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, m.quit()
	case key.Matches(msg, k.Output):
		m.showOutput, m.follow = true, true
	}
	return m, nil
}

// Transcript returns the plain lines produced so far.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over, and its exit code.
func (m *Model) Done() (bool, int) { return m.done, m.exitCode }

// Keys lists the bindings for the help line.
func (m *Model) Keys() []key.Binding {
	k := m.keys
	if m.showOutput {
		return []key.Binding{k.Up, k.Down, k.PageDn, k.Back}
	}
	out := k.Output
	if len(m.output) == 0 {
		out = tui.Disable(out, "no output yet")
	}
	return []key.Binding{out, k.Quit}
}

func (m *Model) say(line string) { m.lines = append(m.lines, line) }
