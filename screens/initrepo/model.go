package initrepo

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires them to GitHub (or the sandbox).
type Deps struct {
	Read  func(ctx context.Context) (core.Plan, error)
	Apply func(ctx context.Context, p core.Plan) (core.Result, error)
	// Yes takes every default without asking (--yes); DryRun shows the
	// proposal and writes nothing (--dry-run).
	Yes, DryRun bool
	// Identity: the person asked for the presence check's App (init with no
	// seed flag, or --identity); Guide is how to create it.
	Identity bool
	Guide    []string
}

type planMsg struct {
	plan core.Plan
	err  error
}

type appliedMsg struct {
	res core.Result
	err error
}

type phase int

const (
	reading phase = iota
	asking
	writing
	finished
)

// Model is the init screen.
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
	scroll tui.Scrollback // the full screen scrolled back from its newest line
	code   int
	// closed: the person left the full screen after reading the outcome.
	closed bool
	// early is a plain line (or the end of input) that came before the
	// question: the plain shell reads ahead while the repository is read.
	early *bool
	// form asks the question in the full screen (ask.go); chosen is its
	// answer so far.
	form   *huh.Form
	chosen *bool
}

// New returns the init screen; Init starts reading the repository.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	return &Model{c: c, ctx: ctx, deps: deps, keys: tui.DefaultKeys(),
		yes:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "write them")),
		no:    key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "write nothing")),
		lines: []string{"aayu init: reads the repository, says what it will write, and proposes it as one pull request."},
	}
}

// Init reads the repository in the background.
func (m *Model) Init() tea.Cmd {
	ctx, read := m.ctx, m.deps.Read
	return func() tea.Msg {
		p, err := read(ctx)
		return planMsg{p, err}
	}
}

// Update reacts to what was read and written and to the person's answer:
// the read, the write, a typed line or the end of input, a key, and the
// form's own messages each go to their handler.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		if m.form != nil {
			m.form.WithWidth(min(max(m.c.Width, 20), askWidth))
		}
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case planMsg:
		return m.planned(msg)
	case appliedMsg:
		return m.applied(msg)
	case tui.LineMsg:
		return m.onAnswer(plainAnswer(msg.Line))
	case tui.InputClosedMsg:
		return m.onAnswer(false)
	case tea.KeyPressMsg:
		return m.onKey(msg)
	default:
		if m.phase == asking && m.form != nil {
			return m.toForm(msg) // the form's own messages, from its commands
		}
	}
	return m, nil
}

// onAnswer takes a typed line's answer (the end of input is a no): it
// answers the question once asked, and one typed ahead while reading
// waits for it.
func (m *Model) onAnswer(yes bool) (tea.Model, tea.Cmd) {
	if m.phase == asking {
		return m.answer(yes)
	}
	if m.phase == reading && m.early == nil {
		m.early = &yes
	}
	return m, nil
}

// onKey takes a key: the scroll keys scroll, the question's go to it or
// its form, and q ends a finished screen or stops the read.
func (m *Model) onKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.scroll.Key(msg, m.keys.Up, m.keys.Down, m.c, m.body(), m.Keys()) {
		return m, nil
	}
	switch {
	case m.phase == asking && (key.Matches(msg, m.keys.Quit) || msg.String() == "esc"):
		return m.answer(false)
	case m.phase == asking && m.form != nil:
		return m.toForm(msg) // y, n, ←/→ and enter are the form's
	case m.phase == finished && key.Matches(msg, m.keys.Quit, m.keys.Enter):
		m.closed = true
		return m, tea.Quit
	case m.phase == reading && key.Matches(msg, m.keys.Quit):
		m.say("Stopped before anything was written.")
		return m.finish(tui.ExitRefused)
	}
	return m, nil
}

func (m *Model) say(lines ...string) { m.lines = append(m.lines, lines...) }

func (m *Model) finish(code int) (tea.Model, tea.Cmd) {
	m.phase, m.code = finished, code
	m.say(fmt.Sprintf("result: exit %d", code))
	// init does one thing: once it is done, nothing is left to ask, and
	// the screen ends with every line left on the normal screen
	// (Epilogue), as gh's commands do; --yes never waits for a key.
	m.closed = true
	return m, tea.Quit
}

func (m *Model) planned(msg planMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.say("failed: "+tui.SanitizeLine(msg.err.Error()), "Nothing was written. Next: check --repo and your token (aayu auth), then run aayu init again.")
		return m.finish(tui.ExitFailed)
	}
	p := msg.plan
	m.plan = p
	m.say(Proposal(p, m.deps.Identity, m.deps.Guide)...)
	if p.SetsVariable() && !p.Admin {
		m.say("refused: setting a repository variable needs admin rights on "+p.Owner+"/"+p.Repo+", and your token has none.",
			"Nothing was written. Next: ask an admin to run aayu init --identity --client-id "+tui.SanitizeLine(p.ClientID)+".")
		return m.finish(tui.ExitRefused)
	}
	switch {
	case !p.Writes() && len(p.Rulesets) > 0:
		m.say("Nothing else to write, and the rulesets need an admin's token.", "Next: an admin runs aayu init (or adds the rulesets above by hand), then aayu doctor.")
		return m.finish(tui.ExitOK)
	case !p.Writes():
		m.say("Nothing to write: the repository already has everything init proposes.", "Next: aayu doctor checks the rest of the set-up.")
		return m.finish(tui.ExitOK)
	case m.deps.DryRun:
		m.say("--dry-run: nothing was written.")
		return m.finish(tui.ExitOK)
	case m.deps.Yes:
		m.say("--yes: writing without asking.")
		return m.write()
	}
	m.phase = asking
	if m.c.Plain {
		m.say(askTitle + " Type y (or yes) to write them; anything else writes nothing.")
	}
	if m.early != nil {
		return m.answer(*m.early)
	}
	if m.c.Plain {
		return m, nil
	}
	m.form, m.chosen = newAsk(max(m.c.Width, 20))
	return m, m.form.Init()
}

func (m *Model) answer(yes bool) (tea.Model, tea.Cmd) {
	if !yes {
		m.say("Nothing was written.")
		return m.finish(tui.ExitRefused)
	}
	return m.write()
}

func (m *Model) write() (tea.Model, tea.Cmd) {
	m.phase = writing
	m.say("writing…")
	ctx, apply, p := m.ctx, m.deps.Apply, m.plan
	return m, func() tea.Msg {
		res, err := apply(ctx, p)
		return appliedMsg{res, err}
	}
}

func (m *Model) applied(msg appliedMsg) (tea.Model, tea.Cmd) {
	r, p := msg.res, m.plan
	if r.PR != 0 {
		m.say(fmt.Sprintf("opened pull request #%d from %s into %s: %s", r.PR, tui.SanitizeLine(r.Branch), tui.SanitizeLine(p.DefaultBranch), tui.SanitizeLine(r.PRURL)),
			fmt.Sprintf("%s was not written; it is still at %s.", tui.SanitizeLine(p.DefaultBranch), gitsha.Short(p.BaseSHA)))
	}
	for _, name := range r.Rulesets {
		m.say("created the ruleset " + tui.SanitizeLine(name) + ".")
	}
	if r.VariableSet {
		m.say("set the repository variable " + ghx.DeviceClientVariable + " to " + tui.SanitizeLine(p.ClientID) + ": the presence check now asks that App for its device codes.")
	}
	if msg.err != nil {
		m.say("failed: "+tui.SanitizeLine(msg.err.Error()), failedWhat(r)+" Next: fix the cause above and run aayu init again; what was written stays and is not written twice.")
		return m.finish(tui.ExitFailed)
	}
	next := "Next: "
	if r.PR != 0 {
		next += "review and merge the pull request, then "
	}
	if len(p.Rulesets) > 0 && !p.CreatesRulesets() {
		next += "an admin adds the rulesets above (or runs aayu init), then "
	}
	m.say(next + "run aayu doctor.")
	return m.finish(tui.ExitOK)
}

func failedWhat(r core.Result) string {
	if r.Failed != "" {
		return "Not written: " + r.Failed + "."
	}
	return "Nothing was written."
}

// Proposal is the plan in words, the same in both renderers: what init
// read, then every file it will write and why, before anything is written.
func Proposal(p core.Plan, identity bool, guide []string) []string {
	s := tui.SanitizeLine
	out := []string{fmt.Sprintf("%s/%s: default branch %s, integration branch %s.", s(p.Owner), s(p.Repo), s(p.DefaultBranch), s(p.Integration))}
	switch {
	case p.OpenPR != 0:
		out = append(out, fmt.Sprintf("The set-up is already proposed in pull request #%d; no second one is opened.", p.OpenPR))
	case len(p.Changes) > 0 && p.PRWrites():
		out = append(out, fmt.Sprintf("It will open one pull request from the new branch %s into %s (%s itself is not written):", s(p.Branch), s(p.DefaultBranch), s(p.DefaultBranch)))
		for _, c := range p.Changes {
			out = append(out, fmt.Sprintf("  %s %s: %s", c.Action, s(c.Path), s(c.Why)))
		}
	case len(p.Changes) > 0:
		out = append(out, "Every file init proposes is already there and current.")
	}
	out = append(out, rulesetLines(p)...)
	if !identity {
		return out
	}
	switch {
	case p.SetsVariable() && p.CurrentClientID != "":
		out = append(out, fmt.Sprintf("It will change the repository variable %s from %s to %s.", ghx.DeviceClientVariable, s(p.CurrentClientID), s(p.ClientID)))
	case p.SetsVariable():
		out = append(out, fmt.Sprintf("It will set the repository variable %s to %s, the App the presence check asks for device codes.", ghx.DeviceClientVariable, s(p.ClientID)))
	case p.CurrentClientID != "":
		out = append(out, fmt.Sprintf("The presence check's App is set: %s is %s.", ghx.DeviceClientVariable, s(p.CurrentClientID)))
	case !p.VariableReadable:
		out = append(out, "Your token may not read the repository's variables, so init cannot tell whether "+ghx.DeviceClientVariable+" is set.")
		out = append(out, guide...)
	default:
		out = append(out, guide...)
	}
	return out
}

// rulesetLines are the rulesets in words: each one init creates (or an
// admin must), the missing rules it sets and its exact body, which is
// what is sent.
func rulesetLines(p core.Plan) []string {
	s := tui.SanitizeLine
	var out []string
	for _, w := range p.Rulesets {
		where := s(strings.Join(w.Branches, " and "))
		if p.CreatesRulesets() {
			out = append(out, fmt.Sprintf("It will create the ruleset %q on %s (POST repos/%s/%s/rulesets), which sets what is missing:", w.Name, where, s(p.Owner), s(p.Repo)))
		} else {
			out = append(out, fmt.Sprintf("Missing on %s, and creating a ruleset needs an admin's token: an admin runs aayu init, or adds the ruleset %q (Settings, Rules, Rulesets; or save the body as ruleset.json and run %s). It sets:", where, w.Name, s(w.Command(p.Owner, p.Repo))))
		}
		for _, c := range w.Fixes {
			out = append(out, fmt.Sprintf("  %s: %s", s(c.Name()), s(c.Detail)))
		}
		out = append(out, "  body: "+s(w.Body))
	}
	for _, c := range p.Rules {
		if c.Verdict == core.Unread {
			out = append(out, fmt.Sprintf("Could not judge %s: %s. aayu doctor checks it again.", s(c.Name()), s(c.Detail)))
		}
	}
	return out
}

// View draws the same lines in the full screen, wrapped to its width.
func (m *Model) View() tea.View {
	return m.scroll.View(m.c, "aayu init", m.body(), m.Keys())
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) {
	return m.phase == finished && (m.closed || m.c.Plain || m.c.CI), m.code
}

// Epilogue leaves every line behind on the person's shell once the full
// screen closes: the pull request's link and the next step must outlive it.
func (m *Model) Epilogue() []string { return m.lines[1:] }

// Keys lists the bindings that work now.
func (m *Model) Keys() []key.Binding {
	if m.phase == asking {
		return m.askKeys()
	}
	return []key.Binding{m.keys.Quit}
}

// body is what the full screen shows under its title.
func (m *Model) body() []string {
	body := m.lines[1:]
	if m.phase == asking {
		body = append(append([]string(nil), body...), m.askLines()...)
	}
	return body
}
