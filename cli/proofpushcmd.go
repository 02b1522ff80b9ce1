package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/aayudha/aayu/actions"
	build "github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/actions/proofpush"
	"github.com/aayudha/aayu/ghx/sandbox"
	screen "github.com/aayudha/aayu/screens/proofpush"
	"github.com/aayudha/aayu/tui"
)

// proofPushScreen wires `aayu proof push STORY [--media]`: it lands the
// local pack of the checkout it runs in on the ledger as an advisory pack,
// with its own pull request comment, and shows what landed. It asks
// nothing: an advisory pack is a preview any lane may push (seed 000), and
// it never counts for ship. --ci is refused before anything is read.
func (w wiring) proofPushScreen() (tui.Screen, error) {
	ctx, inv, e, cfg, sess, common := w.ctx, w.inv, w.e, w.cfg, w.sess, w.common
	story, err := build.ParseStory(inv.Args[0])
	if err != nil {
		return nil, openErr(tui.ExitUsage, "%v", err)
	}
	if inv.Global.CI {
		return nil, openErr(tui.ExitRefused, "refused: %v. Nothing was pushed.", proofpush.ErrCIPush)
	}
	if inv.Global.DryRun {
		return nil, openErr(tui.ExitUsage, "--dry-run is not built for proof push; aayu pack %d shows the local pack (l) and writes nothing. Nothing was pushed.", story)
	}
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, "which repository? Give --repo OWNER/NAME (or --sandbox for the demo). Nothing was pushed.")
	}
	checkout, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the checkout: %w", err)
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
	var log *actions.Log
	if d, err := actions.DefaultLogDir(e.getenv); err == nil {
		log = actions.OpenLog(d, nil)
	}
	deps := screen.Deps{Story: story}
	media, mediaURL := inv.Flags["media"] == "true", cfg.String("proof.media")
	getenv := e.getenv
	if sess.sandbox != nil && media && mediaURL != "" && e.getenv("AWS_ENDPOINT_URL_S3") == "" && e.getenv("AWS_ENDPOINT_URL") == "" {
		// The demo's bucket is the sandbox's own S3-speaking server, reached
		// by the same client and variables as a real one.
		b, err := sandbox.StartBucket()
		if err != nil {
			return nil, err
		}
		deps.OnClose = func() { _ = b.Close() }
		getenv = sandboxBucketEnv(e.getenv, b.Endpoint)
		deps.Note = "(the sandbox's bucket at " + b.Endpoint + " lives only as long as this process)"
	}
	opts := proofpush.Options{Owner: sess.owner, Repo: sess.repo, Story: story, Checkout: checkout,
		Media: media, MediaURL: mediaURL, RetentionDays: cfg.Int("proof.retention_days"),
		Getenv: getenv, Log: log, Trailers: w.fallbackTrailers()}
	deps.Push = func(ctx context.Context) (*proofpush.Result, error) {
		tok, err := w.writeToken(ctx)
		if err != nil {
			return nil, err
		}
		if opts.Client, err = sess.client(tok); err != nil {
			return nil, err
		}
		return proofpush.Push(ctx, opts)
	}
	return screen.New(ctx, common, deps), nil
}

// sandboxBucketEnv points the AWS variables at the sandbox's bucket server
// with the sandbox's credential: a person's real keys never go to it.
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
