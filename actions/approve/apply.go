package approve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
)

// ApplyOptions say which batch to apply, on whose approval, writing as
// whom.
type ApplyOptions struct {
	// Ledger's client is the writer's: the bot's in the agent's waiting
	// process and in the approve workflow, the person's own at a terminal.
	Ledger Ledger
	Hash   string
	// Approver is who approved (the device token's /user, or the reply's
	// author); Apply reads its access again.
	Approver identity.Account
	// Approvers are [approvals] approvers from the default branch; the
	// batch's own For is always one.
	Approvers []string
	BotLogins []string
	// AppLogin is the aayudha App's bot ("<slug>[bot]") when configured:
	// the writer's login when the Ledger's client holds its installation
	// token, which cannot read /user (ghx.Writer).
	AppLogin string
	Method   string // WayDevice or WayReply
	Comment  string // the reply's link, for a reply
	// Ship applies a ship step; nil refuses one (this process cannot
	// run ship).
	Ship ShipFunc
	// OwnToken says the Ledger's client holds the approver's own token
	// (aayu approve HASH at their terminal, not an agent lane): only then
	// may a device-code approval post a plan review, as their comment.
	OwnToken bool
	Log      *actions.Log
	Now      func() time.Time
	// ShownCode is the user code the waiting process polls for, which its
	// batch comment must show; "" when the code was shown elsewhere (aayu
	// approve HASH at a terminal).
	ShownCode string
}

// AlreadyApplied says the batch was applied before: a second approve
// writes nothing.
type AlreadyApplied struct{ Applied Applied }

func (a *AlreadyApplied) Error() string {
	return fmt.Sprintf("batch %s was already %s by @%s (%s); nothing more was written", a.Applied.Hash, a.Applied.Outcome, a.Applied.By, a.Applied.Method)
}

// Result is what applying did: each step's outcome, and the applied
// record when every step landed.
type Result struct {
	Record Record
	Steps  []decide.Result
	// Done are the other kinds' steps that landed, in words.
	Done    []string
	Applied *Applied // nil when a step did not land: the batch stays open
	// Unmarked is why the batch's comment could not be edited to say what
	// became of it; nil when it says so.
	Unmarked error
}

// Load reads a batch from the ledger and checks it is what its name says
// and still open.
func Load(ctx context.Context, l Ledger, hash string) (Stored, error) {
	if !ValidHash(hash) {
		return Stored{}, &Refusal{CheckNoBatch, fmt.Sprintf("%q is not a batch's name: a batch is named by 12 hex digits, as its comment shows.", hash),
			"Copy the hash from the batch comment's first line."}
	}
	st, found, err := l.Stored(ctx, hash)
	if err != nil {
		return Stored{}, err
	}
	if !found {
		return Stored{}, &Refusal{CheckNoBatch, fmt.Sprintf("There is no batch %s on the ledger of %s/%s.", hash, l.Owner, l.Repo),
			"Check the hash in the batch comment, and the repository (--repo)."}
	}
	if st.Hash != hash || st.Record.Hash() != hash {
		return Stored{}, &Refusal{CheckHash, fmt.Sprintf("The ledger's record of batch %s does not hash to its name, so it is not the batch you were shown.", hash),
			"Ask the agent to start the steps again; a new batch is posted."}
	}
	if a, found, err := l.Applied(ctx, hash); err != nil {
		return Stored{}, err
	} else if found {
		return st, &AlreadyApplied{a}
	}
	var sup Superseded
	if found, err := l.readJSON(ctx, SupersededPath(hash), &sup); err != nil {
		return Stored{}, err
	} else if found {
		return st, &Refusal{CheckSuperseded, fmt.Sprintf("Batch %s was superseded by batch %s, which holds its steps and more from the same agent session; approving this one applies nothing.", hash, sup.By),
			fmt.Sprintf("Approve batch %s instead (its comment is on #%d).", sup.By, sup.Issue)}
	}
	return st, nil
}

// Apply applies an approved batch once: it checks the approving account
// (a person, never a bot, the batch's person or an approver, with write
// access), reads every Decision again and refuses if one changed since the
// batch, then makes each step's writes through the inbox's executor,
// accepted in the approver's name, and lands the applied record, so a
// second approve finds it and writes nothing.
func Apply(ctx context.Context, o ApplyOptions) (Result, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	st, err := Load(ctx, o.Ledger, o.Hash)
	if a, ok := IsAlreadyApplied(err); ok {
		// Applied before, perhaps by a run cut short before it marked the
		// comment: the comment says so now (nothing if it does already).
		return Result{Record: st.Record, Unmarked: MarkClosed(ctx, o.Ledger, st.Record, AppliedWords(a.Applied))}, err
	}
	if err != nil {
		return Result{}, err
	}
	rec := st.Record
	res := Result{Record: rec}
	a := o.Approver
	if identity.IsBot(a, o.BotLogins) {
		return res, &Refusal{CheckBotReply, fmt.Sprintf("@%s is a bot, and a bot never approves a batch.", a.Login),
			fmt.Sprintf("@%s approves it: the device code must be entered signed in as a person.", rec.For)}
	}
	if !identity.SameLogin(a.Login, rec.For) && !containsLogin(o.Approvers, a.Login) {
		return res, &Refusal{CheckNotApprover, fmt.Sprintf("@%s approved, but batch %s waits for @%s, and @%s is not in [approvals] approvers.", a.Login, o.Hash, rec.For, a.Login),
			fmt.Sprintf("@%s approves it, signed in as themselves.", rec.For)}
	}
	if o.Method == WayDevice {
		// What the person read before approving the code: the batch's
		// comment, checked as the reply path checks it (CheckShown).
		c, err := ReadBatchComment(ctx, o.Ledger, rec.Issue, o.Hash)
		if err != nil {
			return res, err
		}
		if r := CheckShown(c, st, o.Hash, o.ShownCode, ""); r != nil {
			if r.Check == CheckEditedBatch || r.Check == CheckRendered {
				// The comment cannot show the steps again, so no code in it
				// may look live: aayu says the batch is void.
				res.Unmarked = MarkClosed(ctx, o.Ledger, rec, VoidedChanged)
			}
			return res, r
		}
	}
	applied := Applied{Hash: o.Hash, Outcome: "applied", By: a.Login, Method: o.Method, Comment: o.Comment, At: o.Now().UTC(), Complete: true}
	// A run cut short (kill -9) may have landed some steps already: each
	// Decision is read from GitHub, and one closed as accepted with this
	// batch's option counts as done, so the next approve finishes the rest
	// instead of refusing a closed Decision for ever.
	var picks []decide.Pick
	landed := map[int]bool{}
	for _, p := range rec.Picks() {
		done, err := decisionLanded(ctx, o.Ledger, p)
		if err != nil {
			return res, err
		}
		if done {
			landed[p.Decision] = true
			applied.Results = append(applied.Results, fmt.Sprintf("Decision #%d, option %d: done (it had landed before this run)", p.Decision, p.Option))
			continue
		}
		picks = append(picks, p)
	}
	if len(picks) > 0 {
		writer, err := ghx.Writer(ctx, o.Ledger.Client, o.AppLogin)
		if err != nil {
			return res, err
		}
		reader := inboxread.New(o.Ledger.Client, o.Ledger.Owner, o.Ledger.Repo, inboxread.Options{Viewer: writer})
		plan, err := decide.Read(ctx, decide.Options{Client: o.Ledger.Client, Reader: reader, Owner: o.Ledger.Owner, Repo: o.Ledger.Repo,
			Picks: picks, Note: "batch " + o.Hash, Authority: &identity.Account{Login: a.Login}})
		if err != nil {
			return res, err
		}
		if err := unchanged(rec, plan, landed); err != nil {
			if len(landed) == 0 {
				res.Unmarked = void(ctx, o, rec, err)
			}
			return res, err
		}
		ex, err := actions.NewExecutor(actions.ExecutorConfig{Client: o.Ledger.Client, Owner: o.Ledger.Owner, Repo: o.Ledger.Repo,
			Viewer: plan.Writer, Reread: decide.Reread(reader, plan.Snapshot()), Log: o.Log, Now: o.Now})
		if err != nil {
			return res, err
		}
		applied.Writer = plan.Writer
		res.Steps = decide.Apply(ctx, ex, plan)
		for _, r := range res.Steps {
			applied.Results = append(applied.Results, fmt.Sprintf("Decision #%d, option %d: %s", r.Item.Pick.Decision, r.Item.Pick.Option, stepWords(r)))
			if !r.Outcome.Done {
				return res, nil // the batch stays open: approving again finishes it
			}
		}
	}
	// The other kinds run the action the person would run, in order,
	// with the approver named on each ledger commit as the authority.
	trailers := append(append([]string(nil), o.Ledger.Trailers...), fmt.Sprintf("Approved-by: @%s (batch %s, %s)", a.Login, o.Hash, o.Method))
	for _, it := range rec.Items {
		var (
			words string
			err   error
		)
		switch it.Kind {
		case KindDecide:
			continue
		case KindReady:
			words, err = applyReady(ctx, o.Ledger.Client, o.Ledger.Owner, o.Ledger.Repo, it, trailers)
		case KindPlan:
			words, err = applyPlan(ctx, o, it, a, trailers)
		case KindShip:
			if o.Ship == nil {
				err = &Refusal{CheckStepRefused, fmt.Sprintf("This run cannot apply %s: it has no way to run ship.", it.Command), fmt.Sprintf("Run aayu approve %s at a terminal.", o.Hash)}
				break
			}
			words, err = o.Ship(ctx, ShipApproval{Item: it, Batch: o.Hash, Login: a.Login, Method: o.Method, Comment: o.Comment, Trailers: trailers})
		default:
			err = &Refusal{CheckNoBatch, fmt.Sprintf("This aayu cannot apply a %q step (%s).", it.Kind, it.Command), "Run the step's command at a terminal instead."}
		}
		if err != nil {
			var r *Refusal
			if errors.As(err, &r) && r.Check == CheckApprovalVoid && len(res.Done) == 0 && len(landed) == 0 && len(res.Steps) == 0 {
				res.Unmarked = void(ctx, o, rec, err)
			}
			return res, err
		}
		if applied.Writer == "" {
			if me, uerr := ghx.Writer(ctx, o.Ledger.Client, o.AppLogin); uerr == nil {
				applied.Writer = me
			}
		}
		res.Done = append(res.Done, words)
		applied.Results = append(applied.Results, words)
	}
	if err := o.Ledger.write(ctx, AppliedPath(o.Hash), applied, fmt.Sprintf("approvals: batch %s applied on @%s's approval (%s)", o.Hash, a.Login, o.Method)); err != nil {
		return res, err
	}
	res.Applied = &applied
	res.Unmarked = MarkClosed(ctx, o.Ledger, rec, AppliedWords(applied))
	return res, nil
}

// void closes a batch that can never apply, before any of it landed: the
// ledger's applied record says voided and why (so a later approve refuses
// at once), and the comment says so instead of showing a live code. It
// returns what kept the comment from saying so.
func void(ctx context.Context, o ApplyOptions, rec Record, why error) error {
	reason := why.Error()
	var r *Refusal
	if errors.As(why, &r) {
		reason = strings.TrimSuffix(r.Reason, ".")
	}
	v := Applied{Hash: o.Hash, Outcome: OutcomeVoided, By: o.Approver.Login, Method: o.Method, Comment: o.Comment, At: o.Now().UTC(), Results: []string{reason}}
	if err := o.Ledger.write(ctx, AppliedPath(o.Hash), v, fmt.Sprintf("approvals: batch %s voided: %s", o.Hash, reason)); err != nil {
		return fmt.Errorf("recording batch %s as voided: %w", o.Hash, err)
	}
	return MarkClosed(ctx, o.Ledger, rec, AppliedWords(v))
}

// unchanged refuses when a Decision's title or body is not what the batch
// showed: a later edit voids the approval.
func unchanged(rec Record, plan decide.Plan, landed map[int]bool) error {
	now := map[int]inbox.Issue{}
	for _, is := range plan.Snapshot().Issues {
		now[is.Number] = is
	}
	for _, it := range rec.Items {
		if it.Kind != KindDecide || landed[it.Decision] {
			continue
		}
		is, ok := now[it.Decision]
		if !ok || is.Title.Raw() != it.Title || is.Body.Raw() != it.Body {
			return &Refusal{CheckDecisionEdit, fmt.Sprintf("Decision #%d changed since the batch (its title or body): a later edit voids the approval.", it.Decision),
				"Read the Decision again and ask the agent for a new batch."}
		}
	}
	return nil
}

func stepWords(r decide.Result) string {
	switch {
	case !r.Tried:
		return "not tried"
	case r.Outcome.Done:
		return "done"
	case r.Outcome.Failure != nil:
		return "not done: " + r.Outcome.Failure.What
	}
	return "not done"
}

// IsAlreadyApplied says err is a batch applied before.
func IsAlreadyApplied(err error) (*AlreadyApplied, bool) {
	var a *AlreadyApplied
	ok := errors.As(err, &a)
	return a, ok
}

// Reject closes a batch on its person's "Reject batch HASH" reply: the
// applied record says rejected, and nothing of the batch is ever applied.
func Reject(ctx context.Context, l Ledger, hash, by, comment string, now time.Time) error {
	a := Applied{Hash: hash, Outcome: "rejected", By: by, Method: WayReply, Comment: comment, At: now.UTC()}
	if err := l.write(ctx, AppliedPath(hash), a, fmt.Sprintf("approvals: batch %s rejected by @%s", hash, by)); err != nil {
		return err
	}
	st, found, err := l.Stored(ctx, hash)
	if err != nil || !found {
		return err
	}
	return MarkClosed(ctx, l, st.Record, AppliedWords(a))
}

// decisionLanded says p's writes are all on GitHub already: the Decision is
// closed, labelled accepted, and its newest acceptance comment accepts p's
// option. A Decision closed any other way is not done by this batch, and
// decide refuses it in words.
func decisionLanded(ctx context.Context, l Ledger, p decide.Pick) (bool, error) {
	is, _, err := l.Client.Issues.Get(ctx, l.Owner, l.Repo, p.Decision)
	if err != nil {
		if ghx.IsNotFound(err) {
			return false, nil
		}
		return false, fmt.Errorf("reading Decision #%d: %s", p.Decision, ghx.Describe(err))
	}
	if is.GetState() != "closed" {
		return false, nil
	}
	accepted := false
	for _, lb := range is.Labels {
		accepted = accepted || lb.GetName() == inbox.LabelAccepted
	}
	if !accepted {
		return false, nil
	}
	option := 0
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := l.Client.Issues.ListComments(ctx, l.Owner, l.Repo, p.Decision, opts)
		if err != nil {
			return false, fmt.Errorf("reading the comments of Decision #%d: %s", p.Decision, ghx.Describe(err))
		}
		for _, c := range cs {
			if n, _, ok := inbox.AcceptedIn(c.GetBody()); ok {
				option = n
			}
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	return option == p.Option, nil
}
