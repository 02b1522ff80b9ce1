// Package doctor is the doctor screen: each row of a repository's set-up
// in words, with its one next step. The same model draws the full screen
// and the plain twin.
package doctor

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/tui"
)

// Check reads the repository's set-up; main wires it to GitHub.
type Check func(ctx context.Context) (core.Report, error)

type reportMsg struct {
	rep core.Report
	err error
}

// Model is the doctor screen.
type Model struct {
	c      tui.Common
	ctx    context.Context
	check  Check
	keys   tui.KeyMap
	lines  []string
	scroll tui.Scrollback // the full screen scrolled back from its newest line
	read   bool
	closed bool
	code   int
}

// New returns the doctor screen; Init starts the reads.
func New(ctx context.Context, c tui.Common, check Check) *Model {
	return &Model{c: c, ctx: ctx, check: check, keys: tui.DefaultKeys(),
		lines: []string{"aayu doctor: checks the repository's set-up against GitHub; it writes nothing."}}
}

// Init reads in the background.
func (m *Model) Init() tea.Cmd {
	ctx, check := m.ctx, m.check
	return func() tea.Msg {
		rep, err := check(ctx)
		return reportMsg{rep, err}
	}
}

// Update records the report; the full screen then waits for q.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case reportMsg:
		m.read = true
		m.lines = append(m.lines, Lines(msg.rep, msg.err)...)
		switch {
		case msg.err != nil:
			m.code = tui.ExitFailed
		case msg.rep.Failed():
			m.code = tui.ExitRefused
		}
		m.lines = append(m.lines, fmt.Sprintf("result: exit %d", m.code))
		// A command that does one thing ends once it is done, as gh's do:
		// the report is left on the normal screen (Epilogue), nothing is
		// left to ask.
		m.closed = true
		return m, tea.Quit
	case tea.KeyPressMsg:
		if m.scroll.Key(msg, m.keys.Up, m.keys.Down, m.c, m.body(), m.Keys()) {
			return m, nil
		}
		if key.Matches(msg, m.keys.Quit) {
			m.closed = true
			if !m.read {
				m.read, m.code = true, tui.ExitFailed
			}
			return m, tea.Quit
		}
	}
	return m, nil
}

// Lines is the report in words, the same in both renderers: one line per
// row with its state in words, and its next step under it.
func Lines(rep core.Report, err error) []string {
	if err != nil {
		return []string{"failed: " + tui.SanitizeLine(err.Error()), "Nothing was checked. Next: check --repo and your token (aayu auth), then run aayu doctor again."}
	}
	out := []string{"repository " + tui.SanitizeLine(rep.Repo) + ":"}
	failed, warned := 0, 0
	for _, r := range rep.Rows {
		out = append(out, fmt.Sprintf("  %s: %s — %s", tui.SanitizeLine(r.Name), r.State, tui.SanitizeLine(r.Detail)))
		if r.Next != "" {
			out = append(out, "    next: "+tui.SanitizeLine(r.Next))
		}
		switch r.State {
		case core.Fail:
			failed++
		case core.Warn:
			warned++
		}
	}
	switch {
	case failed > 0:
		out = append(out, fmt.Sprintf("%d of %d rows are not set up and %d warn; do each row's next step, then run aayu doctor again.", failed, len(rep.Rows), warned))
	case warned > 0:
		out = append(out, fmt.Sprintf("Set up; %d %s above.", warned, plural(warned, "warning", "warnings")))
	default:
		out = append(out, "Set up: every row is ok.")
	}
	return out
}

// View draws the same lines in the full screen, wrapped to its width.
func (m *Model) View() tea.View {
	return m.scroll.View(m.c, "aayu doctor", m.body(), m.Keys())
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) {
	return m.read && (m.closed || m.c.Plain || m.c.CI), m.code
}

// Epilogue leaves every row behind once the full screen closes.
func (m *Model) Epilogue() []string { return m.lines[1:] }

// Keys lists the screen's bindings.
func (m *Model) Keys() []key.Binding { return []key.Binding{m.keys.Quit} }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// body is what the full screen shows under its title.
func (m *Model) body() []string {
	if !m.read {
		return []string{"reading…"}
	}
	return m.lines[1:]
}

// PlainKeys is the plain ?: the plain twin takes no line on this screen.
func (m *Model) PlainKeys() []key.Binding { return tui.PlainAsksNothing() }
