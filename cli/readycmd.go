package cli

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	build "github.com/aayudha/aayu/actions/packbuild"
	core "github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/screens/ready"
	"github.com/aayudha/aayu/tui"
)

// readyScreen wires `aayu ready STORY [--again]`. Freezing the goal is the
// person's act: aayu's own lane and CI are refused before anything is
// read, and a process without a terminal (or with an agent host's marker)
// approves by the presence check once the reads found something to write.
// --dry-run writes nothing, so it needs no person and any lane may run it.
func (w wiring) readyScreen() (tui.Screen, error) {
	ctx, inv, e, sess, common := w.ctx, w.inv, w.e, w.sess, w.common
	story, err := build.ParseStory(inv.Args[0])
	if err != nil {
		return nil, openErr(tui.ExitUsage, "%v", err)
	}
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, "which repository? Give --repo OWNER/NAME (or --sandbox for the demo). Nothing was done.")
	}
	again, dryRun := inv.Flags["again"] == "true", inv.Global.DryRun
	command := core.Command(story, again)
	client := func(ctx context.Context) (*github.Client, error) {
		tok, _, err := sess.resolve(ctx)
		if err != nil {
			return nil, err
		}
		return sess.client(tok)
	}
	read := func(ctx context.Context) (core.Plan, error) {
		gh, err := client(ctx)
		if err != nil {
			return core.Plan{}, err
		}
		return core.Read(ctx, core.Options{Client: gh, Owner: sess.owner, Repo: sess.repo, Story: story, Again: again})
	}
	if !dryRun {
		d := identity.RequireHuman(identity.HumanCheck{Command: command, Env: e.getenv,
			Terminal: e.personsTerminal(), CI: inv.Global.CI, Need: identity.AccessWrite})
		switch d.Outcome {
		case identity.Refused:
			return nil, openErr(tui.ExitRefused, "refused: %s; freezing a Story's goal is the person's act.\nNothing was done. (aayu ready %d --dry-run shows the goal and its hash and writes nothing; any lane may run it.)", d.Reason, story)
		case identity.NeedsPresence:
			// As ship does: everything that only reads comes first, so a
			// refusal or a goal already frozen never asks for a code; the
			// presence check comes only before a write, and the question
			// then shows the goal as it was read.
			plan, err := read(ctx)
			if err == nil && !plan.Same {
				if _, code, ok := w.presenceFor(login.Request{Command: command, Need: identity.AccessWrite,
					Approving: []string{fmt.Sprintf("Freezes the Completion Goal of #%d of %s/%s as its Ready snapshot on the ledger and labels it status:ready, as you.", story, sess.owner, sess.repo)},
				}); !ok {
					return nil, &openError{code: code} // the presence check said why
				}
			}
			read = func(context.Context) (core.Plan, error) { return plan, err }
		}
	}
	return ready.New(ctx, common, ready.Deps{
		Story: story, Again: again, DryRun: dryRun, Read: read,
		Apply: func(ctx context.Context, p core.Plan) (core.Result, error) {
			gh, err := client(ctx)
			if err != nil {
				return core.Result{}, err
			}
			return core.Apply(ctx, gh, p, nil)
		},
	}), nil
}
