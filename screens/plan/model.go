package plan

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires them to GitHub (or the sandbox).
type Deps struct {
	Story      int
	SoloBypass bool
	// DryRun shows the plan and what would be written, and writes nothing.
	DryRun bool
	Read   func(ctx context.Context) (core.Review, error)
	Apply  func(ctx context.Context, r core.Review) (core.Result, error)
}

type planMsg struct {
	plan core.Review
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

// Model is the plan screen.
type Model struct {
	c      tui.Common
	ctx    context.Context
	deps   Deps
	keys   tui.KeyMap
	yes    key.Binding
	no     key.Binding
	phase  phase
	plan   core.Review
	lines  []string
	scroll tui.Scrollback
	code   int
	closed bool
	// early is a plain line, or the end of input, that came while the
	// Story was still being read; it answers the question once asked, and
	// only a y is a yes.
	early *bool
	// stopWhy is a quit request that came while writing: the write under
	// way finishes, then the screen ends.
	stopWhy string
	// link is the comment the result posted or reused, for the copy key (c).
	link tui.ResultLink
}

// New returns the plan screen; Init starts reading the Story.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	return &Model{c: c, ctx: ctx, deps: deps, keys: tui.DefaultKeys(),
		yes:   key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "yes, write these")),
		no:    key.NewBinding(key.WithKeys("n", "esc", "q"), key.WithHelp("n/esc/q", "no, write nothing")),
		lines: []string{fmt.Sprintf("%s: reads the Story's Plan and the never layers it touches; nothing is written until you answer y to the writes it lists. Any other answer writes nothing.", core.Command(deps.Story, deps.SoloBypass))},
	}
}

// Init reads the Story and the ledger in the background.
func (m *Model) Init() tea.Cmd {
	ctx, read := m.ctx, m.deps.Read
	return func() tea.Msg {
		p, err := read(ctx)
		return planMsg{p, err}
	}
}

// QuitsSafely marks plan as a screen that never quits in the middle of a
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
	case tui.CopiedMsg:
		m.link.Copied(msg, m.c.Clipboard)
	case tea.KeyPressMsg:
		if cmd, ok := m.link.Key(msg, m.c.Clipboard); ok {
			return m, cmd
		}
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
// nothing (at the question it is a no); after it, the write under way
// lands first and the screen says what landed.
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
			m.say(q.Why + ": plan stops once the write under way lands, and says what landed; nothing is cut in the middle.")
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
	again := core.Command(m.deps.Story, m.deps.SoloBypass)
	switch {
	case errors.As(msg.err, &refusal):
		m.say("refused: "+tui.Sentence(clean(refusal.Reason)), "Nothing was written.")
		return m.finish(tui.ExitRefused)
	case msg.err != nil:
		m.say("failed: "+tui.Sentence(clean(msg.err.Error())), "Nothing was written. Next: check --repo and your token (aayu auth), then run "+again+" again.")
		return m.finish(tui.ExitFailed)
	}
	r := msg.plan
	m.plan = r
	m.say(PlanLines(r)...)
	switch {
	case r.NotNeeded != "":
		m.say("No plan review needed: "+tui.Sentence(clean(r.NotNeeded)), "Nothing was written.")
		return m.finish(tui.ExitOK)
	case r.Same:
		m.say(fmt.Sprintf("Already recorded: %s on the ledger holds a %s (reviewer %s) for %s, so nothing was written.",
			pass.PlanRecordPath(r.Story), r.Record.Kind, clean(r.Record.Reviewer), strings.Join(r.Record.Layers, ", ")), next(r))
		return m.finish(tui.ExitOK)
	case m.deps.DryRun:
		m.say("--dry-run: answering yes would write, in this order:")
		m.say(numbered(r.Writes())...)
		m.say("--dry-run: nothing was written.")
		return m.finish(tui.ExitOK)
	}
	m.phase = asking
	m.say(ConfirmLines(r)...)
	if m.c.Plain {
		m.say("Type y and Enter to write all of these; any other answer, or the end of input, writes nothing.")
	}
	if m.early != nil {
		return m.answer(*m.early)
	}
	return m, nil
}

// next is the step after the record: ship finds it.
func next(r core.Review) string {
	if r.PR != 0 {
		return fmt.Sprintf("Next: aayu ship %d finds this record and copies it into its ship record.", r.PR)
	}
	return "Next: an agent builds the plan; aayu ship finds this record and copies it into its ship record."
}

func (m *Model) answer(yes bool) (tea.Model, tea.Cmd) {
	if !yes {
		m.say("answer: no; nothing was written.")
		return m.finish(tui.ExitRefused)
	}
	m.say("answer: yes")
	m.phase = writing
	ctx, apply, p := m.ctx, m.deps.Apply, m.plan
	return m, func() tea.Msg {
		res, err := apply(ctx, p)
		return appliedMsg{res, err}
	}
}

func (m *Model) applied(msg appliedMsg) (tea.Model, tea.Cmd) {
	res, r := msg.res, m.plan
	if res.CommentURL != "" {
		verb := "posted"
		if !res.Posted {
			verb = "reused"
		}
		m.say(fmt.Sprintf("%s your comment on #%d: %s", verb, r.Story, clean(res.CommentURL)))
		m.link = tui.ResultLink{URL: res.CommentURL, What: "the link to your comment"}
	}
	if res.Commit != "" {
		m.say(fmt.Sprintf("wrote %s on the %s branch (commit %s).", pass.PlanRecordPath(r.Story), core.LedgerBranch, short(res.Commit)))
	}
	if msg.err != nil {
		var refusal *core.Refusal
		if errors.As(msg.err, &refusal) {
			m.say("refused: "+tui.Sentence(clean(refusal.Reason)), "Nothing was written to the ledger.")
			return m.finish(tui.ExitRefused)
		}
		m.say("failed: "+tui.Sentence(clean(msg.err.Error())), "Next: fix the cause above and run "+core.Command(r.Story, m.deps.SoloBypass)+" again; what landed is not written twice.")
		return m.finish(tui.ExitFailed)
	}
	what := fmt.Sprintf("reviewed: the plan of #%d is reviewed by @%s for %s.", r.Story, clean(r.Record.Reviewer), strings.Join(r.LayerIDs(), ", "))
	if r.Bypass() {
		what = fmt.Sprintf("bypassed: the plan of #%d went through your solo-mode bypass for %s; no review happened, and the record says so.", r.Story, strings.Join(r.LayerIDs(), ", "))
	}
	m.say(what, next(r))
	return m.finish(tui.ExitOK)
}

// PlanLines are the plan as read, in both renderers: the Story, its Plan
// section, the pull request's files, and the never layers they touch.
func PlanLines(r core.Review) []string {
	out := []string{fmt.Sprintf("%s #%d %s", r.Kind, r.Story, clean(r.Title))}
	if len(r.Section) == 0 {
		out = append(out, "Plan: the Story has no \"## Plan\" section.")
	} else {
		out = append(out, "Plan:")
		for _, l := range r.Section {
			out = append(out, "  "+clean(l))
		}
	}
	if r.PR != 0 {
		out = append(out, fmt.Sprintf("Pull request #%d by @%s changes %d %s.", r.PR, clean(r.PRAuthor), len(r.Changed), tui.Plural(len(r.Changed), "file", "files")))
	}
	if r.NotNeeded != "" {
		return out
	}
	out = append(out, fmt.Sprintf("Never layers it touches (%s's LAYERS.md and autonomy.never):", clean(r.Base)))
	for _, h := range r.Hits {
		out = append(out, fmt.Sprintf("  %s %s:", h.ID, clean(h.Name)))
		for _, p := range h.Paths {
			out = append(out, "    "+clean(p))
		}
	}
	return out
}

// ConfirmLines are the question in words, shared by both renderers.
func ConfirmLines(r core.Review) []string {
	out := []string{"Answering yes writes, in this order, as you:"}
	out = append(out, numbered(r.Writes())...)
	if r.Bypass() {
		out = append(out, "This records that no review happened: ship's record and aayu audit say so.")
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
	return m.scroll.ViewNotice(m.c, core.Command(m.deps.Story, m.deps.SoloBypass), m.body(), m.Keys(), m.link.Notice())
}

// body is what the full screen shows under its title.
func (m *Model) body() []string {
	body := m.lines[1:]
	if m.phase == asking && !m.c.Plain {
		body = append(append([]string(nil), body...), "", "y/enter  yes: write all of these", "n/esc    no: write nothing")
	}
	return body
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.phase == finished && m.closed, m.code }

// Epilogue leaves the plan, its never layers and the outcome on the person's shell
// once the full screen closes.
func (m *Model) Epilogue() []string { return m.lines[1:] }

// Keys lists the bindings that work now.
func (m *Model) Keys() []key.Binding {
	if m.phase == asking {
		return []key.Binding{m.yes, m.no}
	}
	return append(m.link.Keys(m.c), m.keys.Quit)
}

func clean(s string) string { return tui.SanitizeLine(s) }

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
