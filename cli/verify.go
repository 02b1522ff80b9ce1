package cli

import (
	"context"
	"os"

	build "github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/screens/verify"
	"github.com/aayudha/aayu/tui"
)

// verifyScreen wires `aayu verify STORY`: the floors run in the person's
// checkout (or, with --sandbox, in a fresh clone of the demo repository).
func (w wiring) verifyScreen() (tui.Screen, error) {
	inv := w.inv
	story, err := build.ParseStory(inv.Args[0])
	if err != nil {
		return nil, openErr(tui.ExitUsage, "%v", err)
	}
	return w.storyVerifyScreen(story)
}

// storyVerifyScreen builds a Story's pack from real go test runs: `aayu
// verify STORY`, and v on an inbox card.
func (w wiring) storyVerifyScreen(story int) (tui.Screen, error) {
	ctx, inv, e, sess, common, src := w.ctx, w.inv, w.e, w.sess, w.common, w.src
	cache, err := userCacheDir(e.getenv)
	if err != nil {
		return nil, err
	}
	opts := build.PrepareOptions{
		Owner: sess.owner, Repo: sess.repo, Story: story, CI: inv.Global.CI, Getenv: e.getenv,
		Config: src.sources, CacheDir: cache, FromRaw: inv.Flags["from-raw"],
		PackOut: inv.Flags["pack-out"],
	}
	if sess.sandbox != nil {
		opts.SandboxGitDir = sess.sandbox.GitDir()
	} else {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Checkout = cwd
		if opts.Owner == "" {
			owner, repo, err := build.Tools{}.RepoFromCheckout(ctx, cwd)
			if err != nil {
				return nil, openErr(tui.ExitUsage, "which repository? %v", err)
			}
			opts.Owner, opts.Repo = owner, repo
		}
	}
	return verify.New(ctx, common, verify.Deps{
		Story: story,
		Prepare: func(ctx context.Context) (build.Request, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return build.Request{}, err
			}
			gh, err := sess.client(tok)
			if err != nil {
				return build.Request{}, err
			}
			return build.Prepare(ctx, build.Tools{}, gh, opts)
		},
	}), nil
}

// verifyCommand is aayu verify's table entry and run.
func verifyCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "verify",
			Group: "daily",
			Arg:   "STORY",
			Short: "run the floors, build the pack in .aayudha/proof/STORY/",
			Long: "Run the Story's floors and tests and build its proof pack in .aayudha/proof/STORY/.\n" +
				"The merge gate splits this in two: --raw-out runs the tests and keeps the raw outputs, " +
				"--from-raw builds the pack from them, running none.",
			Example: "aayu verify 131\n" +
				"aayu verify 131 --ci --raw-out out/raw\n" +
				"# the gate's pack job, in a bare repository of the pull request's commits\n" +
				"aayu verify 131 --ci --from-raw out/raw --pack-out out/pack",
			Flags: []tui.FlagDef{
				{Name: "raw-out", Value: "DIR", Usage: "the merge gate's tests job: run the tests, keep raw outputs in DIR"},
				{Name: "from-raw", Value: "DIR", Usage: "the gate's pack job: build the pack from DIR, running no test"},
				{Name: "pack-out", Value: "DIR", Usage: "write the pack in DIR, not .aayudha/proof/STORY/ (the gate's pack job)"},
			},
		},
		run: func(w wiring) int {
			if w.inv.Flags["raw-out"] != "" {
				return w.runVerifyRaw()
			}
			return w.runScreen(w.verifyScreen)
		},
		// --raw-out runs the tests job's half: no GitHub, no token.
		token: func(inv tui.Invocation) bool { return inv.Flags["raw-out"] == "" },
	}
}
