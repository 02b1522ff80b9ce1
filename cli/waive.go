package cli

import (
	"errors"
	"fmt"

	core "github.com/aayudha/aayu/actions/waive"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/model/waiver"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// runWaive is `aayu waive PR --floor NAME --why TEXT [--head SHA]`: the
// person opens a floor-waiver Decision for the pull request's current
// head, after ship refused it for that floor. Opening one is the person's
// act, so no agent lane may (aayu's own lane and CI are refused; a host
// agent's marker or a process without a terminal asks for the presence
// check). It waives nothing yet: the Decision is a one-way door, accepted
// with aayu decide, and only then does ship take the floor as waived.
// --dry-run reads and says what it would open, writing nothing.
func (w wiring) runWaive() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	say := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "aayu waive: "+format+"\n", args...)
		return code
	}
	pr, err := core.ParsePR(inv.Args[0])
	if err != nil {
		return say(tui.ExitUsage, "%v. Nothing was done.", err)
	}
	floor, why := inv.Flags["floor"], inv.Flags["why"]
	if floor == "" || waiver.OneLine(why) == "" {
		return say(tui.ExitUsage, "a waiver names the floor and why: aayu waive %d --floor coverage --why \"…\". Nothing was done.", pr)
	}
	if sess.owner == "" {
		return say(tui.ExitUsage, whichRepository)
	}
	command, dryRun := core.Command(pr, floor), inv.Global.DryRun
	var d identity.Decision
	if !dryRun {
		d = identity.RequireHuman(identity.HumanCheck{Command: command, Env: e.getenv,
			Terminal: e.personsTerminal(), CI: inv.Global.CI, Need: identity.AccessWrite})
		if d.Outcome == identity.Refused {
			return say(tui.ExitRefused, "refused: %s; opening a floor waiver is the person's act, never an agent's.\nNothing was done.", d.Reason)
		}
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		return say(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	client, err := sess.client(tok)
	if err != nil {
		return say(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	plan, err := core.Read(ctx, core.Options{Client: client, Owner: sess.owner, Repo: sess.repo, PR: pr, Floor: floor, Why: why, Head: inv.Flags["head"]})
	var refusal *exitcode.Refusal
	if errors.As(err, &refusal) {
		return say(tui.ExitRefused, "refused: %s.\nNothing was done.", refusal.Reason)
	}
	if err != nil {
		return say(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	q := plan.Request
	if plan.Existing != 0 {
		fmt.Fprintf(e.stdout, "Decision #%d already asks to waive floor %s of #%d at head %s; nothing was opened.\nNext: accept it with aayu decide %d --accept %d, then aayu ship %d.\n",
			plan.Existing, q.Floor, q.PR, gitsha.Short(q.Head), plan.Existing, waiver.WaiveOption, q.PR)
		return tui.ExitOK
	}
	if dryRun {
		fmt.Fprintf(e.stdout, "Would open a floor-waiver Decision (labels %s, %s), writing nothing now (--dry-run):\n%s\n\n%s",
			waiver.LabelDecision, waiver.Label, waiver.Title(q), waiver.Body(q))
		return tui.ExitOK
	}
	if d.Outcome == identity.NeedsPresence {
		if _, code, ok := w.presenceFor(login.Request{Command: command, Need: identity.AccessWrite,
			Approving: []string{fmt.Sprintf("Opens a floor-waiver Decision on %s/%s as you: floor %s of #%d at head %s. It waives nothing until you accept it.",
				sess.owner, sess.repo, q.Floor, q.PR, gitsha.Short(q.Head))}}); !ok {
			return code // the presence check said why
		}
	}
	n, link, err := core.Open(ctx, client, sess.owner, sess.repo, plan)
	if err != nil {
		return say(tui.ExitFailed, "%v", err)
	}
	fmt.Fprintf(e.stdout, "Opened Decision #%d: %s\n%s\nIt waives nothing yet. It is a one-way door: accept it with aayu decide %d --accept %d (or from aayu inbox), then aayu ship %d.\n",
		n, waiver.Title(q), untrusted.Line(link), n, waiver.WaiveOption, q.PR)
	return tui.ExitOK
}

// waiveCommand is aayu waive's table entry and run.
func waiveCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "waive",
			Group: "daily",
			Arg:   "PR",
			Short: "open a floor-waiver Decision for a pull request's head",
			Long: "Open a floor-waiver Decision: floor NAME of the pull request's current head may fail, for the reason given. " +
				"It waives nothing until you accept it (aayu decide N --accept 1, a one-way door); then ship takes that floor, for that head only, as waived.",
			Example: "aayu waive 6 --floor coverage --why \"the specialist case is covered by the manual drill\"",
			Flags: []tui.FlagDef{
				{Name: "floor", Value: "NAME", Usage: "the floor that does not hold, as the pack's checks name it (coverage, vet, tests …)"},
				{Name: "why", Value: "TEXT", Usage: "why the floor may fail for this head, kept in the Decision and the ledger's record"},
				{Name: "head", Value: "SHA", Usage: "the head you read the failing floor of; refused unless it is the pull request's head now"},
			},
		},
		run:       wiring.runWaive,
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			if pr, err := core.ParsePR(firstArg(inv)); err == nil && inv.Flags["floor"] != "" {
				return core.Command(pr, inv.Flags["floor"])
			}
			return ""
		},
	}
}
