package inbox

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
)

// The story loop's human-only steps that only a command did until now:
// freezing a Story's Completion Goal (aayu ready) and the plan-time review
// a never-layer change needs (aayu plan). Each card opens that command's
// screen, which reads again, shows what it will write and asks its own yes.

// readySteps are the open Stories and Bugs with no Ready snapshot on the
// ledger, the one fact aayu ready and ship's gate decide by (specs/N/ready.md
// there or not): ship refuses their pull requests until a person freezes
// the goal. A Story already merged, done or cancelled, or one a
// housekeeping card ends (replaced, merged without ship, its fix merged),
// waits for no goal.
func readySteps(s Snapshot, ends map[int]bool) []Step {
	if s.ReadySnapshots == nil {
		return nil // the ledger was not read: no card from ignorance
	}
	var steps []Step
	for _, is := range s.Issues {
		kind := "Story"
		switch {
		case !is.Open() || s.ReadySnapshots[is.Number] || ends[is.Number]:
			continue
		case is.HasLabel(LabelMerged), is.HasLabel(LabelDone), is.HasLabel(LabelCancelled):
			continue
		case is.HasLabel(LabelStory):
		case is.HasLabel(LabelBug):
			kind = "Bug"
		default:
			continue
		}
		freeze := Write{Kind: WriteOpenCommand, Command: CommandReady, Number: is.Number}
		counsel := fmt.Sprintf("%s #%d has no Ready snapshot on the ledger (specs/%d/ready.md), so ship refuses a pull request for it: "+
			"%s shows its Completion Goal and the hash it will freeze, then asks before it writes.", kind, is.Number, is.Number, freeze.CommandLine())
		steps = append(steps, Step{Kind: KindNeedsReady, Item: Item{Number: is.Number, Title: is.Title},
			Counsel: untrusted.Text(counsel),
			Choices: []Choice{
				{Key: "1", Label: "freeze its goal as the Ready snapshot (" + freeze.CommandLine() + ")", Recommended: true, Writes: []Write{freeze}},
				{Key: "2", Label: "open it and read its goal", Writes: []Write{{Kind: WriteOpen, Number: is.Number}}},
			}})
	}
	return steps
}

// planReviewStep is an open pull request that touches a never layer
// (Snapshot.NeverLayers, ship's footprint rule) whose Story has no plan
// review on the ledger that stands for it: none, another Story's, one
// that does not cover every layer it touches (PlanRecord.Gap, ship's
// words), a review by the pull request's own author, or a solo-mode bypass
// where the base has a bot identity. Ship refuses it until one is recorded.
func planReviewStep(s Snapshot, issues map[int]Issue, pr PullRequest) (Step, bool) {
	if !pr.Open() || s.PlanRecords == nil {
		return Step{}, false
	}
	never := s.NeverLayers[pr.Number]
	if len(never) == 0 {
		return Step{}, false
	}
	story, ok := linkedOpen(issues, pr, LabelStory)
	if !ok {
		if story, ok = linkedOpen(issues, pr, LabelBug); !ok {
			return Step{}, false // no Story to record it on; ship says so
		}
	}
	s = s.forBase(pr.BaseRef.Raw()) // ship judges it by its base's policy
	path := pass.PlanRecordPath(story.Number)
	why := fmt.Sprintf("Story #%d has none recorded (%s on the ledger)", story.Number, path)
	if rec, found := s.PlanRecords[story.Number]; found {
		why = planRecordShort(rec, story.Number, never, path, pr, s.SoloMode)
		if why == "" {
			return Step{}, false
		}
	}
	review := Write{Kind: WriteOpenCommand, Command: CommandPlan, Number: story.Number, Solo: s.SoloMode}
	label := "review its plan against the never layers (" + review.CommandLine() + ")"
	if s.SoloMode {
		label = "record your Solo-mode bypass of its plan review: nobody else can review it (" + review.CommandLine() + ")"
	}
	counsel := fmt.Sprintf("#%d touches never %s %s, so ship needs a plan-time review of Story #%d and refuses it until one is recorded: %s. "+
		"%s shows the plan against those layers, then asks before it writes.",
		pr.Number, plural(len(never), "layer", "layers"), strings.Join(never, ", "), story.Number, why, review.CommandLine())
	return Step{Kind: KindNeedsPlanReview, Item: Item{Number: pr.Number, Title: pr.Title, IsPR: true}, Head: pr.HeadSHA,
		Links:   []Link{{Number: story.Number, Title: story.Title, Role: "links Story"}},
		Counsel: untrusted.Text(counsel),
		Choices: []Choice{
			{Key: "1", Label: label, Recommended: true, Writes: []Write{review}},
			{Key: "2", Label: fmt.Sprintf("open Story #%d and read its plan", story.Number), Writes: []Write{{Kind: WriteOpen, Number: story.Number}}},
		}}, true
}

// planRecordShort says why a plan record that reads does not stand for
// pr, "" when it does: PlanRecord.Gap, then who gave it, as ship judges
// them (an author's own review never counts; a bypass only in solo mode).
// The comment it stands on is ship's to check when it runs.
func planRecordShort(rec pass.PlanRecord, story int, never []string, path string, pr PullRequest, solo bool) string {
	if gap := rec.Gap(story, never, path); gap != "" {
		return gap
	}
	switch rec.Kind {
	case pass.PlanKindReview:
		if identity.SameLogin(rec.Reviewer, pr.Author.Login) {
			return fmt.Sprintf("the plan review of Story #%d is by @%s, the pull request's author, and an author's own plan review never counts", story, strings.TrimPrefix(pr.Author.Login, "@"))
		}
		return ""
	case pass.KindSoloBypass:
		if !solo {
			return fmt.Sprintf("the plan of Story #%d went through a solo-mode bypass, and this repository has a bot identity, so it needs a review", story)
		}
		return ""
	}
	return fmt.Sprintf("%s on the ledger has kind %q", path, untrusted.RecordLine(rec.Kind))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
