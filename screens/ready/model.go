package ready

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires them to GitHub (or the sandbox).
type Deps struct {
	Story int
	Again bool
	// DryRun shows the goal and what would be written, and writes nothing.
	DryRun bool
	Read   func(ctx context.Context) (core.Plan, error)
	Apply  func(ctx context.Context, p core.Plan) (core.Result, error)
}

type planMsg struct {
	plan core.Plan
	err  error
}

type appliedMsg struct {
	res core.Result
	err error
}

// Model is the ready screen: the read → ask → write flow with the Story's
// goal as its question.
type Model struct {
	tui.ConfirmFlow
	ctx  context.Context
	deps Deps
	plan core.Plan
}

// New returns the ready screen; Init starts reading the Story.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	m := &Model{ctx: ctx, deps: deps,
		ConfirmFlow: tui.NewConfirmFlow(c, fmt.Sprintf("aayu ready #%d", deps.Story),
			fmt.Sprintf("aayu ready #%d: reads the Story's Completion Goal and shows it with its hash; nothing is written until you answer y to the writes it lists. Any other answer writes nothing.", deps.Story)),
	}
	m.StopWhileWriting = ": ready stops once the write under way lands, and says what landed; nothing is cut in the middle."
	m.Write = m.write
	return m
}

// Init reads the Story and the ledger in the background.
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
		return m.Stopped(msg.err, "Nothing was written.", "Nothing was written. Next: check --repo and your token (aayu auth), then run aayu ready again.")
	}
	p := msg.plan
	m.plan = p
	m.Say(GoalLines(p)...)
	switch {
	case p.Same:
		m.Say(fmt.Sprintf("Already frozen: %s on the ledger has this hash, so nothing was written.", core.Path(p.Story)),
			fmt.Sprintf("Next: an agent builds against this goal; aayu verify %d builds its pack.", p.Story))
		return m.Finish(tui.ExitOK)
	case m.deps.DryRun:
		m.Say("--dry-run: answering yes would write, in this order:")
		m.Say(numbered(p.Writes())...)
		m.Say("--dry-run: nothing was written.")
		return m.Finish(tui.ExitOK)
	}
	return m.Ask(ConfirmLines(p), "Type y and Enter to write all of these; any other answer, or the end of input, writes nothing.")
}

// write applies the plan once the person has said yes.
func (m *Model) write() tea.Cmd {
	ctx, apply, p := m.ctx, m.deps.Apply, m.plan
	return func() tea.Msg {
		res, err := apply(ctx, p)
		return appliedMsg{res, err}
	}
}

func (m *Model) applied(msg appliedMsg) tea.Cmd {
	r, p := msg.res, m.plan
	if r.Commit != "" {
		m.Say(fmt.Sprintf("wrote %s on the %s branch (commit %s).", core.Path(p.Story), core.LedgerBranch, gitsha.Short(r.Commit)))
	}
	if r.CommentURL != "" {
		m.Say("commented on #" + fmt.Sprint(p.Story) + " that its goal changed: " + tui.SanitizeLine(r.CommentURL))
		m.Link = tui.ResultLink{URL: r.CommentURL, What: "the link to the comment"}
	}
	if msg.err != nil {
		m.Say("failed: "+tui.Sentence(tui.SanitizeLine(msg.err.Error())), "Next: fix the cause above and run aayu ready again; what landed is not written twice.")
		return m.Finish(tui.ExitFailed)
	}
	m.Say(fmt.Sprintf("frozen: #%d is %s with completion_goal_hash %s.", p.Story, core.StatusReady, p.Hash),
		fmt.Sprintf("Next: an agent builds against this goal; aayu verify %d builds its pack, and the merge gate finds the snapshot.", p.Story))
	return m.Finish(tui.ExitOK)
}

// GoalLines are the goal as read, in both renderers: the Story, the hash,
// each criterion.
func GoalLines(p core.Plan) []string {
	out := []string{fmt.Sprintf("%s #%d %s", p.Kind, p.Story, tui.SanitizeLine(p.Title)),
		fmt.Sprintf("Completion Goal, %d %s, completion_goal_hash %s:", len(p.Criteria), tui.Plural(len(p.Criteria), "criterion", "criteria"), p.Hash)}
	for i, c := range p.Criteria {
		for j, l := range strings.Split(c, "\n") {
			if j == 0 {
				out = append(out, fmt.Sprintf("  %d. %s", i+1, tui.SanitizeLine(l)))
			} else {
				out = append(out, "     "+tui.SanitizeLine(l))
			}
		}
	}
	if p.Changed() {
		out = append(out, fmt.Sprintf("It is frozen now with hash %s: the goal changed, and --again freezes it anew.", tui.SanitizeLine(p.Previous)))
	}
	return out
}

// ConfirmLines are the question in words, shared by both renderers.
func ConfirmLines(p core.Plan) []string {
	return append([]string{"Answering yes writes, in this order, as you:"}, numbered(p.Writes())...)
}

func numbered(ws []string) []string {
	var out []string
	for i, w := range ws {
		out = append(out, fmt.Sprintf("  %d. %s", i+1, tui.SanitizeLine(w)))
	}
	return out
}
