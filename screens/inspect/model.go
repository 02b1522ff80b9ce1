// Package inspect is the full screen of `aayu inspect PR`: inspect's
// judgement of the pull request's head as the merge gate's own run posted
// it — the head, the rung, each criterion with its mapped tests and what
// the judge found, the reviewer's reasons and spend. It writes nothing, so
// agents may run it too. The reading runs as a tea.Cmd through
// actions/inspect.ReadView; the lines are actions/inspect.ViewLines, the
// same the plain twin prints, every text from GitHub neutralised there.
package inspect

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/inspect"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// Deps are the screen's effects: cli wires Read to actions/inspect.ReadView
// with the person's token, tests to the sandbox or a fixed view.
type Deps struct {
	Repo string // OWNER/NAME, for the heading
	PR   int
	Read func(ctx context.Context) (core.View, error)
}

type viewMsg struct {
	view core.View
	err  error
}

// Model is the inspect screen: a viewer, open until q.
type Model struct {
	c      tui.Common
	deps   Deps
	ctx    context.Context
	keys   tui.KeyMap
	read   bool
	view   core.View
	lines  []string
	offset int // first body line shown in the full screen
	done   bool
	code   int
}

// New returns the inspect screen of deps.PR.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	return &Model{c: c, deps: deps, ctx: ctx, keys: tui.DefaultKeys()}
}

// Init reads the judgement.
func (m *Model) Init() tea.Cmd {
	ctx, read := m.ctx, m.deps.Read
	return func() tea.Msg {
		v, err := read(ctx)
		return viewMsg{view: v, err: err}
	}
}

// Update takes the judgement in; the full screen then scrolls until q, as
// the pack viewer does. The plain twin ends once the lines are printed.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case viewMsg:
		return m, m.gotView(msg)
	case tui.LineMsg, tui.InputClosedMsg:
		// Plain mode asks nothing of the person on this screen.
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Quit):
			m.done = true
			if !m.read {
				m.code = tui.ExitFailed
			}
			return m, tea.Quit
		case key.Matches(msg, m.keys.Down):
			m.offset = min(m.offset+1, max(0, len(m.lines)-1))
		case key.Matches(msg, m.keys.Up):
			m.offset = max(0, m.offset-1)
		}
	}
	return m, nil
}

// gotView takes the read's answer: the lines, or the failure in words.
func (m *Model) gotView(msg viewMsg) tea.Cmd {
	m.read = true
	if msg.err != nil {
		m.code = tui.ExitFailed
		m.lines = []string{"failed: inspect's judgement could not be read: " + tui.SanitizeLine(msg.err.Error()),
			fmt.Sprintf("Nothing was done. Next: check the connection and the token with aayu auth, then run aayu inspect %d again.", m.deps.PR)}
	} else {
		m.view = msg.view
		m.lines = core.ViewLines(msg.view)
	}
	if m.c.Plain || m.c.CI {
		m.done = true
		return tea.Quit
	}
	return nil
}

// rung is the heading's word on the judgement: the judgement's rung, or
// where there is none, why.
func (m *Model) rung() string {
	switch {
	case !m.read:
		return "reading…"
	case m.code != tui.ExitOK:
		return "not read"
	case !m.view.Found:
		return "no judgement yet"
	case m.view.Judgement == nil:
		return untrusted.Line(m.view.State)
	}
	return "rung " + untrusted.Line(m.view.Judgement.Rung)
}

// View draws the lines wrapped to the width, scrolled by up and down.
func (m *Model) View() tea.View {
	st := m.c.Styles
	w, h := max(m.c.Width, 20), max(m.c.Height, 6)
	// The rung first: on a narrow terminal it is what must not be cut.
	about := fmt.Sprintf("#%d %s · %s", m.deps.PR, m.rung(), tui.SanitizeLine(m.deps.Repo))
	if m.view.Head != "" {
		about += " · head " + untrusted.Line(gitsha.Short(m.view.Head))
	}
	head := tui.Header(st, "aayu inspect", about, w)
	var body []string
	if !m.read {
		body = append(body, "reading the merge gate's judgement of the head…")
	}
	for _, l := range m.lines {
		warn := strings.HasPrefix(l, "failed:") || strings.HasPrefix(strings.TrimSpace(l), "finding:") ||
			strings.HasPrefix(l, "ignored:") || strings.Contains(l, ", not shown:")
		for _, wl := range wrapIndented(l, w) {
			if warn {
				wl = st.Warning.Render(wl)
			}
			body = append(body, wl)
		}
	}
	// The head, a blank line and the body from the scroll offset (kept
	// from running past the end), the help line at the bottom.
	start := min(m.offset, max(0, len(body)-(h-3)))
	v := tea.NewView(tui.Frame(append([]string{head, ""}, body[start:]...), w, h, tui.HelpLine(w, m.Keys(), st)))
	v.AltScreen = true
	return v
}

// wrapIndented wraps a line to w, its continuation lines indented two
// columns past the line's own indent, so a criterion's tests and findings
// stay visibly under it.
func wrapIndented(l string, w int) []string {
	indent := len(l) - len(strings.TrimLeft(l, " "))
	pad := strings.Repeat(" ", indent+2)
	first := tui.WrapLinks(l, w, " ,")
	if len(first) < 2 || w-len(pad) < 20 {
		return first
	}
	// Only when the first line is l's own start (a URL shortened in the
	// middle is not) and every indented line still fits; else the plain
	// wrap.
	lead := strings.TrimRight(first[0], " ")
	if !strings.HasPrefix(l, lead) {
		return first
	}
	out := first[:1]
	for _, wl := range tui.WrapLinks(strings.TrimLeft(strings.TrimPrefix(l, lead), " "), w-len(pad), " ,") {
		if ansi.StringWidth(pad+wl) > w {
			return first
		}
		out = append(out, pad+wl)
	}
	return out
}

// Transcript returns the plain lines: ViewLines, as `aayu inspect PR
// --plain` prints them.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.done, m.code }

// Keys lists the screen's bindings.
func (m *Model) Keys() []key.Binding { return []key.Binding{m.keys.Up, m.keys.Down, m.keys.Quit} }

// PlainKeys is the plain ?: the plain twin takes no line on this screen.
func (m *Model) PlainKeys() []key.Binding { return tui.PlainAsksNothing() }

// OnlyShows: the viewer shows a judgement and writes nothing (tui.Shower).
func (m *Model) OnlyShows() bool { return true }

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return fmt.Sprintf("inspect #%d", m.deps.PR) }

// Epilogue leaves the head and inspect's word on it on the terminal once
// the full screen closes, and the next step when there is one.
func (m *Model) Epilogue() []string {
	if m.c.Plain || !m.read {
		return nil
	}
	var out []string
	for i, l := range m.lines {
		if i < 2 || strings.HasPrefix(l, "next: ") || strings.HasPrefix(l, "failed:") {
			out = append(out, l)
		}
	}
	return out
}
