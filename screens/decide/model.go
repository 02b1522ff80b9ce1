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

// Model is the decide screen: the read → ask → write flow, described by
// its read (each Decision as the inbox reads it), its question (asked only
// for a pick the inbox would ask about) and its writes (the acceptances).
type Model = tui.Flow[core.Plan, []core.Result]

// New returns the decide screen; Init starts reading.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	f := tui.NewConfirmFlow(c, deps.Command,
		deps.Command+": reads each Decision as the inbox does and accepts the option named, with the inbox's writes; a pick that is not the recommendation, or a one-way door, asks first and only y writes.")
	f.Yes = tui.YesKey("yes, accept these")
	f.Prompt = []string{"", "y            yes: accept, writing all of these", "n/esc/enter  no: write nothing"}
	f.StopWhileWriting = ": decide stops once the writes under way land, and says what landed; nothing is cut in the middle."
	s := screen{deps}
	apply := deps.Apply
	return tui.NewFlow(ctx, f, tui.ReadAskWrite[core.Plan, []core.Result]{
		// The command as typed, which names every Decision and option
		// ("decide 1,2 --accept 1,2").
		Name: strings.TrimPrefix(deps.Command, "aayu "),
		Read: deps.Read, Ask: s.planned,
		// Each pick's failure is in its Result: the writes as a whole do
		// not fail.
		Write: func(ctx context.Context, p core.Plan) ([]core.Result, error) { return apply(ctx, p), nil },
		Wrote: s.applied,
	})
}

// screen is what the decide screen's reads and writes say.
type screen struct{ deps Deps }

// planned says the picks as read; a pick the inbox would ask about is
// asked, any other is written at once.
func (s screen) planned(f *tui.ConfirmFlow, p core.Plan, err error) tea.Cmd {
	if err != nil {
		return f.Stopped(err, "Nothing was written.", "Nothing was written. Next: check --repo and your token (aayu auth), then run "+s.deps.Command+" again.")
	}
	f.Say(DecisionLines(p)...)
	switch {
	case s.deps.DryRun:
		f.Say("--dry-run: accepting would write, in this order:")
		f.Say(numbered(p.Writes())...)
		f.Say("--dry-run: nothing was written.")
		return f.Finish(tui.ExitOK)
	case !p.NeedsConfirm():
		// As the inbox's Enter on a recommendation: no question.
		f.Say(fmt.Sprintf("Writing, in this order, as @%s:", p.Viewer))
		f.Say(numbered(p.Writes())...)
		return f.StartWrite()
	}
	return f.Ask(ConfirmLines(p), "Type y and Enter to accept; any other answer, or the end of input, writes nothing.")
}

// applied says what became of each pick: done with what landed, not done
// in the inbox's three plain lines, or not tried.
func (s screen) applied(f *tui.ConfirmFlow, _ core.Plan, res []core.Result, _ error) tea.Cmd {
	code := tui.ExitOK
	for _, r := range res {
		n := r.Item.Pick.Decision
		o := r.Outcome
		switch {
		case !r.Tried:
			f.Say(fmt.Sprintf("not tried: Decision #%d — an earlier pick was not done, so nothing was written for it.", n))
		case o.Done:
			f.Say(fmt.Sprintf("done: Decision #%d, option %d accepted.", n, r.Item.Pick.Option))
			for _, w := range o.Wrote {
				f.Say("  " + tui.Sentence(tui.SanitizeLine(w)))
			}
			sayLink(f, n, o.CommentURL)
		case o.Changed:
			what := "it changed on GitHub since it was read"
			if o.ChangedWhat != "" {
				what = o.ChangedWhat
			}
			f.Say(fmt.Sprintf("not done: Decision #%d — %s.", n, strings.TrimSuffix(tui.SanitizeLine(what), ".")))
			if code == tui.ExitOK {
				code = tui.ExitRefused
			}
		case o.Failure != nil:
			f.Say(fmt.Sprintf("not done: Decision #%d", n))
			for _, l := range o.Failure.Lines() {
				f.Say("  " + tui.SanitizeLine(l))
			}
			for _, w := range o.Wrote {
				f.Say("  landed: " + tui.Sentence(tui.SanitizeLine(w)))
			}
			code = tui.ExitFailed
		}
		if o.LogError != "" {
			f.Say("  " + tui.SanitizeLine(o.LogError))
		}
	}
	if code != tui.ExitOK {
		f.Say(fmt.Sprintf("Next: run %s again; what landed is checked on GitHub first and never written twice.", s.deps.Command))
	}
	return f.Finish(code)
}

// sayLink shows the link to the acceptance comment on Decision n on a
// line of its own, in both renderers: plain mode has no clipboard (its
// output may be a pipe or a log) and the person copies the line; the full
// screen's c copies it (the last Decision's, when several were accepted).
// A link that is not plain http(s) is neither shown nor offered.
func sayLink(f *tui.ConfirmFlow, n int, u string) {
	if !tui.Linkable(u) {
		return
	}
	what := fmt.Sprintf("the link to the comment on #%d", n)
	f.Say(fmt.Sprintf("  The link to the comment on #%d:", n), u)
	f.Link = tui.ResultLink{URL: u, What: what}
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
