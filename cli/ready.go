package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	build "github.com/aayudha/aayu/actions/packbuild"
	core "github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/ghx"
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
func (w wiring) readyScreen() (tui.Screen, error) { return w.readyScreenWith(nil) }

// readyScreenWith is readyScreen with an approval already given (the inbox
// session's, when a card opened it), which covers the presence check as
// it covers ship's from the inbox.
func (w wiring) readyScreenWith(given *identity.Session) (tui.Screen, error) {
	ctx, inv, e, sess, common := w.ctx, w.inv, w.e, w.sess, w.common
	story, client, err := w.storyCommand()
	if err != nil {
		return nil, err
	}
	again, dryRun := inv.Flags["again"] == "true", inv.Global.DryRun
	command := core.Command(story, again)
	read := func(ctx context.Context) (core.Plan, error) {
		gh, err := client(ctx)
		if err != nil {
			return core.Plan{}, err
		}
		return core.Read(ctx, core.Options{Client: gh, Owner: sess.owner, Repo: sess.repo, Story: story, Again: again})
	}
	if !dryRun {
		d := identity.RequireHuman(identity.HumanCheck{Command: command, Env: e.getenv,
			Terminal: e.personsTerminal(), CI: inv.Global.CI, Need: identity.AccessWrite, Session: given})
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

// readyCommand is aayu ready's table entry and run.
func readyCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "ready",
			Group: "daily",
			Arg:   "STORY",
			Short: "freeze the Story's Completion Goal as its Ready snapshot",
			Long: "Freeze the Story's Completion Goal as its Ready snapshot on the ledger, on your yes.\n" +
				"--again freezes it anew after the goal changed.",
			Example: "aayu ready 131\naayu ready 131 --again",
			Flags: []tui.FlagDef{
				{Name: "again", Usage: "freeze it again: the Completion Goal changed"},
			},
		},
		run:       screenRun(wiring.readyScreen),
		batch:     wiring.runReadyBatch,
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			if story, err := build.ParseStory(firstArg(inv)); err == nil {
				return core.Command(story, inv.Flags["again"] == "true")
			}
			return ""
		},
	}
}

// runReadyBatch is `aayu ready STORY [--again]` in an agent lane:
// freezing a goal is the person's act, so the agent's command becomes a
// batch of one step, read as the person's run reads it (a refusal, or a
// goal frozen already, posts nothing), and applied on approval by
// actions/ready itself, with the approver named on the ledger commit.
func (w wiring) runReadyBatch() int {
	story, err := build.ParseStory(w.inv.Args[0])
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu ready: %v\n", err)
		return tui.ExitUsage
	}
	again := w.inv.Flags["again"] == "true"
	return w.runBatch(core.Command(story, again), func(ctx context.Context, gh *github.Client, person, _ string) (approve.Record, error) {
		o, r := w.sess.owner, w.sess.repo
		p, err := core.Read(ctx, core.Options{Client: gh, Owner: o, Repo: r, Story: story, Again: again})
		if err != nil {
			return approve.Record{}, err
		}
		if p.Same {
			return approve.Record{}, errNothingToApprove{fmt.Sprintf("#%d is already frozen with completion_goal_hash %s; nothing to approve.", story, p.Hash[:12])}
		}
		is, _, err := gh.Issues.Get(ctx, o, r, story)
		if err != nil {
			return approve.Record{}, fmt.Errorf("reading #%d: %s", story, ghx.Describe(err))
		}
		return approve.NewRecordOf(o+"/"+r, []approve.Item{approve.NewReadyItem(p, again, is.GetTitle(), is.GetBody())}, person, "", "", time.Now())
	})
}
