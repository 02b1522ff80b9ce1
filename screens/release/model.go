package release

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/release"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: cli wires them to GitHub (or the sandbox).
type Deps struct {
	To string
	// DryRun shows what would be released and written, and writes nothing.
	DryRun bool
	Read   func(ctx context.Context) (core.Plan, error)
	Apply  func(ctx context.Context, p core.Plan) (core.Result, error)
	// LastWords reads what GitHub holds after the writes stopped early,
	// so the last lines say what landed as GitHub has it; nil: none.
	LastWords func(ctx context.Context, p core.Plan) []string
	Close     func()
}

// Model is the release screen: the read → ask → write flow.
type Model = tui.Flow[core.Plan, core.Result]

// New returns the release screen; Init starts reading.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	f := tui.NewConfirmFlow(c, "aayu release --to "+deps.To,
		fmt.Sprintf("aayu release --to %s: reads what the integration branch holds that %s lacks, story by story, and verifies each Story's pack again; nothing is written until you answer y to the writes it lists. Any other answer writes nothing.", deps.To, deps.To))
	f.StopWhileWriting = ": release stops once the writes under way land, and says what GitHub holds; nothing is cut in the middle."
	s := screen{deps: deps, ctx: ctx}
	return tui.NewFlow(ctx, f, tui.ReadAskWrite[core.Plan, core.Result]{
		Name: "release --to " + deps.To,
		Read: deps.Read, Ask: s.planned, Write: deps.Apply, Wrote: s.applied, Close: deps.Close,
	})
}

type screen struct {
	deps Deps
	ctx  context.Context
}

// planned says what was read and asks, unless something blocks it.
func (s screen) planned(f *tui.ConfirmFlow, p core.Plan, err error) tea.Cmd {
	if err != nil {
		return f.Stopped(err, "Nothing was written.", "Nothing was written. Next: check --repo and your token (aayu auth), then run aayu release again.")
	}
	f.Say(PlanLines(p)...)
	if len(p.Blocks) > 0 {
		f.Say(fmt.Sprintf("refused: %d %s this release:", len(p.Blocks), tui.Plural(len(p.Blocks), "thing blocks", "things block")))
		for _, b := range p.Blocks {
			f.Say("  - " + tui.SanitizeLine(b))
		}
		f.Say("Nothing was written. Next: fix what blocks it, then run aayu release --to " + p.To + " again.")
		return f.Finish(tui.ExitRefused)
	}
	if s.deps.DryRun {
		f.Say("--dry-run: answering yes would write, in this order:")
		f.Say(numbered(p.Writes())...)
		f.Say("--dry-run: nothing was written.")
		return f.Finish(tui.ExitOK)
	}
	return f.Ask(append([]string{"Answering yes writes, in this order, as you:"}, numbered(p.Writes())...),
		"Type y and Enter to write all of these; any other answer, or the end of input, writes nothing.")
}

// PlanLines are what was read, in both renderers.
func PlanLines(p core.Plan) []string {
	out := []string{fmt.Sprintf("%s (%s) holds %d %s %s (%s) lacks.", p.From, gitsha.Short(p.FromSHA), p.Commits, tui.Plural(p.Commits, "commit", "commits"), p.To, gitsha.Short(p.ToSHA))}
	out = append(out, fmt.Sprintf("Stories with proof (%d):", len(p.Stories)))
	for _, st := range p.Stories {
		line := fmt.Sprintf("  #%d %s — pull request #%d, ship record %s", st.Story, tui.SanitizeLine(st.Title), st.PR, st.ShipRecord)
		if st.PackSHA256 != "" {
			line += ", pack sha256 " + gitsha.Short(st.PackSHA256)
		}
		out = append(out, line)
		if st.Attested != "" {
			out = append(out, "    attested: "+tui.SanitizeLine(st.Attested))
		}
	}
	out = append(out, fmt.Sprintf("Carried without proof (%d):", len(p.Unproven)))
	for _, u := range p.Unproven {
		out = append(out, fmt.Sprintf("  #%d %s", u.PR, tui.SanitizeLine(u.Why)))
	}
	if len(p.Blocks) == 0 {
		out = append(out, fmt.Sprintf("Nothing blocks it: every Story's pack verifies again and %s's required checks are green at its tip.", p.From))
	}
	return out
}

// applied says what the writes did and ends the flow.
func (s screen) applied(f *tui.ConfirmFlow, p core.Plan, r core.Result, err error) tea.Cmd {
	if r.PR != 0 {
		f.Say(fmt.Sprintf("opened pull request #%d from %s into %s.", r.PR, p.From, p.To))
	}
	if r.Promoted != "" {
		f.Say(fmt.Sprintf("promoted: %s is at %s (read back).", p.To, gitsha.Short(r.Promoted)))
	}
	if r.Record != "" {
		f.Say(fmt.Sprintf("wrote %s on the %s branch (commit %s), approved by @%s.", r.RecordedPath, core.LedgerBranch, gitsha.Short(r.Record), tui.SanitizeLine(r.ApprovedBy)))
	}
	if r.Tag != "" {
		f.Say(fmt.Sprintf("tagged %s at %s (read back).", r.Tag, gitsha.Short(r.TagSHA)))
	}
	if r.ReleaseURL != "" {
		f.Say("released: " + tui.SanitizeLine(r.ReleaseURL))
		f.Link = tui.ResultLink{URL: r.ReleaseURL, What: "the link to the release"}
	}
	if r.Run != "" {
		f.Say(tui.SanitizeLine(r.Run) + ".")
	}
	if err != nil {
		if s.deps.LastWords != nil {
			f.Say(s.deps.LastWords(s.ctx, p)...)
		}
		return f.Stopped(err, "What landed is listed above; nothing else was written.", "Next: fix the cause above and run aayu release again; what landed is listed above.")
	}
	f.Say(fmt.Sprintf("released %s: %s holds %s's tip %s.", p.Tag, p.To, p.From, gitsha.Short(p.FromSHA)),
		"Next: the release workflow builds and attests the tag's artifacts; aayu release --to "+p.To+" --dry-run shows what is new since.")
	return f.Finish(tui.ExitOK)
}

func numbered(ws []string) []string {
	var out []string
	for i, w := range ws {
		out = append(out, fmt.Sprintf("  %d. %s", i+1, tui.SanitizeLine(w)))
	}
	return out
}
