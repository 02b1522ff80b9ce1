package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/approve"
	core "github.com/aayudha/aayu/actions/decide"
	doctorcore "github.com/aayudha/aayu/actions/doctor"
	build "github.com/aayudha/aayu/actions/packbuild"
	readycore "github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/basepolicy"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// ApproveWorkflow is the reply path's workflow file (aayu init --gates).
const ApproveWorkflow = ".github/workflows/aayudha-approve.yml"

// agentToken is the token an agent lane writes with: the bot's, as the
// seed's Resolver.Bot orders it (AAYU_BOT_TOKEN, the broker, a machine
// user's token), else — only when no bot identity is configured — the
// person's, tagged human-fallback on every ledger commit.
func (w wiring) agentToken(ctx context.Context) (tok ghx.Token, trailers []string, err error) {
	return agentTokenFrom(ctx, w.botResolver())
}

// agentTokenFrom is agentToken with the resolver given, so tests stage the
// broker and the secrets store. A configured bot that fails is an error:
// the batch is never posted as the person behind the configuration's back.
func agentTokenFrom(ctx context.Context, r ghx.Resolver) (ghx.Token, []string, error) {
	tok, choice, err := r.Bot(ctx)
	if err != nil {
		return ghx.Token{}, nil, fmt.Errorf("finding the bot's token: %w", err)
	}
	if choice.Kind == ghx.BotHumanFallback && choice.Trailer != "" {
		return tok, []string{choice.Trailer}, nil
	}
	return tok, nil, nil
}

// batchPolicy is what the default branch says about approvals: read from
// the base policy reader only, never the checkout or the user's config.
type batchPolicy struct {
	defaultBranch string
	approvers     []string
	deviceFor     []string
	approver      string // autonomy.approver
	botLogins     []string
	appLogin      string // "<slug>[bot]" when the aayudha App is configured
	workflowOn    bool   // aayudha-approve.yml on the default branch and enabled
}

func readBatchPolicy(ctx context.Context, gh *github.Client, owner, repo string) (batchPolicy, error) {
	r, _, err := gh.Repositories.Get(ctx, owner, repo)
	if err != nil {
		return batchPolicy{}, fmt.Errorf("reading %s/%s: %s", owner, repo, ghx.Describe(err))
	}
	p := batchPolicy{defaultBranch: r.GetDefaultBranch()}
	pol, err := basepolicy.Read(ctx, gh, owner, repo, p.defaultBranch)
	if err != nil {
		return p, err
	}
	if rs := pol.Refusals(); len(rs) > 0 {
		return p, errors.New(strings.Join(rs, " "))
	}
	cfg := pol.Config()
	p.approvers, p.deviceFor, p.approver = cfg.Strings("approvals.approvers"), cfg.Strings("approvals.device_for"), cfg.String("autonomy.approver")
	id := pol.Identity()
	p.botLogins = id.BotLogins
	if id.AppSlug != "" {
		p.appLogin = id.AppSlug + "[bot]"
	}
	if _, err := ghx.ReadFile(ctx, gh, owner, repo, pol.Tip(), ApproveWorkflow); err == nil {
		wf, _, err := gh.Actions.GetWorkflowByFileName(ctx, owner, repo, "aayudha-approve.yml")
		p.workflowOn = err == nil && wf.GetState() == "active"
	}
	return p, nil
}

// person is whom a batch waits for: the first of [approvals] approvers,
// else the [autonomy] approver.
func (p batchPolicy) person() string {
	if len(p.approvers) > 0 {
		return p.approvers[0]
	}
	return p.approver
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
	return w.runBatch("decide", core.Command(picks), func(ctx context.Context, gh *github.Client, person, _ string) (approve.Record, error) {
		plan, err := core.Read(ctx, core.Options{Client: gh, Reader: inboxread.New(gh, w.sess.owner, w.sess.repo, inboxread.Options{}),
			Owner: w.sess.owner, Repo: w.sess.repo, Picks: picks, Authority: &identity.Account{Login: person}})
		if err != nil {
			return approve.Record{}, err
		}
		return approve.NewRecord(plan, person, "", "", time.Now())
	})
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
	return w.runBatch("ready", readycore.Command(story, again), func(ctx context.Context, gh *github.Client, person, _ string) (approve.Record, error) {
		o, r := w.sess.owner, w.sess.repo
		p, err := readycore.Read(ctx, readycore.Options{Client: gh, Owner: o, Repo: r, Story: story, Again: again})
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

// errNothingToApprove ends a batch command with exit 0 and nothing
// posted: the step is done already.
type errNothingToApprove struct{ words string }

func (e errNothingToApprove) Error() string { return e.words }

// runBatch is the part every batch command shares: the agent's token, the
// default branch's policy and person, the record (made by read, with the
// person as the authority checked), the way to approve, the ledger record
// and the one comment, then waiting for the device code and applying.
func (w wiring) runBatch(verb, command string, read func(ctx context.Context, gh *github.Client, person, poster string) (approve.Record, error)) int {
	ctx, e, sess := w.ctx, w.e, w.sess
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "aayu "+verb+": "+format+"\n", args...)
		return code
	}
	if sess.owner == "" {
		return fail(tui.ExitUsage, "which repository? Give --repo OWNER/NAME. Nothing was done.")
	}
	tok, trailers, err := w.agentToken(ctx)
	if err != nil {
		return fail(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	gh, err := sess.client(tok)
	if err != nil {
		return fail(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	me, _, err := gh.Users.Get(ctx, "")
	if err != nil {
		return fail(tui.ExitFailed, "reading who this token is: %s\nNothing was done.", ghx.Describe(err))
	}
	poster := me.GetLogin()
	pol, err := readBatchPolicy(ctx, gh, sess.owner, sess.repo)
	if err != nil {
		return fail(tui.ExitFailed, "reading the default branch's policy: %v\nNothing was done.", err)
	}
	person := pol.person()
	if person == "" {
		return fail(tui.ExitRefused, "refused: no person is named to approve a batch ([approvals] approvers or [autonomy] approver on the default branch).\nNothing was done. The person runs %s from their own terminal.", command)
	}
	rec, err := read(ctx, gh, person, poster)
	var refusal *exitcode.Refusal
	var done errNothingToApprove
	switch {
	case errors.As(err, &done):
		fmt.Fprintln(e.stdout, tui.SanitizeLine(done.words))
		return tui.ExitOK
	case errors.As(err, &refusal):
		return fail(tui.ExitRefused, "refused: %s.\nNothing was done.", tui.SanitizeLine(refusal.Reason))
	case err != nil:
		return fail(tui.ExitFailed, "%s\nNothing was done.", tui.SanitizeLine(err.Error()))
	}
	rec.PostedBy, rec.Session = poster, approve.SessionOf(identity.AgentSessionKey(e.getenv))
	ledger := approve.Ledger{Client: gh, Owner: sess.owner, Repo: sess.repo, Trailers: trailers}
	// A step of an agent session whose batch still waits joins it: one
	// batch, one approval for the session's steps (approve/session.go).
	open, joining, err := ledger.OpenSessionBatch(ctx, rec.Session, rec.Repo, person, poster)
	if err != nil {
		return fail(tui.ExitFailed, "reading this agent session's open batch: %s\nNothing was done.", tui.SanitizeLine(err.Error()))
	}
	added := len(rec.Items)
	if joining {
		var jerr error
		if rec, added, jerr = approve.Join(open.Record, rec); jerr != nil {
			var r *approve.Refusal
			if errors.As(jerr, &r) {
				return fail(tui.ExitRefused, "refused: %s %s\nNothing was posted; batch %s still waits.", tui.SanitizeLine(r.Reason), tui.SanitizeLine(r.Next), open.Hash)
			}
			return fail(tui.ExitFailed, "%s\nNothing was posted.", tui.SanitizeLine(jerr.Error()))
		} else if added == 0 {
			fmt.Fprintf(e.stdout, "Batch %s of this agent session already holds %s; it waits for @%s. Nothing new was posted.\n", open.Hash, tui.SanitizeLine(command), tui.SanitizeLine(person))
			return tui.ExitOK
		}
	}
	// The way to approve (seed 001): a reply only where the repository can
	// prove it (the workflow, the App posting, approvers recorded) and
	// this session reaches no approver's credential (doctor's approvals
	// row, the same scan); else a device code. A lane holding only the
	// bot's token cannot ask for a code that proves the person: its batch
	// waits for aayu approve HASH at the person's own terminal.
	solo := len(trailers) > 0
	rec.Way = approve.WayDevice
	if pol.workflowOn && pol.appLogin != "" && identity.SameLogin(poster, pol.appLogin) && len(pol.approvers) > 0 {
		if keep, _ := approve.NeedsDevice(rec, pol.deviceFor); !keep && w.reachesNoApprover(ctx, tok, pol) {
			rec.Way = approve.WayReply
		}
	}
	if rec.Way == approve.WayDevice && !solo {
		rec.Way = approve.WayTerminal
	}
	if joining {
		if err := approve.Supersede(ctx, ledger, open.Hash, rec, time.Now()); err != nil {
			return fail(tui.ExitFailed, "%s\nNothing was posted; batch %s still waits.", tui.SanitizeLine(err.Error()), open.Hash)
		}
	}
	var (
		flow approve.DeviceFlow
		code approve.Code
		askd bool
		why  string
	)
	// A plan review is a comment in the person's own name, which neither
	// the code nor this agent's token can make: a device-code batch with a
	// plan step waits for aayu approve HASH at the person's terminal.
	ownOnly := rec.Way != approve.WayReply && rec.HasPlan()
	if rec.Way == approve.WayDevice && !ownOnly {
		flow = w.deviceFlow(gh)
		if code, err = flow.Ask(ctx, time.Now()); err == nil {
			askd = true
		} else {
			why = err.Error()
		}
	}
	extra := ""
	if askd {
		extra = approve.DeviceLines(code.UserCode, code.URI, code.Expires)
	}
	posted, err := approve.Post(ctx, ledger, rec, extra)
	if err != nil {
		return fail(tui.ExitFailed, "%s\nNothing was applied.", tui.SanitizeLine(err.Error()))
	}
	hash := posted.Stored.Hash
	out := e.stdout
	if joining {
		if err := approve.ReplySuperseded(ctx, ledger, open.Record, rec, added); err != nil {
			fmt.Fprintf(e.stderr, "aayu %s: %s (batch %s is superseded on the ledger all the same)\n", verb, tui.SanitizeLine(err.Error()), open.Hash)
		}
		if err := approve.MarkClosed(ctx, ledger, open.Record, fmt.Sprintf("superseded by batch %s (on #%d), which holds its steps and %d more; approve that one.", hash, rec.Issue, added)); err != nil {
			fmt.Fprintf(e.stderr, "aayu %s: %s (batch %s is superseded on the ledger all the same)\n", verb, tui.SanitizeLine(err.Error()), open.Hash)
		}
		fmt.Fprintf(out, "Batch %s of this agent session is superseded: its %d %s and this one are batch %s.\n", open.Hash,
			len(open.Record.Items), tui.Plural(len(open.Record.Items), "step", "steps"), hash)
	} else if err := approve.PointSession(ctx, ledger, rec); err != nil {
		fmt.Fprintf(e.stderr, "aayu %s: %s (the next step of this session makes its own batch)\n", verb, tui.SanitizeLine(err.Error()))
	}
	fmt.Fprintf(out, "Batch %s: %d human-only %s for @%s, posted as @%s on #%d: %s\n", hash, len(rec.Items),
		tui.Plural(len(rec.Items), "step", "steps"), tui.SanitizeLine(person), tui.SanitizeLine(poster), rec.Issue, posted.Comment.GetHTMLURL())
	if rec.Way == approve.WayReply {
		fmt.Fprintf(out, "It waits for @%s's reply \"Approve batch %s\"; aayudha-approve.yml applies it. Nothing else is done here.\n", tui.SanitizeLine(person), hash)
		return tui.ExitOK
	}
	if ownOnly {
		fmt.Fprintf(out, "It waits for @%s to run aayu approve %s at their own terminal: a plan review is a comment in their own name, which this agent's token cannot make. Nothing else is done here.\n", tui.SanitizeLine(person), hash)
		return tui.ExitOK
	}
	if rec.Way == approve.WayTerminal {
		fmt.Fprintf(out, "It waits for @%s to run aayu approve %s at their own terminal, where a device code proves them: this lane holds only the bot's token, which cannot ask for one. Nothing else is done here.\n", tui.SanitizeLine(person), hash)
		return tui.ExitOK
	}
	if !askd {
		fmt.Fprintf(out, "No device code could be asked for (%s). It waits for @%s to run aayu approve %s.\n", tui.SanitizeLine(why), tui.SanitizeLine(person), hash)
		return tui.ExitOK
	}
	// The code is in the comment, for the person; it is not printed here.
	fmt.Fprintf(out, "Waiting for @%s to approve the device code in that comment (until %s UTC). Approve only steps you asked for.\n", tui.SanitizeLine(person), code.Expires.UTC().Format("15:04"))
	return w.applyApproved(w.ctx, out, ledger, flow, code, hash, false, true)
}

// reachesNoApprover is doctor's approvals row for this session, with the
// token the batch is posted with as aayu's own: true only when the row
// passes, so a reply is offered only where no agent here could make it.
func (w wiring) reachesNoApprover(ctx context.Context, tok ghx.Token, pol batchPolicy) bool {
	creds, viewer := w.credentials(tok)(ctx)
	return doctorcore.ApprovalsRow(creds, pol.approvers, pol.deviceFor, viewer).State == doctorcore.OK
}

// closedPoll is how often a process waiting for a batch's device code
// reads the ledger for the batch closed elsewhere.
const closedPoll = 1500 * time.Millisecond

// deviceFlow is the batch's device code: the same OAuth App the presence
// check uses (deviceClient), on the same host.
func (w wiring) deviceFlow(gh *github.Client) approve.DeviceFlow {
	api := w.sess.apiURL
	// SPEC §6's order, the repository read with the token this process
	// writes with: an agent lane holds no person's token to read it.
	l := ghx.DeviceClientLookup{Local: w.cfg.String("identity.device_client_id"), Client: gh, Owner: w.sess.owner, Repo: w.sess.repo}
	if w.inv.Global.Sandbox {
		l.Default = sandboxClientID
	}
	id := ghx.FindDeviceClient(w.ctx, l).ID
	return approve.DeviceFlow{OAuthHost: w.sess.webURL(), ClientID: id,
		APIClient: func(token string) (*github.Client, error) {
			return ghx.NewClient(ghx.ClientOptions{APIURL: api, Token: ghx.NewToken(token, "device flow")})
		}}
}

// applyApproved waits for the code's approval and applies the batch as
// the writer ledger's client is, in the approver's name. waitCtx ends only
// the wait (the screen's stop key): once the code is approved the writes
// run under the command's own context, so a stop never cuts one in half.
//
// own says ledger's client holds the approver's own token (aayu approve
// at their terminal, not an agent lane): only then is a plan step applied
// on a device code, as their own comment. inComment says the code is the
// one the batch comment shows, which the comment must then name.
func (w wiring) applyApproved(waitCtx context.Context, out io.Writer, ledger approve.Ledger, flow approve.DeviceFlow, code approve.Code, hash string, own, inComment bool) int {
	ctx, e := w.ctx, w.e
	wait, cancel := context.WithDeadline(waitCtx, code.Expires)
	defer cancel()
	// While it waits, the ledger is read every few seconds: a batch
	// applied, rejected or superseded by any other way (aayu approve at a
	// terminal, a reply, the session's next step) ends the wait at once,
	// and the process says what became of it.
	closed := make(chan approve.Closed, 1)
	go func() {
		tick := time.NewTicker(closedPoll)
		defer tick.Stop()
		for {
			select {
			case <-wait.Done():
				return
			case <-tick.C:
				if c, found, err := ledger.ClosedAt(wait, hash); err == nil && found {
					closed <- c
					cancel()
					return
				}
			}
		}
	}()
	who, err := flow.Wait(wait, code)
	cancel()
	select {
	case c := <-closed:
		fmt.Fprintln(out, tui.SanitizeLine(c.Words(hash)))
		if c.Applied != nil && c.Applied.Outcome != "rejected" {
			return tui.ExitOK
		}
		return tui.ExitRefused
	default:
	}
	if err != nil {
		fmt.Fprintf(out, "Not applied: %s. Batch %s stays open; its person runs aayu approve %s for a new code.\n", tui.SanitizeLine(err.Error()), hash, hash)
		return tui.ExitRefused
	}
	pol, err := readBatchPolicy(ctx, ledger.Client, ledger.Owner, ledger.Repo)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: reading the default branch's policy: %v\nNothing was applied.\n", err)
		return tui.ExitFailed
	}
	logDir, _ := actions.DefaultLogDir(e.getenv)
	var log *actions.Log
	if logDir != "" {
		log = actions.OpenLog(logDir, nil)
	}
	shown := ""
	if inComment {
		shown = code.UserCode
	}
	res, err := approve.Apply(ctx, approve.ApplyOptions{Ledger: ledger, Hash: hash, Approver: who, Approvers: pol.approvers, ShownCode: shown,
		BotLogins: append(pol.botLogins, pol.appLogin), Method: approve.WayDevice, Log: log, Ship: w.shipApplier(ledger.Client, out), OwnToken: own})
	return reportApplied(out, e.stderr, hash, who.Login, res, err)
}

// reportApplied says what became of an approved batch, one line a step.
func reportApplied(out, errOut io.Writer, hash, by string, res approve.Result, err error) int {
	if res.Unmarked != nil {
		fmt.Fprintf(errOut, "aayu: %s\n", tui.SanitizeLine(res.Unmarked.Error()))
	}
	if a, ok := approve.IsAlreadyApplied(err); ok {
		fmt.Fprintf(out, "Batch %s was already %s by @%s; nothing more was written.\n", hash, a.Applied.Outcome, tui.SanitizeLine(a.Applied.By))
		return tui.ExitOK
	}
	var r *approve.Refusal
	var dr *core.Refusal
	switch {
	case errors.As(err, &r):
		fmt.Fprintf(out, "Not applied: %s %s\n", tui.SanitizeLine(r.Reason), tui.SanitizeLine(r.Next))
		return tui.ExitRefused
	case errors.As(err, &dr):
		fmt.Fprintf(out, "Not applied: %s.\n", tui.SanitizeLine(dr.Reason))
		return tui.ExitRefused
	case err != nil:
		fmt.Fprintf(errOut, "aayu: batch %s: %s\n", hash, tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	fmt.Fprintf(out, "Approved by @%s (device-flow).\n", tui.SanitizeLine(by))
	for _, s := range res.Steps {
		if s.Outcome.Done {
			fmt.Fprintf(out, "done: Decision #%d, option %d accepted as @%s.\n", s.Item.Pick.Decision, s.Item.Pick.Option, tui.SanitizeLine(by))
			continue
		}
		why := "not tried: an earlier step did not land"
		switch {
		case s.Outcome.Failure != nil:
			why = s.Outcome.Failure.What
		case s.Outcome.Changed:
			why = s.Outcome.ChangedWhat
		}
		fmt.Fprintf(out, "not done: Decision #%d, option %d: %s\n", s.Item.Pick.Decision, s.Item.Pick.Option, tui.SanitizeLine(why))
	}
	for _, d := range res.Done {
		fmt.Fprintf(out, "done: %s, on @%s's approval.\n", tui.SanitizeLine(d), tui.SanitizeLine(by))
	}
	if res.Applied == nil {
		fmt.Fprintf(out, "Batch %s is not applied whole; approving it again finishes it.\n", hash)
		return tui.ExitFailed
	}
	fmt.Fprintf(out, "Batch %s applied.\n", hash)
	return tui.ExitOK
}
