package cli

import (
	"context"
	"fmt"

	build "github.com/aayudha/aayu/actions/packbuild"
	core "github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/screens/plan"
	"github.com/aayudha/aayu/tui"
)

// planScreen wires `aayu plan STORY [--solo-bypass]`. A plan review, and
// more so its bypass, is the person's act: aayu's own lane and CI are
// refused before anything is read, and a process without a terminal (or
// with an agent host's marker) approves by the presence check — as an
// admin for the bypass — once the reads found something to write; the
// bypass is then judged again with that approval (identity.SoloBypassRefusals,
// as ship judges its own). --dry-run writes nothing, so any lane may run it.
func (w wiring) planScreen() (tui.Screen, error) { return w.planScreenWith(nil) }

// planScreenWith is planScreen with an approval already given (the inbox
// session's, when a card opened it): it covers the presence check and is
// the approval the bypass is judged with, as ship's from the inbox is.
func (w wiring) planScreenWith(given *identity.Session) (tui.Screen, error) {
	ctx, inv, e, sess, common := w.ctx, w.inv, w.e, w.sess, w.common
	story, client, err := w.storyCommand()
	if err != nil {
		return nil, err
	}
	bypass, dryRun := inv.Flags["solo-bypass"] == "true", inv.Global.DryRun
	command := core.Command(story, bypass)
	terminal := e.personsTerminal()
	need := identity.NeedFor(bypass)
	// Whether a person is here is decided once for the whole command: the
	// refusal below and the bypass's judgement in every read use it.
	here := identity.Here(identity.HumanCheck{Command: command, Env: e.getenv, Terminal: terminal, CI: inv.Global.CI})
	session := given
	read := func(ctx context.Context) (core.Review, error) {
		gh, err := client(ctx)
		if err != nil {
			return core.Review{}, err
		}
		user, _, err := gh.Users.Get(ctx, "")
		if err != nil {
			return core.Review{}, fmt.Errorf("could not read which account this token is: %w", err)
		}
		return core.Read(ctx, core.Options{Client: gh, Owner: sess.owner, Repo: sess.repo, Story: story, Viewer: user.GetLogin(),
			SoloBypass: bypass, Env: e.getenv, Terminal: terminal, CI: inv.Global.CI, Session: session, Here: &here})
	}
	if !dryRun {
		d := here.With(given, command, need)
		switch d.Outcome {
		case identity.Refused:
			return nil, openErr(tui.ExitRefused, "refused: %s; a plan review, and its solo-mode bypass, is the person's act.\nNothing was done. (aayu plan %d --dry-run shows the plan and its never layers and writes nothing; any lane may run it.)", d.Reason, story)
		case identity.NeedsPresence:
			// As ship does: the reads come first, judged as if the approval
			// the presence check asks for next were given, so a refusal or a
			// plan already recorded never asks for a code; then the bypass is
			// judged again with the approval the person really gave.
			session = &identity.Session{Command: command, Access: need, Method: "the presence check, asked next"}
			r, err := read(ctx)
			if err == nil && r.NotNeeded == "" && !r.Same {
				approved, code, ok := w.presenceFor(login.Request{Command: command, Need: need, MustBe: r.Record.RecordedBy, Approving: approving(r)})
				if !ok {
					return nil, &openError{code: code} // the presence check said why
				}
				session = approved
				r, err = read(ctx)
			}
			read = func(context.Context) (core.Review, error) { return r, err }
		}
	}
	return plan.New(ctx, common, plan.Deps{
		Story: story, SoloBypass: bypass, DryRun: dryRun, Read: read,
		Apply: func(ctx context.Context, r core.Review) (core.Result, error) {
			gh, err := client(ctx)
			if err != nil {
				return core.Result{}, err
			}
			return core.Apply(ctx, gh, r, nil)
		},
	}), nil
}

// approving is what the presence check asks the person to approve.
func approving(r core.Review) []string {
	what := fmt.Sprintf("Records your review of the plan of #%d of %s/%s (never layers %v): a comment on the Story and the record on the ledger, as you.", r.Story, r.Owner, r.Repo, r.LayerIDs())
	if r.Bypass() {
		what = fmt.Sprintf("Records your solo-mode bypass of the plan review of #%d of %s/%s (never layers %v): no review happened; a Solo-mode bypass: comment on the Story and the record on the ledger, as you.", r.Story, r.Owner, r.Repo, r.LayerIDs())
	}
	return []string{what}
}

// planCommand is aayu plan's table entry and run.
func planCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "plan",
			Group: "daily",
			Arg:   "STORY",
			Short: "the plan-time review a never-layer change needs",
			Long: "Show the Story's Plan and the never layers it (and its pull request) touches, and record your plan review " +
				"as a person who is not the builder: a Plan reviewed: comment on the Story and specs/STORY/plan-review.json on the ledger, on your yes.\n" +
				"In solo mode --solo-bypass records that no review happened instead (a Solo-mode bypass: comment and the record), " +
				"with every refusal ship's bypass has.\n" +
				"In a host agent's lane (a host's marker, no terminal) it posts a batch for the person instead: the review is their reply " +
				"Approve batch HASH, or aayu approve HASH at their own terminal, never a comment by the bot.",
			Example: "aayu plan 131\naayu plan 131 --solo-bypass\n# the plan, the layers and the writes; writes nothing\naayu plan 131 --dry-run",
			Flags: []tui.FlagDef{
				{Name: "solo-bypass", Usage: "in solo mode, record a Solo-mode bypass instead of a review"},
			},
		},
		run:       screenRun(wiring.planScreen),
		batch:     wiring.runPlanBatch,
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			if story, err := build.ParseStory(firstArg(inv)); err == nil {
				return core.Command(story, inv.Flags["solo-bypass"] == "true")
			}
			return ""
		},
	}
}
