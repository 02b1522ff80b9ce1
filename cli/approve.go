package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// runApprove is `aayu approve BATCH`: anyone may run it, at any time; it
// applies the batch only once the person it waits for (or an approver)
// approves a fresh device code, and only once. With --ci it is the reply
// path's step in aayudha-approve.yml (runApproveCI).
func (w wiring) runApprove() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	if inv.Global.CI {
		return w.runApproveCI()
	}
	if len(inv.Args) == 0 {
		fmt.Fprintln(e.stderr, "aayu approve: which batch? Give its 12 hex digits, from the batch comment's first line (aayu approve 3f9c0a1b2d4e). Nothing was done.")
		return tui.ExitUsage
	}
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu approve: "+whichRepository)
		return tui.ExitUsage
	}
	hash := strings.ToLower(strings.TrimSpace(inv.Args[0]))
	lane, marker := identity.AgentLane(e.getenv)
	own := !lane && e.getenv("AAYU_BOT_TOKEN") == ""
	gh, trailers, err := w.approveClient(own)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu approve: %v\nNothing was done.\n", err)
		return tui.ExitFailed
	}
	ledger := approve.Ledger{Client: gh, Owner: sess.owner, Repo: sess.repo, Trailers: trailers}
	st, err := approve.Load(ctx, ledger, hash)
	if err != nil {
		res := approve.Result{}
		if a, ok := approve.IsAlreadyApplied(err); ok {
			// A run cut short after the applied record left the comment
			// as it was: it says what became of the batch now.
			res.Unmarked = approve.MarkClosed(ctx, ledger, st.Record, approve.AppliedWords(a.Applied))
		}
		return reportApplied(e.stdout, e.stderr, hash, "", res, err)
	}
	rec := st.Record
	fmt.Fprintf(e.stdout, "Batch %s on %s/%s waits for @%s:\n%s\n", hash, sess.owner, sess.repo, tui.SanitizeLine(rec.For), tui.Sanitize(st.Rendered))
	if inv.Global.DryRun {
		fmt.Fprintln(e.stdout, "--dry-run: no code was asked for and nothing was written.")
		return tui.ExitOK
	}
	if why := approveNoCode(rec, hash, own, lane && len(trailers) == 0, marker); why != "" {
		fmt.Fprint(e.stdout, why)
		return tui.ExitRefused
	}
	return w.askAndApply(ledger, rec, hash, lane, own)
}

// approveClient is the client approve writes with: the person's own token
// at their terminal (own), else the agent's (the bot's, or the person's in
// solo mode, tagged by trailers).
func (w wiring) approveClient(own bool) (*github.Client, []string, error) {
	var (
		tok      ghx.Token
		trailers []string
		err      error
	)
	if own {
		tok, _, err = w.sess.resolve(w.ctx)
	} else {
		tok, trailers, err = w.agentToken(w.ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	gh, err := w.sess.client(tok)
	return gh, trailers, err
}

// approveNoCode says why no device code is asked for rec, as the lines
// printed, or "": a plan step needs the person's own comment, which a code
// approved outside their terminal cannot make; a host agent's lane with
// only the bot's token (botOnly) cannot ask for a code that proves the
// person (seed 001).
func approveNoCode(rec approve.Record, hash string, own, botOnly bool, marker string) string {
	if !own && rec.HasPlan() {
		r := approve.NeedsOwnComment(rec.For, hash, rec.Issue)
		return fmt.Sprintf("Not applied: %s %s No device code was asked for.\n", tui.SanitizeLine(r.Reason), tui.SanitizeLine(r.Next))
	}
	if botOnly {
		return fmt.Sprintf("Not applied: this is a host agent's lane (%s) holding only the bot's token, which cannot ask for a device code that proves @%s. No device code was asked for.\nThe person runs, at their own terminal: aayu approve %s\n", marker, tui.SanitizeLine(rec.For), hash)
	}
	return ""
}

// askAndApply asks for a device code for rec's person, shows it where the
// person reads it (their terminal, or in an agent's lane the batch's
// issue: an agent's output is no place for the person's code), waits for
// its approval and applies the batch.
func (w wiring) askAndApply(ledger approve.Ledger, rec approve.Record, hash string, lane, own bool) int {
	ctx, e, sess, gh := w.ctx, w.e, w.sess, ledger.Client
	flow := w.deviceFlow(gh)
	code, err := flow.Ask(ctx, time.Now())
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu approve: %s\nNothing was done.\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	if lane {
		c, _, err := gh.Issues.CreateComment(ctx, sess.owner, sess.repo, rec.Issue, &github.IssueComment{Body: github.String(actions.Neutralize(
			fmt.Sprintf("@%s a new device code for batch %s.%s", rec.For, hash, approve.DeviceLines(code.UserCode, code.URI, code.Expires))))})
		if err != nil {
			fmt.Fprintf(e.stderr, "aayu approve: posting the device code on #%d: %s\nNothing was done.\n", rec.Issue, ghx.Describe(err))
			return tui.ExitFailed
		}
		fmt.Fprintf(e.stdout, "A device code for @%s is on #%d: %s\nWaiting for it (until %s UTC).\n", tui.SanitizeLine(rec.For), rec.Issue, c.GetHTMLURL(), code.Expires.UTC().Format("15:04"))
	} else {
		fmt.Fprintf(e.stdout, "On any device, open %s and enter %s (expires at %s UTC), signed in as @%s.\nApprove only if you asked for these steps. Waiting...\n",
			tui.SanitizeLine(code.URI), tui.SanitizeLine(code.UserCode), code.Expires.UTC().Format("15:04"), tui.SanitizeLine(rec.For))
	}
	return w.applyApproved(w.ctx, e.stdout, ledger, flow, code, hash, own, false)
}

// commentEvent is the part of an issue_comment event approve --ci reads:
// only where the reply is. Its text is read again from GitHub, never from
// the event, and never reaches a shell.
type commentEvent struct {
	Comment struct {
		ID int64 `json:"id"`
	} `json:"comment"`
	Issue struct {
		Number int `json:"number"`
	} `json:"issue"`
}

// runApproveCI is the reply path: the run aayudha-approve.yml starts on a
// new issue comment. It applies nothing unless every row of the seed's
// table holds (approve.CheckReply), and answers a refusal on the thread
// with the reason and the next step. A comment that is no batch reply is
// left alone, so the workflow's own answers never start a loop.
func (w wiring) runApproveCI() int {
	ctx, e, sess := w.ctx, w.e, w.sess
	ev, gh, code, ok := w.approveCIStart()
	if !ok {
		return code
	}
	facts, reply, err := gatherReply(ctx, gh, sess.owner, sess.repo, ev.Issue.Number, ev.Comment.ID)
	if err != nil {
		return w.approveCIStop(tui.ExitFailed, "%s. Nothing was applied.", tui.SanitizeLine(err.Error()))
	}
	isApprove, hash, ok := approve.ParseReply(reply.Body)
	if !ok {
		fmt.Fprintln(e.stdout, "The comment is not a batch reply (its first line is not Approve batch HASH or Reject batch HASH); nothing to do.")
		return tui.ExitOK
	}
	ledger := approve.Ledger{Client: gh, Owner: sess.owner, Repo: sess.repo}
	answer := func(body string) {
		if _, _, err := gh.Issues.CreateComment(ctx, sess.owner, sess.repo, ev.Issue.Number, &github.IssueComment{Body: github.String(actions.Neutralize(body))}); err != nil {
			fmt.Fprintf(e.stderr, "aayu approve --ci: answering on #%d: %s\n", ev.Issue.Number, ghx.Describe(err))
		}
	}
	if r := approve.CheckReply(facts); r != nil {
		if (r.Check == approve.CheckEditedBatch || r.Check == approve.CheckRendered) && facts.Stored != nil && facts.Stored.Hash == hash {
			if err := approve.MarkClosed(ctx, ledger, facts.Stored.Record, approve.VoidedChanged); err != nil {
				fmt.Fprintf(e.stderr, "aayu approve --ci: marking batch %s void: %s\n", hash, ghx.Describe(err))
			}
		}
		next := strings.ReplaceAll(r.Next, "HASH", hash)
		answer(fmt.Sprintf("@%s batch %s was not applied: %s\n\nNext: %s", reply.Author.Login, hash, r.Reason, next))
		fmt.Fprintf(e.stdout, "Refused (%s): %s %s\n", r.Check, tui.SanitizeLine(r.Reason), tui.SanitizeLine(next))
		return tui.ExitRefused
	}
	if !isApprove {
		if err := approve.Reject(ctx, ledger, hash, reply.Author.Login, reply.URL, time.Now()); err != nil {
			return w.approveCIStop(tui.ExitFailed, "%s", tui.SanitizeLine(err.Error()))
		}
		answer(fmt.Sprintf("Batch %s was rejected by @%s; nothing of it is applied.", hash, reply.Author.Login))
		fmt.Fprintf(e.stdout, "Batch %s rejected by @%s.\n", hash, tui.SanitizeLine(reply.Author.Login))
		return tui.ExitOK
	}
	return w.applyReply(ledger, reply, hash, answer)
}

// approveCIStop says why approve --ci stops, and ends it with code.
func (w wiring) approveCIStop(code int, format string, args ...any) int {
	fmt.Fprintf(w.e.stderr, "aayu approve --ci: "+format+"\n", args...)
	return code
}

// approveCIStart checks the run is the reply path's own (no agent lane,
// aayudha-approve.yml on an issue_comment event, the App's token) and
// reads the event: where the reply is, and the App's client.
func (w wiring) approveCIStart() (ev commentEvent, gh *github.Client, code int, ok bool) {
	e, sess, stop := w.e, w.sess, w.approveCIStop
	if lane, marker := identity.AgentLane(e.getenv); lane {
		return ev, nil, stop(tui.ExitRefused, "refused: an agent lane (%s) never applies a reply. Nothing was done.", marker), false
	}
	if e.getenv("GITHUB_ACTIONS") != "true" || e.getenv("GITHUB_EVENT_NAME") != "issue_comment" {
		return ev, nil, stop(tui.ExitRefused, "refused: it runs only in aayudha-approve.yml on an issue_comment event. Nothing was done."), false
	}
	if sess.owner == "" {
		if r := e.getenv("GITHUB_REPOSITORY"); r != "" {
			sess.owner, sess.repo, _ = strings.Cut(r, "/")
		}
	}
	raw, err := readCapped(e.getenv("GITHUB_EVENT_PATH"), 1<<20)
	if err != nil {
		return ev, nil, stop(tui.ExitFailed, "reading the event: %v. Nothing was done.", err), false
	}
	if err := json.Unmarshal(raw, &ev); err != nil || ev.Comment.ID == 0 || ev.Issue.Number == 0 {
		return ev, nil, stop(tui.ExitFailed, "the event names no comment on an issue. Nothing was done."), false
	}
	botTok := strings.TrimSpace(e.getenv("AAYU_BOT_TOKEN"))
	if botTok == "" {
		w.answerWithoutTheApp(ev)
		return ev, nil, stop(tui.ExitRefused, "refused: no App token in AAYU_BOT_TOKEN (the workflow mints it from AAYUDHA_APP_CLIENT_ID and AAYUDHA_APP_PRIVATE_KEY); no reply is applied without the App. Nothing was done."), false
	}
	gh, err = sess.client(ghx.NewToken(botTok, "AAYU_BOT_TOKEN"))
	if err != nil {
		return ev, nil, stop(tui.ExitFailed, "%v", err), false
	}
	return ev, gh, 0, true
}

// applyReply applies the batch a reply that passed every check approves,
// and answers on the thread what became of it.
func (w wiring) applyReply(ledger approve.Ledger, reply approve.Comment, hash string, answer func(string)) int {
	e := w.e
	pol, err := readBatchPolicy(w.ctx, ledger.Client, ledger.Owner, ledger.Repo)
	if err != nil {
		return w.approveCIStop(tui.ExitFailed, "%s", tui.SanitizeLine(err.Error()))
	}
	res, err := approve.Apply(w.ctx, approve.ApplyOptions{Ledger: ledger, Hash: hash, Approver: reply.Author, Approvers: pol.approvers,
		BotLogins: append(pol.botLogins, pol.appLogin), AppLogin: pol.appLogin, Method: approve.WayReply, Comment: reply.URL, Ship: w.shipApplier(ledger.Client, pol.appLogin, e.stdout)})
	code := reportApplied(e.stdout, e.stderr, hash, reply.Author.Login, res, err)
	switch {
	case res.Applied != nil:
		answer(fmt.Sprintf("Batch %s applied on @%s's reply: %s.", hash, reply.Author.Login, strings.Join(res.Applied.Results, "; ")))
	case code != tui.ExitOK:
		answer(fmt.Sprintf("@%s batch %s was not applied whole; the run's log says why. Next: reply again with a new comment, or run aayu approve %s.", reply.Author.Login, hash, hash))
	}
	return code
}

// gatherReply reads everything CheckReply judges, from GitHub and the
// ledger, for the reply comment id on issue.
func gatherReply(ctx context.Context, gh *github.Client, owner, repo string, issue int, id int64) (approve.ReplyFacts, approve.Comment, error) {
	var f approve.ReplyFacts
	comments, err := listComments(ctx, gh, owner, repo, issue)
	if err != nil {
		return f, approve.Comment{}, err
	}
	var reply *github.IssueComment
	for _, c := range comments {
		if c.GetID() == id {
			reply = c
		}
	}
	if reply == nil {
		return f, approve.Comment{}, fmt.Errorf("comment %d is not on #%d", id, issue)
	}
	f.Reply = asComment(reply)
	_, hash, ok := approve.ParseReply(f.Reply.Body)
	if !ok {
		return f, f.Reply, nil
	}
	pol, err := readBatchPolicy(ctx, gh, owner, repo)
	if err != nil {
		return f, f.Reply, err
	}
	f.WorkflowOnDefault, f.AppLogin, f.Approvers, f.BotLogins, f.DeviceFor = pol.workflowOn, pol.appLogin, pol.approvers, pol.botLogins, pol.deviceFor
	perm, err := repoPermission(ctx, gh, owner, repo, f.Reply.Author.Login)
	if err != nil {
		return f, f.Reply, err
	}
	f.Reply.Author.Permission = perm
	for _, c := range comments {
		if approve.MarkerIn(c.GetBody()) == hash {
			b := asComment(c)
			f.Batch = &b
			break
		}
	}
	err = gatherLedger(ctx, gh, owner, repo, hash, &f)
	return f, f.Reply, err
}

// gatherLedger reads into f what the ledger holds of batch hash: its
// record, each of its Decisions as it is now, and whether it was closed
// (applied, rejected or superseded).
func gatherLedger(ctx context.Context, gh *github.Client, owner, repo, hash string, f *approve.ReplyFacts) error {
	ledger := approve.Ledger{Client: gh, Owner: owner, Repo: repo}
	if st, found, err := ledger.Stored(ctx, hash); err != nil {
		return err
	} else if found {
		f.Stored = &st
		f.Decisions = map[int]approve.DecisionNow{}
		for _, it := range st.Record.Items {
			is, _, err := gh.Issues.Get(ctx, owner, repo, it.Issue())
			if err != nil && !ghx.IsNotFound(err) {
				return fmt.Errorf("reading #%d: %s", it.Issue(), ghx.Describe(err))
			}
			if err == nil {
				f.Decisions[it.Issue()] = approve.DecisionNow{Number: it.Issue(), Title: is.GetTitle(), Body: is.GetBody(), Found: true}
			}
		}
	}
	if c, found, err := ledger.ClosedAt(ctx, hash); err != nil {
		return err
	} else if found {
		f.Applied, f.Superseded = c.Applied, c.Superseded
	}
	return nil
}

func listComments(ctx context.Context, gh *github.Client, owner, repo string, issue int) ([]*github.IssueComment, error) {
	var all []*github.IssueComment
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := gh.Issues.ListComments(ctx, owner, repo, issue, opts)
		if err != nil {
			return nil, fmt.Errorf("reading the comments of #%d: %s", issue, ghx.Describe(err))
		}
		all = append(all, cs...)
		if resp == nil || resp.NextPage == 0 {
			return all, nil
		}
		opts.Page = resp.NextPage
	}
}

func asComment(c *github.IssueComment) approve.Comment { return approve.AsComment(c) }

// approveCommand is aayu approve's table entry and run.
func approveCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "approve",
			Group: "daily",
			Arg:   "[BATCH]",
			Short: "apply a batch of human-only steps an agent started, once its person approves",
			Long: "Apply batch BATCH (the 12 hex digits in its comment) once the person it waits for approves a device code on any device; " +
				"it is applied once: a second approve says it already was. With --ci (aayudha-approve.yml only) it reads the reply that started the run " +
				"and applies nothing unless every check passes, answering a refusal on the thread.",
			Example: "aayu approve 3f9c0a1b2d4e\naayu approve --ci   # in aayudha-approve.yml",
		},
		run: func(w wiring) int {
			if w.approveAsScreen() {
				return w.runScreen(w.approveScreen)
			}
			return w.runApprove()
		},
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			if arg := firstArg(inv); arg != "" {
				return "aayu approve " + strings.ToLower(strings.TrimSpace(arg))
			}
			return ""
		},
		// approve --ci writes with the App's token (AAYU_BOT_TOKEN) and an
		// agent lane with the bot's: a prompt for the person's is wrong.
		token: never,
	}
}
