package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

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
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	checkout, err := w.proofPushCheckout(story)
	if err != nil {
		return nil, err
	}
	var log *actions.Log
	if d, err := actions.DefaultLogDir(e.getenv); err == nil {
		log = actions.OpenLog(d, nil)
	}
	deps := screen.Deps{Story: story}
	media, mediaURL := inv.Flags["media"] == "true", cfg.String("proof.media")
	getenv, err := w.proofPushBucket(&deps, media && mediaURL != "", mediaURL)
	if err != nil {
		return nil, err
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

// proofPushCheckout is the checkout whose local pack proof push lands: the
// working directory, or in the demo, which has no checkout on disk, the
// clone under the cache aayu --sandbox verify builds its pack in, unless
// the working directory holds one.
func (w wiring) proofPushCheckout(story int) (string, error) {
	checkout, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the checkout: %w", err)
	}
	if w.sess.sandbox == nil {
		return checkout, nil
	}
	if _, err := os.Lstat(proofpush.Dir(checkout, story)); err != nil {
		if cache, err := userCacheDir(w.e.getenv); err == nil {
			checkout = build.SandboxCheckoutDir(cache, w.sess.owner+"/"+w.sess.repo, story)
		}
	}
	return checkout, nil
}

// proofPushBucket is the environment proof push's media client reads: in
// the demo, with media asked for and no endpoint named, the sandbox's own
// S3-speaking server, reached by the same client and variables as a real
// one (deps closes it); else the process's. The demo serves no other kind
// of bucket, so a gs:// or azblob:// one without an endpoint of the
// person's own is refused there: the person's real credential never goes
// to a real bucket from the demo.
func (w wiring) proofPushBucket(deps *screen.Deps, media bool, mediaURL string) (func(string) string, error) {
	getenv := w.e.getenv
	if w.sess.sandbox == nil || !media {
		return getenv, nil
	}
	switch {
	case strings.HasPrefix(mediaURL, "gs://") && getenv("STORAGE_EMULATOR_HOST") == "",
		strings.HasPrefix(mediaURL, "azblob://") && !strings.Contains(getenv("AZURE_STORAGE_CONNECTION_STRING"), "BlobEndpoint="):
		return nil, openErr(tui.ExitRefused, "refused: the sandbox serves an s3:// media bucket only; use --set proof.media=s3://BUCKET/PREFIX, or name your own test server (STORAGE_EMULATOR_HOST, or a connection string's BlobEndpoint). Nothing was pushed.")
	case getenv("AWS_ENDPOINT_URL_S3") != "" || getenv("AWS_ENDPOINT_URL") != "":
		return getenv, nil
	}
	b, err := sandbox.StartBucket()
	if err != nil {
		return nil, err
	}
	deps.OnClose = func() { _ = b.Close() }
	deps.Note = "(the sandbox's bucket at " + b.Endpoint + " lives only as long as this process)"
	return sandboxBucketEnv(getenv, b.Endpoint), nil
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

// proofPushCommand is aayu proof push's table entry and run.
func proofPushCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "proof push",
			Group: "daily",
			Arg:   "STORY",
			Short: "land the local pack as an advisory pack (never with --ci)",
			Long: "Land the local pack .aayudha/proof/STORY/ (as aayu verify STORY built it) on the ledger as an advisory pack, " +
				"proof/STORY/HEAD/advisory/, with its own pull request comment; it never counts for ship and never replaces the gate's pack.\n" +
				"--media copies the pack's media to the [proof] media bucket (s3://, r2://, gs:// or azblob://BUCKET/PREFIX) and names each object's key; " +
				"without a bucket media are refused. Refused with --ci.",
			Example: "aayu proof push 131\naayu proof push 131 --media",
			Flags: []tui.FlagDef{
				{Name: "media", Usage: "copy the pack's media to the [proof] media bucket"},
			},
		},
		run: screenRun(wiring.proofPushScreen),
		// proof push --ci is refused before any token is read.
		token: func(inv tui.Invocation) bool { return !inv.Global.CI },
	}
}
