package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/approve"
	core "github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/screens/decide"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// decideScreen wires `aayu decide N[,M…] --accept K[,L…] [--note TEXT]`,
// the inbox's Decision step from the command line: the inbox's read, its
// cards' choices and its executor. Accepting a Decision is the person's
// act: a host agent's tool call never reaches this screen (agentBatch
// sends it to runDecideBatch: its picks become a batch for the person's
// approval), aayu's own lane and CI are refused, and a marked shell with a
// terminal asks for the presence check, as ship does; a process
// without a terminal approves by the presence check once the reads found
// something to write. --dry-run writes nothing, and any lane may run it.
func (w wiring) decideScreen() (tui.Screen, error) {
	ctx, inv, e, sess, common := w.ctx, w.inv, w.e, w.sess, w.common
	picks, err := core.ParsePicks(inv.Args[0], inv.Flags["accept"])
	if err != nil {
		return nil, openErr(tui.ExitUsage, "%v. Nothing was done.", err)
	}
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	command, dryRun := core.Command(picks), inv.Global.DryRun
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	client, err := sess.client(tok)
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	reader := inboxread.New(client, sess.owner, sess.repo, inboxread.Options{})
	read := func(ctx context.Context) (core.Plan, error) {
		return core.Read(ctx, core.Options{Client: client, Reader: reader, Owner: sess.owner, Repo: sess.repo, Picks: picks, Note: inv.Flags["note"]})
	}
	if !dryRun {
		d := identity.RequireHuman(identity.HumanCheck{Command: command, Env: e.getenv,
			Terminal: e.personsTerminal(), CI: inv.Global.CI, Need: identity.AccessWrite})
		switch d.Outcome {
		case identity.Refused:
			return nil, openErr(tui.ExitRefused, "refused: %s; accepting a Decision is the person's act.\nNothing was done. (%s --dry-run shows what it would write and writes nothing; any lane may run it.)", d.Reason, command)
		case identity.NeedsPresence:
			// As ready does: the reads come first, so a refusal never asks
			// for a code; the presence check comes only before a write.
			plan, err := read(ctx)
			if err == nil {
				if _, code, ok := w.presenceFor(login.Request{Command: command, Need: identity.AccessWrite,
					Approving: []string{fmt.Sprintf("Accepts %d %s of %s/%s as you: for each, a comment, the label status:accepted and the issue closed%s.",
						len(plan.Items), tui.Plural(len(plan.Items), "Decision", "Decisions"), sess.owner, sess.repo, waiverWords(plan))},
				}); !ok {
					return nil, &openError{code: code} // the presence check said why
				}
			}
			read = func(context.Context) (core.Plan, error) { return plan, err }
		}
	}
	logDir, err := actions.DefaultLogDir(e.getenv)
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	return decide.New(ctx, common, decide.Deps{
		Command: command, DryRun: dryRun, Read: read,
		Apply: func(ctx context.Context, p core.Plan) []core.Result {
			ex, err := actions.NewExecutor(actions.ExecutorConfig{
				Client: client, Owner: sess.owner, Repo: sess.repo, Viewer: p.Viewer.Raw(),
				Reread: core.Reread(reader, p.Snapshot()), Log: actions.OpenLog(logDir, nil),
			})
			if err != nil {
				return failAll(p, err)
			}
			return core.Apply(ctx, ex, p)
		},
	}), nil
}

// failAll is every pick not done because the writes could not start.
func failAll(p core.Plan, err error) []core.Result {
	out := make([]core.Result, len(p.Items))
	for i, it := range p.Items {
		out[i] = core.Result{Item: it, Tried: i == 0}
		if i == 0 {
			out[i].Outcome.Failure = &actions.Failure{What: "Nothing was written: " + err.Error(),
				Changed: "Nothing changed on GitHub.", Next: "Check your token with aayu auth, then run the same command again."}
		}
	}
	return out
}

// decideCommand is aayu decide's table entry and run.
func decideCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "decide",
			Group: "daily",
			Arg:   "DECISION[,DECISION…]",
			Short: "accept Decision options, as the inbox does",
			Long: "Accept option K of Decision N (each N with its K, in order), with the inbox's own writes. " +
				"A pick that is not the recommendation, or any pick of a one-way door, asks first; --note is kept in the actions log.",
			Example: "aayu decide 7 --accept 2\naayu decide 7,9 --accept 2,1 --note \"after the call\"",
			Flags: []tui.FlagDef{
				{Name: "accept", Value: "K[,L…]", Usage: "the option to accept for each Decision, in the same order"},
				{Name: "note", Value: "TEXT", Usage: "a note kept beside each acceptance in the actions log"},
			},
		},
		run:       screenRun(wiring.decideScreen),
		batch:     wiring.runDecideBatch,
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			if picks, err := core.ParsePicks(firstArg(inv), inv.Flags["accept"]); err == nil {
				return core.Command(picks)
			}
			return ""
		},
	}
}

// runDecideBatch is `aayu decide` in an agent lane: accepting a Decision
// is the person's act, so the agent's picks become one batch, posted as
// the bot on the first Decision, its record on the ledger, and — unless
// the repository can prove a reply — a device code the person approves
// on any device, which this process waits for and then applies.
func (w wiring) runDecideBatch() int {
	picks, err := core.ParsePicks(w.inv.Args[0], w.inv.Flags["accept"])
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu decide: %v. Nothing was done.\n", err)
		return tui.ExitUsage
	}
	return w.runBatch(core.Command(picks), func(ctx context.Context, gh *github.Client, person, poster string) (approve.Record, error) {
		plan, err := core.Read(ctx, core.Options{Client: gh, Reader: inboxread.New(gh, w.sess.owner, w.sess.repo, inboxread.Options{Viewer: poster}),
			Owner: w.sess.owner, Repo: w.sess.repo, Picks: picks, Authority: &identity.Account{Login: person}})
		if err != nil {
			return approve.Record{}, err
		}
		return approve.NewRecord(plan, person, "", "", time.Now())
	})
}

// waiverWords adds what accepting a floor waiver also writes: its record
// on the ledger, which lets ship take that floor for that head, and the
// re-run of the gate's failed run on that head, which reads it.
func waiverWords(p core.Plan) string {
	for _, it := range p.Items {
		for _, w := range it.Choice.Writes {
			if w.Kind == model.WriteLedgerWaiver {
				return "; a floor waiver also lands its record on the ledger, and ship then takes that floor of that head as waived; the merge gate's failed run on that head runs again to read it"
			}
		}
	}
	return ""
}
