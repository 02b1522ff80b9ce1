package main

import (
	"context"
	"fmt"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/initrepo"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// initScreen wires `aayu init`: a person's step (it proposes the gates and
// may set the variable that names the presence check's App), so an agent
// lane and CI are refused and a process without a terminal is asked for
// the presence check first.
func initScreen(ctx context.Context, inv tui.Invocation, e env, cfg *config.Config, sess *session, common tui.Common) (tui.Screen, int) {
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu init: which repository? Give --repo OWNER/NAME (or run it in a checkout whose origin is on GitHub). Nothing was done.")
		return nil, tui.ExitUsage
	}
	opts := core.Options{
		Owner: sess.owner, Repo: sess.repo, ClientID: inv.Flags["client-id"],
		Gates: inv.Flags["gates"] == "true", Identity: inv.Flags["identity"] == "true",
	}
	if opts.ClientID != "" {
		if err := core.CheckClientID(opts.ClientID); err != nil {
			fmt.Fprintf(e.stderr, "aayu init: refused: %s\n", tui.SanitizeLine(err.Error()))
			return nil, tui.ExitRefused
		}
		opts.Identity = true
	}
	need := identity.AccessWrite
	if opts.ClientID != "" {
		need = identity.AccessAdmin
	}
	if _, code, ok := presenceFor(ctx, inv, e, cfg, sess, common, login.Request{
		Command: "aayu init", Need: need,
		Approving: []string{fmt.Sprintf("Opens a pull request on %s/%s that sets up the merge gate, the protected-paths gate and the policy.", sess.owner, sess.repo)},
	}); !ok {
		return nil, code
	}
	return initrepo.New(ctx, common, initrepo.Deps{
		Yes: inv.Flags["yes"] == "true", DryRun: inv.Global.DryRun,
		Identity: opts.Identity || !opts.Gates,
		Guide:    core.AppGuide(sess.webURL(), sess.owner, sess.repo),
		Read: func(ctx context.Context) (core.Plan, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return core.Plan{}, err
			}
			gh, err := sess.client(tok)
			if err != nil {
				return core.Plan{}, err
			}
			user, _, err := gh.Users.Get(ctx, "")
			if err != nil {
				return core.Plan{}, fmt.Errorf("could not read which account this token is: %w", err)
			}
			o := opts
			o.Client, o.Login = gh, user.GetLogin()
			return core.Read(ctx, o)
		},
		Apply: func(ctx context.Context, p core.Plan) (core.Result, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return core.Result{}, err
			}
			gh, err := sess.client(tok)
			if err != nil {
				return core.Result{}, err
			}
			return core.Apply(ctx, gh, p)
		},
	}), tui.ExitOK
}
