package verify

import (
	"context"
	"slices"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/proof"
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
	pushed bool // opened on top of the inbox: esc at rest goes back
	events chan tea.Msg

	phase   phase
	req     packbuild.Request
	steps   []stepRow
	output  []string
	outcome *packbuild.Outcome
	err     error

	pkgs []pkgRow // the packages of the go test steps, as they come

	ticking    ticking    // the spinner and the clock (progress.go)
	outputView outputView // the live output viewer (o)

	lines    []string // the plain transcript so far
	exitCode int
	finished bool // the run has ended
	done     bool // the screen is over
}

// ticking is what moves while the run does.
type ticking struct {
	spin  spinner.Model   // moves while the run does
	clock stopwatch.Model // time since the run began
}

// outputView is the live output viewer (o).
type outputView struct {
	showOutput bool
	out        viewport.Model // the live output viewer (o)
	outDirty   bool           // output came since the viewer last got it
}

// New returns the verify screen. ctx cancels the run when the program
// stops; quitting the screen cancels it too.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	if c.Width == 0 {
		c.Width, c.Height = 80, 24
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{c: c, deps: deps, keys: newKeys(), ctx: ctx, cancel: cancel, events: make(chan tea.Msg, 64),
		ticking: ticking{spin: newSpinner(), clock: newClock()}, outputView: outputView{out: newOutputView(c.Width, c.Height)}}
	m.say(plainIntro(deps.Story))
	m.say("working…")
	return m
}

// Init starts preparing the checkout, the spinner and the clock.
func (m *Model) Init() tea.Cmd { return tea.Batch(prepare(m.ctx, m.deps), m.startMotion()) }

// Update handles the run's messages, resizes and keys. It does no I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.updateMotion(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tui.PushedMsg:
		m.pushed = true
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.outputView.out.SetWidth(max(msg.Width, 20))
		m.outputView.out.SetHeight(max(1, max(msg.Height, 8)-2))
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case preparedMsg:
		if msg.err != nil {
			return m, m.finish(finishedMsg{err: msg.err})
		}
		m.phase, m.req = phaseRunning, msg.req
		m.steps = nil
		for _, s := range packbuild.Steps(msg.req.Bug) {
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
func (m *Model) apply(ev packbuild.Event) {
	switch ev := ev.(type) {
	case packbuild.StepStarted:
		row := m.row(ev.Step)
		row.state, row.what, row.test = stepRunning, ev.What, ""
		m.say(plainStarted(ev))
	case packbuild.TestRunning:
		m.row(ev.Step).test = shortTest(ev.Package, ev.Test)
		m.applyPackage(ev)
	case packbuild.PackageStarted, packbuild.PackageEnded, packbuild.TestEnded:
		m.applyPackage(ev)
	case packbuild.Output:
		m.addOutput(ev.Line)
	case packbuild.StepEnded:
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

// row finds a step's row, adding one for a step the list did not expect
// (the web floor runs only when the evidence map names a page): before
// the pack's row, which is always last, so the rows stay in run order.
func (m *Model) row(name string) *stepRow {
	for i := range m.steps {
		if m.steps[i].name == name {
			return &m.steps[i]
		}
	}
	at := len(m.steps)
	if at > 0 && m.steps[at-1].name == packbuild.StepPack {
		at--
	}
	m.steps = slices.Insert(m.steps, at, stepRow{name: name})
	return &m.steps[at]
}

// finish records the outcome and its exit code, and ends the screen in
// plain mode and in CI.
func (m *Model) finish(msg finishedMsg) tea.Cmd {
	m.finished, m.phase = true, phaseDone
	m.outcome, m.err = msg.out, msg.err
	switch {
	case msg.err != nil:
		m.exitCode = packbuild.ExitFailed
		for i := range m.steps {
			if m.steps[i].state == stepRunning {
				m.steps[i].state, m.steps[i].detail = stepFailed, "could not run"
			}
		}
	case msg.out == nil:
		m.exitCode, m.err = packbuild.ExitFailed, errNoOutcome
	default:
		m.exitCode = msg.out.ExitCode
	}
	for _, l := range plainResult(m.outcome, m.err) {
		m.say(l)
	}
	if m.c.Plain || m.c.CI {
		return m.quit()
	}
	m.syncOutput()
	return m.ticking.clock.Stop()
}

// quit ends the screen. Quitting before the run ends is a failure: no pack
// was built, and the run is cancelled.
func (m *Model) quit() tea.Cmd {
	m.done = true
	if !m.finished {
		m.exitCode = packbuild.ExitFailed
		m.say("stopped before the pack was built; nothing was written (exit 1)")
	}
	m.cancel()
	return tea.Quit
}

func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.outputView.showOutput {
		switch {
		case key.Matches(msg, k.Back), msg.String() == "q", msg.String() == "o":
			m.outputView.showOutput = false
		case key.Matches(msg, k.Quit):
			return m, m.quit()
		default:
			// The viewport scrolls: ↑/k ↓/j, pgup/b pgdn/f/space, u/d.
			m.syncOutput()
			var cmd tea.Cmd
			m.outputView.out, cmd = m.outputView.out.Update(msg)
			return m, cmd
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Quit), m.pushed && key.Matches(msg, k.Back):
		return m, m.quit()
	case key.Matches(msg, k.Output):
		m.outputView.showOutput, m.outputView.outDirty = true, true
		m.outputView.out.SetContentLines(nil)
		m.syncOutput() // opens at the newest line, following the run
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
	if m.outputView.showOutput {
		return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDn, k.Back}
	}
	out := k.Output
	if len(m.output) == 0 {
		out = tui.Disable(out, "no output yet")
	}
	if m.pushed {
		// Opened from the inbox: esc goes back to it.
		return []key.Binding{out, tui.BackKey(), k.Quit}
	}
	return []key.Binding{out, k.Quit}
}

func (m *Model) say(line string) { m.lines = append(m.lines, line) }

// Close stops the run if it is still going; the screen stack calls it when
// the screen leaves.
func (m *Model) Close() { m.cancel() }

// PlainKeys is the plain ?: the plain twin takes no line on this screen.
func (m *Model) PlainKeys() []key.Binding { return tui.PlainAsksNothing() }
