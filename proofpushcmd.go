package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/proofpush"
	"github.com/aayudha/aayu/proof/build"
	"github.com/aayudha/aayu/tui"
)

// runProofPush is `aayu proof push STORY [--media]`: it lands the local
// pack of the checkout it runs in on the ledger as an advisory pack, with
// its own pull request comment, and prints what landed. It asks nothing:
// an advisory pack is a preview any lane may push (seed 000), and it
// never counts for ship. --ci is refused before anything is read.
func (w wiring) runProofPush() int {
	ctx, inv, e, cfg, sess := w.ctx, w.inv, w.e, w.cfg, w.sess
	story, err := build.ParseStory(inv.Args[1])
	if err != nil {
		fmt.Fprintln(e.stderr, tui.UsageLine(err))
		return tui.ExitUsage
	}
	refuse := func(err error) int {
		code, word := tui.ExitFailed, "failed"
		if proofpush.IsRefusal(err) {
			code, word = tui.ExitRefused, "refused"
		}
		fmt.Fprintf(e.stderr, "aayu proof push %d: %s: %s\n", story, word, tui.SanitizeLine(err.Error()))
		return code
	}
	if inv.Global.CI {
		return refuse(fmt.Errorf("%w. Nothing was pushed", proofpush.ErrCIPush))
	}
	if inv.Global.DryRun {
		fmt.Fprintf(e.stderr, "aayu proof push %d: --dry-run is not built for proof push; aayu pack %d shows the local pack (l) and writes nothing. Nothing was pushed.\n", story, story)
		return tui.ExitUsage
	}
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu proof push: which repository? Give --repo OWNER/NAME (or --sandbox for the demo). Nothing was pushed.")
		return tui.ExitUsage
	}
	cwd, err := os.Getwd()
	if err != nil {
		return refuse(fmt.Errorf("finding the checkout: %w", err))
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		return refuse(fmt.Errorf("%w; nothing was pushed", err))
	}
	gh, err := sess.client(tok)
	if err != nil {
		return refuse(err)
	}
	var log *actions.Log
	if d, err := actions.DefaultLogDir(e.getenv); err == nil {
		log = actions.OpenLog(d, nil)
	}
	res, err := proofpush.Push(ctx, proofpush.Options{
		Client: gh, Owner: sess.owner, Repo: sess.repo, Story: story, Checkout: cwd,
		Media: inv.Flags["media"] == "true", MediaURL: cfg.String("proof.media"), RetentionDays: cfg.Int("proof.retention_days"),
		Getenv: e.getenv, Log: log, Trailers: w.fallbackTrailers(),
	})
	if err != nil {
		return refuse(err)
	}
	for _, l := range proofPushLines(story, res) {
		fmt.Fprintln(e.stdout, tui.SanitizeLine(l))
	}
	return tui.ExitOK
}

// proofPushLines is the confirmation: where the pack landed, its hash,
// the media copied, the comment, and that it never counts for ship.
func proofPushLines(story int, r *proofpush.Result) []string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	out := []string{
		fmt.Sprintf("aayu proof push %d: the local pack landed on the ledger as an advisory pack.", story),
		fmt.Sprintf("  ledger: %d %s at %s (commit %s)", r.Files, plural(r.Files, "file", "files"), r.Path, shortCommit(r.Commit)),
		"  pack.json sha256 " + r.PackSHA256,
	}
	if r.Removed > 0 {
		out = append(out, fmt.Sprintf("  %d %s of an earlier push to the same head removed", r.Removed, plural(r.Removed, "file", "files")))
	}
	if r.Bucket != "" {
		out = append(out, fmt.Sprintf("  media: %d copied to %s", len(r.Media), r.Bucket))
		keys := make([]string, 0, len(r.Media))
		for p := range r.Media {
			keys = append(keys, p)
		}
		slices.Sort(keys)
		for _, p := range keys {
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
	verdict := "verifies"
	if r.Report == nil || !r.Report.Verified() {
		verdict = "does not verify yet"
	}
	out = append(out, fmt.Sprintf("Advisory: it %s against the ledger's Ready snapshot and the pull request's head, and it never counts for ship; only the merge gate's pack does.", verdict))
	return out
}

func shortCommit(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return strings.TrimSpace(sha)
}
