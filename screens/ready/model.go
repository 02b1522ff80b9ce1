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

// Model is the ready screen: the read → ask → write flow, described by
// its read (the Story's Completion Goal), its question (the goal with its
// hash) and its write (the snapshot on the ledger).
type Model = tui.Flow[core.Plan, core.Result]

// New returns the ready screen; Init starts reading the Story.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	f := tui.NewConfirmFlow(c, fmt.Sprintf("aayu ready #%d", deps.Story),
		fmt.Sprintf("aayu ready #%d: reads the Story's Completion Goal and shows it with its hash; nothing is written until you answer y to the writes it lists. Any other answer writes nothing.", deps.Story))
	f.StopWhileWriting = ": ready stops once the write under way lands, and says what landed; nothing is cut in the middle."
	s := screen{deps}
	return tui.NewFlow(ctx, f, tui.ReadAskWrite[core.Plan, core.Result]{
		Name: fmt.Sprintf("ready, Story #%d", deps.Story),
		Read: deps.Read, Ask: s.planned, Write: deps.Apply, Wrote: s.applied,
	})
}

// screen is what the ready screen's reads and writes say.
type screen struct{ deps Deps }

// planned says the goal as read and asks for the writes, unless the
// ledger holds it already or this is a dry run.
func (s screen) planned(f *tui.ConfirmFlow, p core.Plan, err error) tea.Cmd {
	if err != nil {
		return f.Stopped(err, "Nothing was written.", "Nothing was written. Next: check --repo and your token (aayu auth), then run aayu ready again.")
	}
	f.Say(GoalLines(p)...)
	switch {
	case p.Same:
		f.Say(fmt.Sprintf("Already frozen: %s on the ledger has this hash, so nothing was written.", core.Path(p.Story)),
			fmt.Sprintf("Next: an agent builds against this goal; aayu verify %d builds its pack.", p.Story))
		return f.Finish(tui.ExitOK)
	case s.deps.DryRun:
		f.Say("--dry-run: answering yes would write, in this order:")
		f.Say(numbered(p.Writes())...)
		f.Say("--dry-run: nothing was written.")
		return f.Finish(tui.ExitOK)
	}
	return f.Ask(ConfirmLines(p), "Type y and Enter to write all of these; any other answer, or the end of input, writes nothing.")
}

// applied says what the writes did and ends the flow.
func (s screen) applied(f *tui.ConfirmFlow, p core.Plan, r core.Result, err error) tea.Cmd {
	if r.Commit != "" {
		f.Say(fmt.Sprintf("wrote %s on the %s branch (commit %s).", core.Path(p.Story), core.LedgerBranch, gitsha.Short(r.Commit)))
	}
	if r.CommentURL != "" {
		f.Say("commented on #" + fmt.Sprint(p.Story) + " that its goal changed: " + tui.SanitizeLine(r.CommentURL))
		f.Link = tui.ResultLink{URL: r.CommentURL, What: "the link to the comment"}
	}
	if err != nil {
		f.Say("failed: "+tui.Sentence(tui.SanitizeLine(err.Error())), "Next: fix the cause above and run aayu ready again; what landed is not written twice.")
		return f.Finish(tui.ExitFailed)
	}
	f.Say(fmt.Sprintf("frozen: #%d is %s with completion_goal_hash %s.", p.Story, core.StatusReady, p.Hash),
		fmt.Sprintf("Next: an agent builds against this goal; aayu verify %d builds its pack, and the merge gate finds the snapshot.", p.Story))
	return f.Finish(tui.ExitOK)
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
