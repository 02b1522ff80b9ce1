// Package decide is the screen of `aayu decide N[,M…] --accept K[,L…]`:
// each Decision with its options and the one accepted, the inbox's own
// confirmation for a pick that is not the recommendation or is a one-way
// door, then the writes and what became of each, in the full screen and
// its plain twin.
package decide

import (
	"context"
	"fmt"
	"strings"

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

// Model is the decide screen: the read → ask → write flow, whose
// question is asked only for a pick the inbox would ask about.
type Model struct {
	tui.ConfirmFlow
	ctx  context.Context
	deps Deps
	plan core.Plan
}

// New returns the decide screen; Init starts reading.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	m := &Model{ctx: ctx, deps: deps,
		ConfirmFlow: tui.NewConfirmFlow(c, deps.Command,
			deps.Command+": reads each Decision as the inbox does and accepts the option named, with the inbox's writes; a pick that is not the recommendation, or a one-way door, asks first and only y writes."),
	}
	m.Yes = tui.YesKey("yes, accept these")
	m.Prompt = []string{"", "y            yes: accept, writing all of these", "n/esc/enter  no: write nothing"}
	m.StopWhileWriting = ": decide stops once the writes under way land, and says what landed; nothing is cut in the middle."
	m.Write = m.write
	return m
}

// Init reads the inbox in the background.
func (m *Model) Init() tea.Cmd {
	ctx, read := m.ctx, m.deps.Read
	return func() tea.Msg {
		p, err := read(ctx)
		return planMsg{p, err}
	}
}

// Update reacts to what was read and written; the flow takes the person's
// answer. It does no I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case planMsg:
		return m, m.planned(msg)
	case appliedMsg:
		return m, m.applied(msg)
	}
	return m, m.ConfirmFlow.Update(msg)
}

func (m *Model) planned(msg planMsg) tea.Cmd {
	if msg.err != nil {
		return m.Stopped(msg.err, "Nothing was written.", "Nothing was written. Next: check --repo and your token (aayu auth), then run "+m.deps.Command+" again.")
	}
	p := msg.plan
	m.plan = p
	m.Say(DecisionLines(p)...)
	switch {
	case m.deps.DryRun:
		m.Say("--dry-run: accepting would write, in this order:")
		m.Say(numbered(p.Writes())...)
		m.Say("--dry-run: nothing was written.")
		return m.Finish(tui.ExitOK)
	case !p.NeedsConfirm():
		// As the inbox's Enter on a recommendation: no question.
		m.Say(fmt.Sprintf("Writing, in this order, as @%s:", p.Viewer))
		m.Say(numbered(p.Writes())...)
		return m.StartWrite()
	}
	return m.Ask(ConfirmLines(p), "Type y and Enter to accept; any other answer, or the end of input, writes nothing.")
}

// write accepts the picks, after the yes or without a question.
func (m *Model) write() tea.Cmd {
	ctx, apply, p := m.ctx, m.deps.Apply, m.plan
	return func() tea.Msg { return appliedMsg(apply(ctx, p)) }
}

// applied says what became of each pick: done with what landed, not done
// in the inbox's three plain lines, or not tried.
func (m *Model) applied(res appliedMsg) tea.Cmd {
	code := tui.ExitOK
	for _, r := range res {
		n := r.Item.Pick.Decision
		o := r.Outcome
		switch {
		case !r.Tried:
			m.Say(fmt.Sprintf("not tried: Decision #%d — an earlier pick was not done, so nothing was written for it.", n))
		case o.Done:
			m.Say(fmt.Sprintf("done: Decision #%d, option %d accepted.", n, r.Item.Pick.Option))
			for _, w := range o.Wrote {
				m.Say("  " + tui.Sentence(tui.SanitizeLine(w)))
			}
			m.sayLink(n, o.CommentURL)
		case o.Changed:
			what := "it changed on GitHub since it was read"
			if o.ChangedWhat != "" {
				what = o.ChangedWhat
			}
			m.Say(fmt.Sprintf("not done: Decision #%d — %s.", n, strings.TrimSuffix(tui.SanitizeLine(what), ".")))
			if code == tui.ExitOK {
				code = tui.ExitRefused
			}
		case o.Failure != nil:
			m.Say(fmt.Sprintf("not done: Decision #%d", n))
			for _, l := range o.Failure.Lines() {
				m.Say("  " + tui.SanitizeLine(l))
			}
			for _, w := range o.Wrote {
				m.Say("  landed: " + tui.Sentence(tui.SanitizeLine(w)))
			}
			code = tui.ExitFailed
		}
		if o.LogError != "" {
			m.Say("  " + tui.SanitizeLine(o.LogError))
		}
	}
	if code != tui.ExitOK {
		m.Say(fmt.Sprintf("Next: run %s again; what landed is checked on GitHub first and never written twice.", m.deps.Command))
	}
	return m.Finish(code)
}

// sayLink shows the link to the acceptance comment on Decision n on a
// line of its own, in both renderers: plain mode has no clipboard (its
// output may be a pipe or a log) and the person copies the line; the full
// screen's c copies it (the last Decision's, when several were accepted).
// A link that is not plain http(s) is neither shown nor offered.
func (m *Model) sayLink(n int, u string) {
	if !tui.Linkable(u) {
		return
	}
	what := fmt.Sprintf("the link to the comment on #%d", n)
	m.Say(fmt.Sprintf("  The link to the comment on #%d:", n), u)
	m.Link = tui.ResultLink{URL: u, What: what}
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
			out = append(out, "  "+tui.SanitizeLine(st.HalfDone))
		}
		for _, c := range st.Choices {
			if c.Key == model.SkipKey {
				continue
			}
			line := "  " + tui.SanitizeLine(c.Label)
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
			out = append(out, tui.Sentence(tui.SanitizeLine(c)))
		}
	}
	out = append(out, fmt.Sprintf("Answering yes writes, in this order, as @%s:", p.Viewer))
	out = append(out, numbered(p.Writes())...)
	if p.Note != "" {
		out = append(out, "Your note, kept in the actions log beside each acceptance: "+tui.SanitizeLine(p.Note))
	}
	return out
}

func numbered(ws []string) []string {
	var out []string
	for i, w := range ws {
		out = append(out, fmt.Sprintf("  %d. %s", i+1, tui.SanitizeLine(w)))
	}
	return out
}
