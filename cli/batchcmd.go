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
	"github.com/aayudha/aayu/ghx"
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
	pol, err := ghx.ReadBasePolicy(ctx, gh, owner, repo, p.defaultBranch)
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

// reply is the policy's say on the reply path, which actions/approve
// decides by (Way, CheckReply).
func (p batchPolicy) reply() approve.ReplyPolicy {
	return approve.ReplyPolicy{WorkflowOnDefault: p.workflowOn, AppLogin: p.appLogin, Approvers: p.approvers, DeviceFor: p.deviceFor}
}

// person is whom a batch waits for: the first of [approvals] approvers,
// else the [autonomy] approver.
func (p batchPolicy) person() string {
	if len(p.approvers) > 0 {
		return p.approvers[0]
	}
	return p.approver
}

// errNothingToApprove ends a batch command with exit 0 and nothing
// posted: the step is done already.
type errNothingToApprove struct{ words string }

func (e errNothingToApprove) Error() string { return e.words }

// batchRead makes a batch's record as the command's own run reads it, with
// the person as the authority checked: a refusal, or a step done already
// (errNothingToApprove), posts nothing.
type batchRead func(ctx context.Context, gh *github.Client, person, poster string) (approve.Record, error)

// batchRun is one batch command under way: what each step learns, for the
// next.
type batchRun struct {
	w        wiring
	command  string // the person's command line for the step
	tok      ghx.Token
	trailers []string // human-fallback: the person's token in solo mode
	gh       *github.Client
	poster   string
	pol      batchPolicy
	person   string
	rec      approve.Record
	ledger   approve.Ledger
	open     approve.Stored // the session's batch still waiting, when joining
	joining  bool
	added    int // steps rec adds to the open batch
}

// runBatch is the part every batch command shares: the agent's token, the
// default branch's policy and person, the record (made by read), the way to
// approve, the ledger record and the one comment, then waiting for the
// device code and applying. The verb is the invocation's command.
func (w wiring) runBatch(command string, read batchRead) int {
	b := &batchRun{w: w, command: command}
	if code, done := b.start(); done {
		return code
	}
	if code, done := b.read(read); done {
		return code
	}
	if code, done := b.join(); done {
		return code
	}
	b.rec.Way = approve.Way(b.pol.reply(), b.poster, b.rec, len(b.trailers) > 0, func() bool {
		return b.w.reachesNoApprover(b.w.ctx, b.tok, b.pol)
	})
	if b.joining {
		if err := approve.Supersede(w.ctx, b.ledger, b.open.Hash, b.rec, time.Now()); err != nil {
			return b.fail(tui.ExitFailed, "%s\nNothing was posted; batch %s still waits.", tui.SanitizeLine(err.Error()), b.open.Hash)
		}
	}
	return b.post()
}

// fail says why the batch command stops, and ends it with code.
func (b *batchRun) fail(code int, format string, args ...any) int {
	fmt.Fprintf(b.w.e.stderr, "aayu "+b.w.inv.Command+": "+format+"\n", args...)
	return code
}

// start finds who posts (the agent's token), the default branch's policy
// and the person the batch waits for.
func (b *batchRun) start() (int, bool) {
	ctx, sess := b.w.ctx, b.w.sess
	if sess.owner == "" {
		return b.fail(tui.ExitUsage, whichRepository), true
	}
	var err error
	if b.tok, b.trailers, err = b.w.agentToken(ctx); err != nil {
		return b.fail(tui.ExitFailed, "%v\nNothing was done.", err), true
	}
	if b.gh, err = sess.client(b.tok); err != nil {
		return b.fail(tui.ExitFailed, "%v\nNothing was done.", err), true
	}
	if b.pol, err = readBatchPolicy(ctx, b.gh, sess.owner, sess.repo); err != nil {
		return b.fail(tui.ExitFailed, "reading the default branch's policy: %v\nNothing was done.", err), true
	}
	if b.poster, err = ghx.Writer(ctx, b.gh, b.pol.appLogin); err != nil {
		return b.fail(tui.ExitFailed, "%v\nNothing was done.", err), true
	}
	if b.person = b.pol.person(); b.person == "" {
		return b.fail(tui.ExitRefused, "refused: no person is named to approve a batch ([approvals] approvers or [autonomy] approver on the default branch).\nNothing was done. The person runs %s from their own terminal.", b.command), true
	}
	return 0, false
}

// read makes the record: a refusal or a step done already ends here.
func (b *batchRun) read(read batchRead) (int, bool) {
	rec, err := read(b.w.ctx, b.gh, b.person, b.poster)
	var refusal *exitcode.Refusal
	var done errNothingToApprove
	switch {
	case errors.As(err, &done):
		fmt.Fprintln(b.w.e.stdout, tui.SanitizeLine(done.words))
		return tui.ExitOK, true
	case errors.As(err, &refusal):
		return b.fail(tui.ExitRefused, "refused: %s.\nNothing was done.", tui.SanitizeLine(refusal.Reason)), true
	case err != nil:
		return b.fail(tui.ExitFailed, "%s\nNothing was done.", tui.SanitizeLine(err.Error())), true
	}
	rec.PostedBy, rec.Session = b.poster, approve.SessionOf(identity.AgentSessionKey(b.w.e.getenv))
	rec.HumanFallback = len(b.trailers) > 0
	b.rec = rec
	b.ledger = approve.Ledger{Client: b.gh, Owner: b.w.sess.owner, Repo: b.w.sess.repo, Trailers: b.trailers}
	return 0, false
}

// join adds the step to this agent session's batch that still waits: one
// batch, one approval for the session's steps (approve/session.go).
func (b *batchRun) join() (int, bool) {
	open, joining, err := b.ledger.OpenSessionBatch(b.w.ctx, b.rec.Session, b.rec.Repo, b.person, b.poster)
	if err != nil {
		return b.fail(tui.ExitFailed, "reading this agent session's open batch: %s\nNothing was done.", tui.SanitizeLine(err.Error())), true
	}
	b.open, b.joining, b.added = open, joining, len(b.rec.Items)
	if !joining {
		return 0, false
	}
	rec, added, err := approve.Join(open.Record, b.rec)
	var r *approve.Refusal
	switch {
	case errors.As(err, &r):
		return b.fail(tui.ExitRefused, "refused: %s %s\nNothing was posted; batch %s still waits.", tui.SanitizeLine(r.Reason), tui.SanitizeLine(r.Next), open.Hash), true
	case err != nil:
		return b.fail(tui.ExitFailed, "%s\nNothing was posted.", tui.SanitizeLine(err.Error())), true
	case added == 0:
		fmt.Fprintf(b.w.e.stdout, "Batch %s of this agent session already holds %s; it waits for @%s. Nothing new was posted.\n", open.Hash, tui.SanitizeLine(b.command), tui.SanitizeLine(b.person))
		return tui.ExitOK, true
	}
	b.rec, b.added = rec, added
	return 0, false
}

// post asks for the device code where the way is one, posts the batch
// with it, says where it waits, and waits for the code.
func (b *batchRun) post() int {
	// A plan review is a comment in the person's own name, which neither
	// the code nor this agent's token can make: a device-code batch with a
	// plan step waits for aayu approve HASH at the person's terminal.
	ownOnly := b.rec.Way != approve.WayReply && b.rec.HasPlan()
	var (
		flow approve.DeviceFlow
		code approve.Code
		why  string
	)
	askd := false
	if b.rec.Way == approve.WayDevice && !ownOnly {
		flow = b.w.deviceFlow(b.gh)
		var err error
		if code, err = flow.Ask(b.w.ctx, time.Now()); err == nil {
			askd = true
		} else {
			why = err.Error()
		}
	}
	extra := ""
	if askd {
		extra = approve.DeviceLines(code.UserCode, code.URI, code.Expires)
	}
	posted, err := approve.Post(b.w.ctx, b.ledger, b.rec, extra)
	if err != nil {
		return b.fail(tui.ExitFailed, "%s\nNothing was applied.", tui.SanitizeLine(err.Error()))
	}
	hash := posted.Stored.Hash
	b.announce(hash, posted.Comment.GetHTMLURL())
	if line := b.waitsFor(hash, ownOnly, askd, why); line != "" {
		fmt.Fprintln(b.w.e.stdout, line)
		return tui.ExitOK
	}
	// The code is in the comment, for the person; it is not printed here.
	fmt.Fprintf(b.w.e.stdout, "Waiting for @%s to approve the device code in that comment (until %s UTC). Approve only steps you asked for.\n", tui.SanitizeLine(b.person), code.Expires.UTC().Format("15:04"))
	return b.w.applyApproved(b.w.ctx, b.w.e.stdout, b.ledger, flow, code, hash, false, true)
}

// announce closes the batch this one supersedes, or points the session at
// this one, and says what was posted where.
func (b *batchRun) announce(hash, url string) {
	ctx, out, verb := b.w.ctx, b.w.e.stdout, b.w.inv.Command
	if b.joining {
		if err := approve.ReplySuperseded(ctx, b.ledger, b.open.Record, b.rec, b.added); err != nil {
			fmt.Fprintf(b.w.e.stderr, "aayu %s: %s (batch %s is superseded on the ledger all the same)\n", verb, tui.SanitizeLine(err.Error()), b.open.Hash)
		}
		if err := approve.MarkClosed(ctx, b.ledger, b.open.Record, fmt.Sprintf("superseded by batch %s (on #%d), which holds its steps and %d more; approve that one.", hash, b.rec.Issue, b.added)); err != nil {
			fmt.Fprintf(b.w.e.stderr, "aayu %s: %s (batch %s is superseded on the ledger all the same)\n", verb, tui.SanitizeLine(err.Error()), b.open.Hash)
		}
		fmt.Fprintf(out, "Batch %s of this agent session is superseded: its %d %s and this one are batch %s.\n", b.open.Hash,
			len(b.open.Record.Items), tui.Plural(len(b.open.Record.Items), "step", "steps"), hash)
	} else if err := approve.PointSession(ctx, b.ledger, b.rec); err != nil {
		fmt.Fprintf(b.w.e.stderr, "aayu %s: %s (the next step of this session makes its own batch)\n", verb, tui.SanitizeLine(err.Error()))
	}
	fmt.Fprintf(out, "Batch %s: %d human-only %s for @%s, posted as @%s on #%d: %s\n", hash, len(b.rec.Items),
		tui.Plural(len(b.rec.Items), "step", "steps"), tui.SanitizeLine(b.person), tui.SanitizeLine(b.poster), b.rec.Issue, url)
}

// waitsFor is the line saying whom and what a batch this process does not
// wait on waits for; "" when this process waits for its device code.
func (b *batchRun) waitsFor(hash string, ownOnly, askd bool, why string) string {
	person := tui.SanitizeLine(b.person)
	switch {
	case b.rec.Way == approve.WayReply:
		return fmt.Sprintf("It waits for @%s's reply \"Approve batch %s\"; aayudha-approve.yml applies it. Nothing else is done here.", person, hash)
	case ownOnly:
		return fmt.Sprintf("It waits for @%s to run aayu approve %s at their own terminal: a plan review is a comment in their own name, which this agent's token cannot make. Nothing else is done here.", person, hash)
	case b.rec.Way == approve.WayTerminal:
		return fmt.Sprintf("It waits for @%s to run aayu approve %s at their own terminal, where a device code proves them: this lane holds only the bot's token, which cannot ask for one. Nothing else is done here.", person, hash)
	case !askd:
		return fmt.Sprintf("No device code could be asked for (%s). It waits for @%s to run aayu approve %s.", tui.SanitizeLine(why), person, hash)
	}
	return ""
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
		BotLogins: append(pol.botLogins, pol.appLogin), AppLogin: pol.appLogin, Method: approve.WayDevice, Log: log, Ship: w.shipApplier(ledger.Client, pol.appLogin, out), OwnToken: own})
	return reportApplied(out, e.stderr, hash, who.Login, res, err)
}

// reportApplied says what became of an approved batch, one line a step.
func reportApplied(out, errOut io.Writer, hash, by string, res approve.Result, err error) int {
	if res.Unmarked != nil {
		fmt.Fprintf(errOut, "aayu: %s\n", tui.SanitizeLine(res.Unmarked.Error()))
	}
	if a, ok := approve.IsAlreadyApplied(err); ok && a.Applied.IsVoided() {
		fmt.Fprintf(out, "Not applied: %s\n", tui.SanitizeLine(approve.Closed{Applied: &a.Applied}.Words(hash)))
		return tui.ExitRefused
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
