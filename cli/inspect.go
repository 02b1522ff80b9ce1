package cli

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/decide"
	core "github.com/aayudha/aayu/actions/inspect"
	"github.com/aayudha/aayu/actions/inspect/reviewer"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	inspectscreen "github.com/aayudha/aayu/screens/inspect"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// inspectCommand is aayu inspect's table entry and run.
func inspectCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "inspect",
			Group: "daily",
			Arg:   "PR",
			Short: "inspect's judgement of the head; --approve records your review of it",
			Long: "Inspect's judgement of the pull request's head, as the merge gate's own run posted it: the rung, each criterion against its mapped tests, " +
				"the reviewer's reasons and spend. --approve --note records your review of that head: the inbox's \"approve its head\", the same record and reply. " +
				"In the merge gate, --ci judges the head from the pack folder --dir and writes the judgement to --out.",
			Example: "aayu inspect 4\naayu inspect 4 --approve --note \"ran it; the greeting is right\"",
			Flags: []tui.FlagDef{
				{Name: "approve", Usage: "record your review of the head shown (the [autonomy] approver only)"},
				{Name: "note", Value: "TEXT", Usage: "one line on what you checked (with --approve)"},
				{Name: "dir", Value: "DIR", Usage: "the pack folder the gate's pack job built (--ci)"},
				{Name: "out", Value: "DIR", Usage: "where the gate's inspect job writes its judgement (--ci)"},
			},
		},
		// Only --approve is the person's act (runInspect refuses it in an
		// agent's lane); reading the judgement is any lane's, and --ci
		// reads with the workflow's token.
		run:   wiring.runInspect,
		token: func(inv tui.Invocation) bool { return !inv.Global.CI },
		person: func(inv tui.Invocation) string {
			return strings.TrimSpace("aayu inspect " + firstArg(inv) + " --approve --note \"…\"")
		},
	}
}

// runInspect routes aayu inspect: the gate's job with --ci, the person's
// review with --approve, else the judgement, read-only.
func (w wiring) runInspect() int {
	inv, e := w.inv, w.e
	pr, err := strconv.Atoi(strings.TrimPrefix(firstArg(inv), "#"))
	if err != nil || pr <= 0 {
		fmt.Fprintln(e.stderr, "aayu inspect PR: name the pull request by its number. Nothing was done.")
		return tui.ExitUsage
	}
	if w.sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu inspect: "+whichRepository)
		return tui.ExitUsage
	}
	switch {
	case inv.Global.CI:
		return w.runInspectCI(pr)
	case inv.Flags["approve"] == "true" && agentBatch(inv, e):
		return w.refuseInspectApprove()
	case inv.Flags["approve"] == "true":
		return w.runInspectApprove(pr)
	}
	return w.runInspectView(pr)
}

// refuseInspectApprove is aayu inspect --approve in a host agent's lane
// (agentBatch): the person's review of a head, which no agent gives or
// asks for in a batch, is refused and names the command the person runs.
// aayu's own lane is refused by the presence rule (identity.RequireHuman).
func (w wiring) refuseInspectApprove() int {
	fmt.Fprintf(w.e.stderr, "aayu inspect: refused: an agent's lane (%s) cannot approve a head; a review is the person's act, and it is never a batch item.\nThe person runs, at their own terminal: aayu inspect %s --approve --note \"…\"\nNothing was done.\n",
		tui.SanitizeLine(agentMarker(w.e)), tui.SanitizeLine(firstArg(w.inv)))
	return tui.ExitRefused
}

// agentMarker names the agent marker set in e, for a refusal's words.
func agentMarker(e env) string {
	if _, marker := identity.AgentLane(e.getenv); marker != "" {
		return marker + " is set"
	}
	return "an agent's marker is set"
}

// runInspectCI is the merge gate's inspect job: it judges the head from
// the pack folder --dir and writes the judgement to --out. It reads only,
// with the workflow's token; the reviewer's key is the step's
// AAYUDHA_REVIEWER_KEY and reaches the endpoint alone.
func (w wiring) runInspectCI(pr int) int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	if inv.Flags["dir"] == "" || inv.Flags["out"] == "" {
		fmt.Fprintln(e.stderr, "aayu inspect PR --ci needs --dir (the pack job's folder) and --out (where the judgement goes). Nothing was done.")
		return tui.ExitUsage
	}
	if lane, marker := identity.AgentLane(e.getenv); lane {
		fmt.Fprintf(e.stderr, "aayu inspect --ci refuses an agent lane (%s is set): the gate's judgement is made only inside the merge gate's Actions run. Nothing was done.\n", marker)
		return tui.ExitRefused
	}
	if e.getenv("GITHUB_ACTIONS") != "true" || e.getenv("GITHUB_TOKEN") == "" {
		fmt.Fprintln(e.stderr, "aayu inspect --ci runs only inside the merge gate's Actions run, with the workflow's GITHUB_TOKEN. Nothing was done.")
		return tui.ExitRefused
	}
	gh, err := sess.client(ghx.NewToken(e.getenv("GITHUB_TOKEN"), "the workflow's GITHUB_TOKEN"))
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: %v\n", err)
		return tui.ExitFailed
	}
	key := e.getenv(reviewer.KeyVariable)
	j, err := core.Run(ctx, core.Config{Client: gh, Owner: sess.owner, Repo: sess.repo, PR: pr, Dir: inv.Flags["dir"],
		NewReviewer: func(s core.Settings) (core.Reviewer, error) {
			return reviewer.New(s, key, &http.Client{Timeout: 3 * time.Minute})
		}})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: %s\nNo judgement was made.\n", tui.SanitizeLine(withoutKey(err.Error(), key)))
		return tui.ExitFailed
	}
	if err := core.Write(inv.Flags["out"], j); err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: %v\n", err)
		return tui.ExitFailed
	}
	state, desc := j.Status()
	fmt.Fprintf(e.stdout, "aayudha/inspect on %s: %s %s\n", j.Head, state, untrusted.Line(desc))
	return tui.ExitOK
}

// runInspectView shows inspect's judgement of the head: the full screen
// (screens/inspect) on a terminal, else the same lines printed. It writes
// nothing, in any lane.
func (w wiring) runInspectView(pr int) int {
	ctx, e, sess := w.ctx, w.e, w.sess
	if !w.common.Plain {
		return w.runScreen(func() (tui.Screen, error) { return w.inspectScreen(pr), nil })
	}
	gh, ok := w.inspectClient()
	if !ok {
		return tui.ExitFailed
	}
	v, err := core.ReadView(ctx, gh, sess.owner, sess.repo, pr)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	for _, l := range core.ViewLines(v) {
		fmt.Fprintln(e.stdout, l)
	}
	return tui.ExitOK
}

// inspectScreen is the full screen of aayu inspect PR, reading with the
// person's token as the plain view does.
func (w wiring) inspectScreen(pr int) tui.Screen {
	sess := w.sess
	owner, repo := sess.owner, sess.repo
	return inspectscreen.New(w.ctx, w.common, inspectscreen.Deps{Repo: owner + "/" + repo, PR: pr,
		Read: func(ctx context.Context) (core.View, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return core.View{}, err
			}
			gh, err := sess.client(tok)
			if err != nil {
				return core.View{}, err
			}
			return core.ReadView(ctx, gh, owner, repo, pr)
		}})
}

// runInspectApprove records the person's review of the head: the inbox's
// "approve its head" on the card for pr, with the same reads, the same
// refusals (only the [autonomy] approver, never an author GitHub refuses,
// only at the human rung), the same presence check and the same executor,
// so the ledger record and the human-review reply are the inbox's own.
func (w wiring) runInspectApprove(pr int) int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	command := fmt.Sprintf("aayu inspect %d --approve", pr)
	note := strings.Join(strings.Fields(inv.Flags["note"]), " ")
	if note == "" {
		fmt.Fprintf(e.stderr, "aayu inspect: refused: approving a head needs one line on what you checked: add --note \"…\".\nNothing was done.\n")
		return tui.ExitRefused
	}
	if inv.Global.DryRun {
		fmt.Fprintln(e.stderr, "aayu inspect --approve --dry-run: run aayu inspect PR (read-only) to see the head and its judgement; nothing was written.")
		return tui.ExitOK
	}
	d := identity.RequireHuman(identity.HumanCheck{Command: command, Env: e.getenv, Terminal: e.personsTerminal(), CI: inv.Global.CI, Need: identity.AccessWrite})
	if d.Outcome == identity.Refused {
		fmt.Fprintf(e.stderr, "aayu inspect: refused: %s; approving a head is the person's act.\nNothing was done.\n", tui.SanitizeLine(d.Reason))
		return tui.ExitRefused
	}
	gh, ok := w.inspectClient()
	if !ok {
		return tui.ExitFailed
	}
	reader := inboxread.New(gh, sess.owner, sess.repo, inboxread.Options{})
	snap, err := reader.Read(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: reading the inbox of %s/%s: %s\nNothing was written.\n", sess.owner, sess.repo, tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	step, choice, refusal := core.ApproveStep(snap, pr)
	if refusal != "" {
		fmt.Fprintf(e.stderr, "aayu inspect: refused: %s.\nNothing was written.\n", tui.SanitizeLine(refusal))
		return tui.ExitRefused
	}
	if d.Outcome == identity.NeedsPresence {
		if _, code, ok := w.presenceFor(login.Request{Command: command, Need: identity.AccessWrite,
			Approving: []string{fmt.Sprintf("Records your review of head %s of #%d in %s/%s: %s.", step.Head, pr, sess.owner, sess.repo, choiceWrites(choice))}}); !ok {
			return code
		}
	}
	logDir, err := actions.DefaultLogDir(e.getenv)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: %v\nNothing was written.\n", err)
		return tui.ExitFailed
	}
	ex, err := actions.NewExecutor(actions.ExecutorConfig{Client: gh, Owner: sess.owner, Repo: sess.repo, Viewer: snap.Viewer,
		Reread: decide.Reread(reader, snap), Log: actions.OpenLog(logDir, nil)})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inspect: %v\nNothing was written.\n", err)
		return tui.ExitFailed
	}
	out := ex.Execute(ctx, actions.Request{Step: step, Choice: choice, Note: note, Command: strings.TrimPrefix(command, "aayu ")})
	for _, l := range out.Wrote {
		fmt.Fprintf(e.stdout, "wrote: %s\n", untrusted.Line(l))
	}
	switch {
	case out.Done:
		fmt.Fprintf(e.stdout, "approved: head %s of #%d, recorded for inspect\n", step.Head, pr)
		return tui.ExitOK
	case out.Changed:
		fmt.Fprintf(e.stderr, "aayu inspect: #%d changed since it was read (%s); nothing more was written. Run aayu inspect %d to see it now.\n", pr, untrusted.Line(out.ChangedWhat), pr)
		return tui.ExitRefused
	case out.Failure != nil:
		fmt.Fprintf(e.stderr, "aayu inspect: %s\n", untrusted.Line(out.Failure.What))
	}
	return tui.ExitFailed
}

// choiceWrites says what the choice writes, for the presence check.
func choiceWrites(c inbox.Choice) string {
	var w []string
	for _, x := range c.Writes {
		switch x.Kind {
		case inbox.WriteReview:
			w = append(w, "an approving review of that head")
		case inbox.WriteLedgerPut:
			w = append(w, "the review record "+x.Path+" on the ledger")
		case inbox.WriteComment:
			w = append(w, "the human-review reply the gate reads")
		}
	}
	return strings.Join(w, ", ")
}

// inspectClient is the person's client for aayu inspect's reads and
// review; false after it said on standard error why there is none.
func (w wiring) inspectClient() (*github.Client, bool) {
	tok, _, err := w.sess.resolve(w.ctx)
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu inspect: %v\nNothing was done.\n", err)
		return nil, false
	}
	gh, err := w.sess.client(tok)
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu inspect: %v\nNothing was done.\n", err)
		return nil, false
	}
	return gh, true
}

// withoutKey takes the reviewer's key out of a message. With no key set
// there is nothing to take: replacing "" would put the mark between every
// character.
func withoutKey(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[the reviewer key]")
}
