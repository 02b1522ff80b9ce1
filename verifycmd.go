package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aayudha/aayu/proof/build"
	"github.com/aayudha/aayu/screens/verify"
	"github.com/aayudha/aayu/tui"
)

// verifyScreen wires `aayu verify STORY`: the floors run in the person's
// checkout (or, with --sandbox, in a fresh clone of the demo repository).
func verifyScreen(ctx context.Context, inv tui.Invocation, e env, sess *session, common tui.Common, src configSources) (tui.Screen, int) {
	story, err := build.ParseStory(inv.Args[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu verify: %v\n", err)
		return nil, tui.ExitUsage
	}
	cache, err := userCacheDir(e.getenv)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu verify: %v\n", err)
		return nil, tui.ExitFailed
	}
	opts := build.PrepareOptions{
		Owner: sess.owner, Repo: sess.repo, Story: story, CI: inv.Global.CI, Getenv: e.getenv,
		Config: src.sources, CacheDir: cache,
	}
	if sess.sandbox != nil {
		opts.SandboxGitDir = sess.sandbox.GitDir()
	} else {
		cwd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(e.stderr, "aayu verify: %v\n", err)
			return nil, tui.ExitFailed
		}
		opts.Checkout = cwd
		if opts.Owner == "" {
			owner, repo, err := build.Tools{}.RepoFromCheckout(ctx, cwd)
			if err != nil {
				fmt.Fprintf(e.stderr, "aayu verify: which repository? %v; give --repo OWNER/NAME\n", err)
				return nil, tui.ExitUsage
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
	}), tui.ExitOK
}
