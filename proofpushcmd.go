package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/proofpush"
	"github.com/aayudha/aayu/ghx/sandbox"
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
	checkout, err := os.Getwd()
	if err != nil {
		return refuse(fmt.Errorf("finding the checkout: %w", err))
	}
	if sess.sandbox != nil {
		// The demo has no checkout on disk: aayu --sandbox verify builds its
		// pack in a clone under the cache, so push from there unless the
		// working directory holds one.
		if _, err := os.Lstat(proofpush.Dir(checkout, story)); err != nil {
			if cache, err := userCacheDir(e.getenv); err == nil {
				checkout = build.SandboxCheckoutDir(cache, sess.owner+"/"+sess.repo, story)
			}
		}
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
	media, mediaURL := inv.Flags["media"] == "true", cfg.String("proof.media")
	getenv, note := e.getenv, ""
	if sess.sandbox != nil && media && mediaURL != "" && e.getenv("AWS_ENDPOINT_URL_S3") == "" && e.getenv("AWS_ENDPOINT_URL") == "" {
		// The demo's bucket is the sandbox's own S3-speaking server, reached
		// by the same client and variables as a real one.
		b, err := sandbox.StartBucket()
		if err != nil {
			return refuse(err)
		}
		defer b.Close()
		getenv = sandboxBucketEnv(e.getenv, b.Endpoint)
		note = "  (the sandbox's bucket at " + b.Endpoint + " lives only while this aayu runs)"
	}
	res, err := proofpush.Push(ctx, proofpush.Options{
		Client: gh, Owner: sess.owner, Repo: sess.repo, Story: story, Checkout: checkout,
		Media: media, MediaURL: mediaURL, RetentionDays: cfg.Int("proof.retention_days"),
		Getenv: getenv, Log: log, Trailers: w.fallbackTrailers(),
	})
	if err != nil {
		return refuse(err)
	}
	for _, l := range proofPushLines(story, res) {
		fmt.Fprintln(e.stdout, tui.SanitizeLine(l))
	}
	if note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	return tui.ExitOK
}

// sandboxBucketEnv points the AWS variables at the sandbox's bucket
// server with the sandbox's credential: a person's real keys never go to
// it.
func sandboxBucketEnv(getenv func(string) string, endpoint string) func(string) string {
	return func(k string) string {
		switch k {
		case "AWS_ENDPOINT_URL_S3":
			return endpoint
		case "AWS_ACCESS_KEY_ID":
			return sandbox.BucketAccessKey
		case "AWS_SECRET_ACCESS_KEY":
			return sandbox.BucketSecretKey
		case "AWS_SESSION_TOKEN":
			return ""
		}
		return getenv(k)
	}
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
	if r.Unchanged {
		out[0] = fmt.Sprintf("aayu proof push %d: the ledger already holds this pack as an advisory pack; nothing new was committed.", story)
		out[1] = fmt.Sprintf("  ledger: %d %s at %s, as they are locally", r.Files, plural(r.Files, "file", "files"), r.Path)
	}
	if r.Removed > 0 {
		out = append(out, fmt.Sprintf("  %d %s of an earlier push to the same head removed", r.Removed, plural(r.Removed, "file", "files")))
	}
	if r.Bucket != "" {
		if len(r.Media) == 0 {
			out = append(out, "  media: the pack holds no media files to copy to "+r.Bucket)
		} else {
			out = append(out, fmt.Sprintf("  media: %d copied to %s", len(r.Media), r.Bucket))
		}
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
	verdict := "verifies and every floor holds"
	switch {
	case r.Report == nil:
		verdict = "was not checked against the ledger's Ready snapshot and the pull request's head"
	case !r.Report.Verified():
		verdict = "does not verify against the ledger's Ready snapshot and the pull request's head"
	case !r.Report.FloorsHold:
		verdict = "verifies, but a floor does not hold"
	}
	out = append(out, fmt.Sprintf("Advisory: it %s, and it never counts for ship; only the merge gate's pack does.", verdict))
	return out
}

func shortCommit(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return strings.TrimSpace(sha)
}
