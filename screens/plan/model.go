package plan

import (
	"context"
	"fmt"
	"strings"

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

// Model is the plan screen: the read → ask → write flow, described by
// its read (the Story and the never layers), its question (the plan's
// never layers) and its write (the review's comment and record).
type Model = tui.Flow[core.Review, core.Result]

// New returns the plan screen; Init starts reading the Story.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	command := core.Command(deps.Story, deps.SoloBypass)
	f := tui.NewConfirmFlow(c, command,
		fmt.Sprintf("%s: reads the Story's Plan and the never layers it touches; nothing is written until you answer y to the writes it lists. Any other answer writes nothing.", command))
	f.StopWhileWriting = ": plan stops once the write under way lands, and says what landed; nothing is cut in the middle."
	s := screen{deps}
	return tui.NewFlow(ctx, f, tui.ReadAskWrite[core.Review, core.Result]{
		Name: fmt.Sprintf("plan, Story #%d", deps.Story),
		Read: deps.Read, Ask: s.planned, Write: deps.Apply, Wrote: s.applied,
	})
}

// screen is what the plan screen's reads and writes say.
type screen struct{ deps Deps }

// planned says the plan as read and asks for the writes, unless there is
// nothing to write.
func (s screen) planned(f *tui.ConfirmFlow, r core.Review, err error) tea.Cmd {
	again := core.Command(s.deps.Story, s.deps.SoloBypass)
	if err != nil {
		return f.Stopped(err, "Nothing was written.", "Nothing was written. Next: check --repo and your token (aayu auth), then run "+again+" again.")
	}
	f.Say(PlanLines(r)...)
	switch {
	case r.NotNeeded != "":
		f.Say("No plan review needed: "+tui.Sentence(tui.SanitizeLine(r.NotNeeded)), "Nothing was written.")
		return f.Finish(tui.ExitOK)
	case r.Same:
		f.Say(fmt.Sprintf("Already recorded: %s on the ledger holds a %s (reviewer %s) for %s, so nothing was written.",
			pass.PlanRecordPath(r.Story), r.Record.Kind, tui.SanitizeLine(r.Record.Reviewer), strings.Join(r.Record.Layers, ", ")), next(r))
		return f.Finish(tui.ExitOK)
	case s.deps.DryRun:
		f.Say("--dry-run: answering yes would write, in this order:")
		f.Say(numbered(r.Writes())...)
		f.Say("--dry-run: nothing was written.")
		return f.Finish(tui.ExitOK)
	}
	return f.Ask(ConfirmLines(r), "Type y and Enter to write all of these; any other answer, or the end of input, writes nothing.")
}

// next is the step after the record: ship finds it.
func next(r core.Review) string {
	if r.PR != 0 {
		return fmt.Sprintf("Next: aayu ship %d finds this record and copies it into its ship record.", r.PR)
	}
	return "Next: an agent builds the plan; aayu ship finds this record and copies it into its ship record."
}

// applied says what the writes did and ends the flow.
func (s screen) applied(f *tui.ConfirmFlow, r core.Review, res core.Result, err error) tea.Cmd {
	if res.CommentURL != "" {
		verb := "posted"
		if !res.Posted {
			verb = "reused"
		}
		f.Say(fmt.Sprintf("%s your comment on #%d: %s", verb, r.Story, tui.SanitizeLine(res.CommentURL)))
		f.Link = tui.ResultLink{URL: res.CommentURL, What: "the link to your comment"}
	}
	if res.Commit != "" {
		f.Say(fmt.Sprintf("wrote %s on the %s branch (commit %s).", pass.PlanRecordPath(r.Story), core.LedgerBranch, short(res.Commit)))
	}
	if err != nil {
		return f.Stopped(err, "Nothing was written to the ledger.", "Next: fix the cause above and run "+core.Command(r.Story, s.deps.SoloBypass)+" again; what landed is not written twice.")
	}
	what := fmt.Sprintf("reviewed: the plan of #%d is reviewed by @%s for %s.", r.Story, tui.SanitizeLine(r.Record.Reviewer), strings.Join(r.LayerIDs(), ", "))
	if r.Bypass() {
		what = fmt.Sprintf("bypassed: the plan of #%d went through your solo-mode bypass for %s; no review happened, and the record says so.", r.Story, strings.Join(r.LayerIDs(), ", "))
	}
	f.Say(what, next(r))
	return f.Finish(tui.ExitOK)
}

// PlanLines are the plan as read, in both renderers: the Story, its Plan
// section, the pull request's files, and the never layers they touch.
func PlanLines(r core.Review) []string {
	out := []string{fmt.Sprintf("%s #%d %s", r.Kind, r.Story, tui.SanitizeLine(r.Title))}
	if len(r.Section) == 0 {
		out = append(out, "Plan: the Story has no \"## Plan\" section.")
	} else {
		out = append(out, "Plan:")
		for _, l := range r.Section {
			out = append(out, "  "+tui.SanitizeLine(l))
		}
	}
	if r.PR != 0 {
		out = append(out, fmt.Sprintf("Pull request #%d by @%s changes %d %s.", r.PR, r.PRAuthor, len(r.Changed), tui.Plural(len(r.Changed), "file", "files")))
	}
	if r.NotNeeded != "" {
		return out
	}
	out = append(out, fmt.Sprintf("Never layers it touches (%s's LAYERS.md and autonomy.never):", r.Base))
	for _, h := range r.Hits {
		out = append(out, fmt.Sprintf("  %s %s:", h.ID, tui.SanitizeLine(h.Name)))
		for _, p := range h.Paths {
			out = append(out, "    "+tui.SanitizeLine(p))
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
		out = append(out, fmt.Sprintf("  %d. %s", i+1, tui.SanitizeLine(w)))
	}
	return out
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
