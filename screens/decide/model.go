// Package decide is the screen of `aayu decide N[,M…] --accept K[,L…]`:
// each Decision with its options and the one accepted, the inbox's own
// confirmation for a pick that is not the recommendation or is a one-way
// door, then the writes and what became of each, in the full screen and
// its plain twin.
package decide

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/decide"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires them to GitHub (or the sandbox).
type Deps struct {
	Command string // the command as typed, e.g. "aayu decide 1,2 --accept 1,2"
	// DryRun shows the picks and what would be written, and writes nothing.
	DryRun bool
	Read   func(ctx context.Context) (core.Plan, error)
	Apply  func(ctx context.Context, p core.Plan) []core.Result
}

type planMsg struct {
	plan core.Plan
	err  error
}

type appliedMsg []core.Result

type phase int

const (
	reading phase = iota
	asking
	writing
	finished
)

// Model is the decide screen.
type Model struct {
	c      tui.Common
	ctx    context.Context
	deps   Deps
	keys   tui.KeyMap
	yes    key.Binding
	no     key.Binding
	phase  phase
	plan   core.Plan
	lines  []string
	scroll tui.Scrollback
	code   int
	closed bool
	// early is a plain line, or the end of input, that came while the
	// Decisions were still being read; it answers the question once asked,
	// and only a y is a yes.
	early *bool
	// stopWhy is a quit request that came while writing: the write under
	// way finishes, then the screen ends.
	stopWhy string
}

// New returns the decide screen; Init starts reading.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	return &Model{c: c, ctx: ctx, deps: deps, keys: tui.DefaultKeys(),
		yes:   key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "yes, accept these")),
		no:    key.NewBinding(key.WithKeys("n", "esc", "q"), key.WithHelp("n/esc/q", "no, write nothing")),
		lines: []string{deps.Command + ": reads each Decision as the inbox does and accepts the option named, with the inbox's writes; a pick that is not the recommendation, or a one-way door, asks first and only y writes."},
	}
}

// Init reads the inbox in the background.
func (m *Model) Init() tea.Cmd {
	ctx, read := m.ctx, m.deps.Read
	return func() tea.Msg {
		p, err := read(ctx)
		return planMsg{p, err}
	}
}

// QuitsSafely marks decide as a screen that never quits in the middle of a
// write (tui.SafeQuitter).
func (m *Model) QuitsSafely() {}

// Update reacts to what was read and written and to the person's answer;
// it does no I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case planMsg:
		return m.planned(msg)
	case appliedMsg:
		return m.applied(msg)
	case tui.QuitRequestMsg:
		return m.onQuitRequest(msg)
	case tui.LineMsg:
		yes := tui.YesLine(msg.Line)
		if m.phase == asking {
			return m.answer(yes)
		}
		if m.phase == reading && m.early == nil {
			m.early = &yes
		}
	case tui.InputClosedMsg:
		// The end of input is never a yes.
		if m.phase == asking {
			return m.answer(false)
		}
		if m.phase == reading && m.early == nil {
			no := false
			m.early = &no
		}
	case tea.KeyPressMsg:
		if m.scroll.Key(msg, m.keys.Up, m.keys.Down, m.c, m.body(), m.Keys()) {
			return m, nil
		}
		switch {
		case m.phase == asking && key.Matches(msg, m.yes):
			return m.answer(true)
		case m.phase == asking && key.Matches(msg, m.no):
			return m.answer(false)
		case m.phase == finished && key.Matches(msg, m.keys.Quit, m.keys.Enter):
			m.closed = true
			return m, tea.Quit
		case m.phase == reading && key.Matches(msg, m.keys.Quit):
			m.say("Stopped before anything was written.")
			return m.finish(tui.ExitRefused)
		}
	}
	return m, nil
}

// onQuitRequest is ctrl+c, SIGTERM or SIGHUP: before the yes it writes
// nothing (at the question it is a no); after it, the writes under way land
// first and the screen says what landed.
func (m *Model) onQuitRequest(q tui.QuitRequestMsg) (tea.Model, tea.Cmd) {
	switch m.phase {
	case finished:
		m.closed = true
		return m, tea.Quit
	case asking:
		m.stopWhy = q.Why
		m.say(q.Why + " at the confirmation is a no.")
		return m.answer(false)
	case writing:
		if m.stopWhy == "" {
			m.stopWhy = q.Why
			m.say(q.Why + ": decide stops once the writes under way land, and says what landed; nothing is cut in the middle.")
		}
		return m, nil
	}
	m.say(fmt.Sprintf("Stopped on %s before anything was written.", q.Why))
	return m.finish(tui.ExitRefused)
}

func (m *Model) say(lines ...string) { m.lines = append(m.lines, lines...) }

func (m *Model) finish(code int) (tea.Model, tea.Cmd) {
	m.phase, m.code = finished, code
	m.say(fmt.Sprintf("result: exit %d", code))
	if m.c.Plain || m.c.CI || m.stopWhy != "" {
		m.closed = true
		return m, tea.Quit
	}
	return m, nil
}

func (m *Model) planned(msg planMsg) (tea.Model, tea.Cmd) {
	var refusal *core.Refusal
	switch {
	case errors.As(msg.err, &refusal):
		m.say("refused: "+tui.Sentence(clean(refusal.Reason)), "Nothing was written.")
		return m.finish(tui.ExitRefused)
	case msg.err != nil:
		m.say("failed: "+tui.Sentence(clean(msg.err.Error())), "Nothing was written. Next: check --repo and your token (aayu auth), then run "+m.deps.Command+" again.")
		return m.finish(tui.ExitFailed)
	}
	p := msg.plan
	m.plan = p
	m.say(DecisionLines(p)...)
	switch {
	case m.deps.DryRun:
		m.say("--dry-run: accepting would write, in this order:")
		m.say(numbered(p.Writes())...)
		m.say("--dry-run: nothing was written.")
		return m.finish(tui.ExitOK)
	case !p.NeedsConfirm():
		// As the inbox's Enter on a recommendation: no question.
		m.say(fmt.Sprintf("Writing, in this order, as @%s:", clean(p.Viewer)))
		m.say(numbered(p.Writes())...)
		return m.write()
	}
	m.phase = asking
	m.say(ConfirmLines(p)...)
	if m.c.Plain {
		m.say("Type y and Enter to accept; any other answer, or the end of input, writes nothing.")
	}
	if m.early != nil {
		return m.answer(*m.early)
	}
	return m, nil
}

func (m *Model) answer(yes bool) (tea.Model, tea.Cmd) {
	if !yes {
		m.say("answer: no; nothing was written.")
		return m.finish(tui.ExitRefused)
	}
	m.say("answer: yes")
	return m.write()
}

func (m *Model) write() (tea.Model, tea.Cmd) {
	m.phase = writing
	ctx, apply, p := m.ctx, m.deps.Apply, m.plan
	return m, func() tea.Msg { return appliedMsg(apply(ctx, p)) }
}

// applied says what became of each pick: done with what landed, not done
// in the inbox's three plain lines, or not tried.
func (m *Model) applied(res appliedMsg) (tea.Model, tea.Cmd) {
	code := tui.ExitOK
	for _, r := range res {
		n := r.Item.Pick.Decision
		o := r.Outcome
		switch {
		case !r.Tried:
			m.say(fmt.Sprintf("not tried: Decision #%d — an earlier pick was not done, so nothing was written for it.", n))
		case o.Done:
			m.say(fmt.Sprintf("done: Decision #%d, option %d accepted.", n, r.Item.Pick.Option))
			for _, w := range o.Wrote {
				m.say("  " + tui.Sentence(clean(w)))
			}
		case o.Changed:
			what := "it changed on GitHub since it was read"
			if o.ChangedWhat != "" {
				what = o.ChangedWhat
			}
			m.say(fmt.Sprintf("not done: Decision #%d — %s.", n, strings.TrimSuffix(clean(what), ".")))
			if code == tui.ExitOK {
				code = tui.ExitRefused
			}
		case o.Failure != nil:
			m.say(fmt.Sprintf("not done: Decision #%d", n))
			for _, l := range o.Failure.Lines() {
				m.say("  " + clean(l))
			}
			for _, w := range o.Wrote {
				m.say("  landed: " + tui.Sentence(clean(w)))
			}
			code = tui.ExitFailed
		}
		if o.LogError != "" {
			m.say("  " + clean(o.LogError))
		}
	}
	if code != tui.ExitOK {
		m.say(fmt.Sprintf("Next: run %s again; what landed is checked on GitHub first and never written twice.", m.deps.Command))
	}
	return m.finish(code)
}

// DecisionLines are the picks as read, in both renderers: each Decision,
// its door, every option with the recommendation marked, and the one
// accepted.
func DecisionLines(p core.Plan) []string {
	var out []string
	for _, it := range p.Items {
		st := it.Step
		out = append(out, fmt.Sprintf("Decision #%d %s (%s door)", st.Item.Number, st.Item.Title, st.Door))
		if st.HalfDone != "" {
			out = append(out, "  "+clean(st.HalfDone))
		}
		for _, c := range st.Choices {
			if c.Key == model.SkipKey {
				continue
			}
			line := "  " + clean(c.Label)
			if c.Recommended {
				line += " (recommended)"
			}
			if c.Key == it.Choice.Key {
				line = "▸" + line[1:] + "  ← accept"
			}
			out = append(out, line)
		}
	}
	return out
}

// ConfirmLines are the question in words, shared by both renderers: the
// inbox's own line for each pick that asks, then every write as whom.
func ConfirmLines(p core.Plan) []string {
	var out []string
	for _, it := range p.Items {
		if c := it.Confirm(); c != "" {
			out = append(out, tui.Sentence(clean(c)))
		}
	}
	out = append(out, fmt.Sprintf("Answering yes writes, in this order, as @%s:", clean(p.Viewer)))
	out = append(out, numbered(p.Writes())...)
	if p.Note != "" {
		out = append(out, "Your note, kept in the actions log beside each acceptance: "+clean(p.Note))
	}
	return out
}

func numbered(ws []string) []string {
	var out []string
	for i, w := range ws {
		out = append(out, fmt.Sprintf("  %d. %s", i+1, clean(w)))
	}
	return out
}

// View draws the same lines in the full screen, wrapped to its width.
func (m *Model) View() tea.View {
	return m.scroll.View(m.c, m.deps.Command, m.body(), m.Keys())
}

// body is what the full screen shows under its title.
func (m *Model) body() []string {
	body := m.lines[1:]
	if m.phase == asking && !m.c.Plain {
		body = append(append([]string(nil), body...), "", "y/enter  yes: accept, writing all of these", "n/esc    no: write nothing")
	}
	return body
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.phase == finished && m.closed, m.code }

// Epilogue leaves the picks and what became of them on the person's shell
// once the full screen closes.
func (m *Model) Epilogue() []string { return m.lines[1:] }

// Keys lists the bindings that work now.
func (m *Model) Keys() []key.Binding {
	if m.phase == asking {
		return []key.Binding{m.yes, m.no}
	}
	return []key.Binding{m.keys.Quit}
}

func clean(s string) string { return tui.SanitizeLine(s) }
