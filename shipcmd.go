package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/aayudha/aayu/actions"
	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/screens/pack"
	"github.com/aayudha/aayu/screens/ship"
	"github.com/aayudha/aayu/tui"
)

// shipScreen wires `aayu ship PR`: the presence check first when this
// process cannot show it is a person, then every gate in actions/ship.
func shipScreen(ctx context.Context, inv tui.Invocation, e env, cfg *config.Config, sess *session, common tui.Common, src configSources) (tui.Screen, func(), int) {
	return shipScreenWith(ctx, inv, e, cfg, sess, common, src, nil, false)
}

// shipScreenWith is shipScreen with an approval already given: the inbox
// session's, when the ship was started from the inbox.
func shipScreenWith(ctx context.Context, inv tui.Invocation, e env, cfg *config.Config, sess *session, common tui.Common, src configSources, given *identity.Session, fromInbox bool) (tui.Screen, func(), int) {
	pr, err := strconv.Atoi(inv.Args[0])
	if err != nil || pr < 1 {
		fmt.Fprintf(e.stderr, "aayu ship: %q is not a pull request number\n", tui.SanitizeLine(inv.Args[0]))
		return nil, nil, tui.ExitUsage
	}
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu ship: which repository? Give --repo OWNER/NAME (or --sandbox for the demo)")
		return nil, nil, tui.ExitUsage
	}
	approval, code, ok := given, tui.ExitOK, true
	if !fromInbox {
		approval, code, ok = presenceFor(ctx, inv, e, cfg, sess, common, login.Request{
			Command: core.Command(pr), Need: identity.AccessWrite,
			Approving: []string{
				fmt.Sprintf("Squash-merges pull request #%d on %s/%s once every gate passes.", pr, sess.owner, sess.repo),
				"Lands its proof pack and ship record on the ledger under your name.",
				"In solo mode, posts your Solo-mode bypass: comment on its head just before the merge.",
			},
		})
	}
	if !ok {
		return nil, nil, code
	}
	local := src.sources
	if !inv.Global.Sandbox {
		// The checkout's copy is checked only for being looser than the
		// base branch's; it never decides policy.
		if b, err := os.ReadFile(filepath.Join(".aayudha", "config.toml")); err == nil {
			local.Repo = b
		}
	}
	work, err := os.MkdirTemp("", "aayu-ship-*")
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu ship: %v\n", err)
		return nil, nil, tui.ExitFailed
	}
	cleanup := func() { _ = os.RemoveAll(work) }
	logDir, err := actions.DefaultLogDir(e.getenv)
	if err != nil {
		cleanup()
		fmt.Fprintf(e.stderr, "aayu ship: %v\n", err)
		return nil, nil, tui.ExitFailed
	}
	run := func(ctx context.Context, pr int, events chan<- core.Event) (core.Result, error) {
		tok, _, err := sess.resolve(ctx)
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, err
		}
		client, err := sess.client(tok)
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, err
		}
		user, _, err := client.Users.Get(ctx, "")
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, errors.New("could not read which account this token is: " + err.Error())
		}
		s, err := core.New(core.Config{
			Client: client, Owner: sess.owner, Repo: sess.repo, Viewer: user.GetLogin(),
			Log: actions.OpenLog(logDir, nil), WorkDir: work, Local: local,
			// In solo mode GitHub refuses self-approval, so a recorded
			// bypass is the only pass; ship still refuses it in every case
			// the seed names, and a review that passes comes first.
			SoloBypass: true,
			Presence:   approval,
			Terminal:   e.stdinIsTerminal && e.stdoutIsTerminal,
			Env:        e.getenv,
			CI:         inv.Global.CI,
		})
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, err
		}
		return s.Run(ctx, pr, events)
	}
	return ship.New(ctx, common, ship.Options{
		PR: pr, Run: run,
		Summary: func(r core.Result) []string { return pack.Summary(r.Pack) },
	}), cleanup, tui.ExitOK
}
