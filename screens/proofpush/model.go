package proofpush

import (
	"context"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/proofpush"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires Push to GitHub (or the
// sandbox) and the bucket.
type Deps struct {
	Story int
	Push  func(ctx context.Context) (*core.Result, error)
	// Note is one more line after a push that landed (the sandbox's bucket
	// lasting only this run).
	Note string
	// OnClose runs once when the screen closes.
	OnClose func()
}

// Model is the proof push screen: the flow of tui.Flow without its read or
// its question, writing from the start.
type Model = tui.Flow[struct{}, *core.Result]

// New returns the screen; Init starts the push.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	f := tui.NewConfirmFlow(c, fmt.Sprintf("aayu proof push #%d", deps.Story),
		fmt.Sprintf("aayu proof push #%d: lands .aayudha/proof/%d/ on the ledger as an advisory pack, with its own comment on the pull request. It asks nothing: an advisory pack is a preview and never counts for ship.", deps.Story, deps.Story))
	f.Say("pushing…")
	// The full screen drops "pushing…" once the push has answered.
	f.HideWhenDone = 1
	f.StopWhileWriting = ": proof push stops once the push under way lands, and says what landed; nothing is cut in the middle."
	push := deps.Push
	return tui.NewFlow(ctx, f, tui.ReadAskWrite[struct{}, *core.Result]{
		Name:  fmt.Sprintf("proof push, Story #%d", deps.Story),
		Write: func(ctx context.Context, _ struct{}) (*core.Result, error) { return push(ctx) },
		Wrote: screen{deps}.pushed,
		Close: deps.OnClose,
	})
}

// screen is what the proof push screen's write says.
type screen struct{ deps Deps }

// pushed says how the push ended.
func (s screen) pushed(f *tui.ConfirmFlow, _ struct{}, res *core.Result, err error) tea.Cmd {
	switch {
	case err != nil && core.IsRefusal(err):
		f.Say("refused: " + tui.Sentence(tui.SanitizeLine(err.Error())))
		return f.Finish(tui.ExitRefused)
	case err != nil:
		f.Say("failed: "+tui.Sentence(tui.SanitizeLine(err.Error())),
			fmt.Sprintf("Next: check --repo and your token (aayu auth), then run aayu proof push %d again; a pack already landed is not committed twice.", s.deps.Story))
		return f.Finish(tui.ExitFailed)
	}
	for _, l := range Lines(s.deps.Story, res) {
		f.Say(tui.SanitizeLine(l))
	}
	if s.deps.Note != "" {
		f.Say(tui.SanitizeLine(s.deps.Note))
	}
	if res != nil && res.CommentProblem == "" {
		f.Link = tui.ResultLink{URL: res.Comment.URL, What: "the link to the advisory comment"}
	}
	return f.Finish(tui.ExitOK)
}

// Lines is the confirmation of a push that landed: where, the pack's hash,
// the media copied, the comment, and that it never counts for ship.
func Lines(story int, r *core.Result) []string {
	out := []string{
		fmt.Sprintf("landed: the local pack is on the ledger as an advisory pack for story %d.", story),
		fmt.Sprintf("  ledger: %d %s at %s (commit %s)", r.Files, tui.Plural(r.Files, "file", "files"), r.Path, short(r.Commit)),
		"  pack.json sha256 " + r.PackSHA256,
	}
	if r.Unchanged {
		out[0] = fmt.Sprintf("already landed: the ledger holds this pack as an advisory pack for story %d; nothing new was committed.", story)
		out[1] = fmt.Sprintf("  ledger: %d %s at %s, as they are locally", r.Files, tui.Plural(r.Files, "file", "files"), r.Path)
	}
	if r.Removed > 0 {
		out = append(out, fmt.Sprintf("  %d %s of an earlier push to the same head removed", r.Removed, tui.Plural(r.Removed, "file", "files")))
	}
	if r.Bucket != "" {
		if len(r.Media) == 0 {
			out = append(out, "  media: the pack holds no media files to copy to "+r.Bucket)
		} else {
			out = append(out, fmt.Sprintf("  media: %d copied to %s", len(r.Media), r.Bucket))
		}
		paths := make([]string, 0, len(r.Media))
		for p := range r.Media {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			out = append(out, fmt.Sprintf("    %s → %s", p, r.Media[p]))
		}
		if r.LifecycleNote != "" {
			out = append(out, "  "+r.LifecycleNote)
		}
	}
	switch {
	case r.CommentProblem != "":
		out = append(out, "  comment: "+r.CommentProblem)
	case r.Comment.Unchanged:
		out = append(out, "  comment: the advisory comment already says this: "+r.Comment.URL)
	default:
		out = append(out, "  comment: the advisory comment on the pull request: "+r.Comment.URL)
	}
	verdict := "verifies and every floor holds"
	switch {
	case r.Report == nil:
		verdict = "was not checked against the ledger's Ready snapshot and the pull request's head"
	case !r.Report.Verified():
		verdict = "does not verify against the ledger's Ready snapshot and the pull request's head"
	case !r.Report.FloorsHold:
		verdict = "verifies, but a floor does not hold"
	}
	return append(out, fmt.Sprintf("Advisory: it %s, and it never counts for ship; only the merge gate's pack does.", verdict))
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
