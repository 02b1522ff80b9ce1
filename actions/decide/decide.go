// Package decide is the core of `aayu decide N[,M…] --accept K[,L…]`, the
// command-line twin of the inbox's Decision step. It reads the inbox as
// the inbox does (ghx/inboxread, model/inbox.Derive), takes each
// Decision's card and the choice its option is on that card, and writes
// through the inbox's own executor (actions.Executor): the same re-read
// before each write, the same writes, the same confirmation for a pick
// that is not the recommendation or is a one-way door. One decision path,
// whichever way the person takes it.
package decide

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
)

// Pick is one Decision and the option of it the person accepts; both are
// the Decision's own numbers.
type Pick struct {
	Decision int
	Option   int
}

// UsageError is a command line decide cannot act on (exit 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Refusal is a reason nothing may be written, in words (exit 4). It is
// the one refusal type every action returns.
type Refusal = exitcode.Refusal

var refuse = exitcode.Refuse

// notWaiting is Choose's refusal of a Decision that does not wait in the
// inbox; Read says what it is instead, from GitHub. It unwraps to the
// Refusal, so callers of Choose see a refusal like any other.
type notWaiting struct {
	decision int
	*Refusal
}

func (n *notWaiting) Unwrap() error { return n.Refusal }

// ParsePicks pairs the Decisions with the options, one to one and in
// order: "7,9" with "2,1" accepts option 2 of #7 and option 1 of #9. Lists
// of different lengths, a number that is not a whole number of 1 or more,
// and a Decision named twice are usage mistakes, said in words.
func ParsePicks(decisions, accept string) ([]Pick, error) {
	if strings.TrimSpace(accept) == "" {
		return nil, &UsageError{"--accept K is missing: the option to accept of each Decision named, e.g. aayu decide 7 --accept 2"}
	}
	ds, err := numbers("Decision", decisions)
	if err != nil {
		return nil, err
	}
	opts, err := numbers("option", accept)
	if err != nil {
		return nil, err
	}
	if len(ds) != len(opts) {
		return nil, &UsageError{fmt.Sprintf("%d %s named and --accept gives %d %s; they pair up one to one, in order (aayu decide 7,9 --accept 2,1 accepts option 2 of #7 and option 1 of #9)",
			len(ds), plural(len(ds), "Decision", "Decisions"), len(opts), plural(len(opts), "option", "options"))}
	}
	seen := map[int]bool{}
	picks := make([]Pick, len(ds))
	for i := range ds {
		if seen[ds[i]] {
			return nil, &UsageError{fmt.Sprintf("Decision #%d is named twice; a Decision accepts one option", ds[i])}
		}
		seen[ds[i]] = true
		picks[i] = Pick{Decision: ds[i], Option: opts[i]}
	}
	return picks, nil
}

func numbers(what, list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f), "#"))
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, &UsageError{fmt.Sprintf("%s numbers are whole numbers of 1 or more, separated by commas; got %q in %q", what, f, list)}
		}
		out = append(out, n)
	}
	return out, nil
}

// Command is the command as the person types it, for the presence check
// and the refusals.
func Command(picks []Pick) string {
	ds, os := make([]string, len(picks)), make([]string, len(picks))
	for i, p := range picks {
		ds[i], os[i] = strconv.Itoa(p.Decision), strconv.Itoa(p.Option)
	}
	return fmt.Sprintf("aayu decide %s --accept %s", strings.Join(ds, ","), strings.Join(os, ","))
}

// Item is one Decision's card as the inbox derived it and the choice on it
// the person picked.
type Item struct {
	Pick   Pick
	Step   inbox.Step
	Choice inbox.Choice
}

// Confirm is the inbox's own confirmation line for this pick (what it is,
// why it asks, exactly what it writes), or "" when it needs none.
func (it Item) Confirm() string {
	if !it.Choice.NeedsConfirm {
		return ""
	}
	return strings.TrimSuffix(strings.TrimSpace(it.Choice.Confirm), " "+inbox.ConfirmHint)
}

// Plan is what Read found and what Apply writes, in order.
type Plan struct {
	Owner, Repo string
	Viewer      untrusted.Login // the account the Decisions are accepted as ("by @Viewer")
	// Writer is the account every write goes out as: Viewer, except for
	// a batch the bot applies on the person's approval (Options.Authority).
	Writer string
	Items  []Item
	Note   string // --note, kept in the actions log beside each acceptance
	// snap is the read the cards were derived from, for the executor's
	// re-read before each write.
	snap inbox.Snapshot
}

// NeedsConfirm says whether any pick asks first.
func (p Plan) NeedsConfirm() bool {
	for _, it := range p.Items {
		if it.Choice.NeedsConfirm {
			return true
		}
	}
	return false
}

// Writes are every write Apply makes, in order, in words.
func (p Plan) Writes() []string {
	var out []string
	for _, it := range p.Items {
		for _, w := range it.Choice.Writes {
			if w.Writes() {
				out = append(out, w.String())
			}
		}
	}
	return out
}

// Choose is the pure rule: from the cards the inbox derived, the account
// decide writes as and the picks, the plan, or the first refusal. Nothing
// is written unless every pick may be: a Decision's authority is a
// person's account with write access (never a bot); each Decision must
// wait in the inbox, read as one; each option must be on its card and not
// refused there (a Decision half done accepts only the option already
// commented).
func Choose(steps []inbox.Step, viewer identity.Account, bots []string, picks []Pick) ([]Item, error) {
	if err := identity.CheckApprover(viewer, identity.AccessWrite, "", bots); err != nil {
		return nil, authority(viewer, err)
	}
	items := make([]Item, 0, len(picks))
	for _, pk := range picks {
		st, ok := inbox.Find(steps, fmt.Sprintf("%s#%d", inbox.KindDecision, pk.Decision))
		if !ok {
			return nil, &notWaiting{decision: pk.Decision, Refusal: &Refusal{Reason: fmt.Sprintf("#%d is not a Decision waiting for you: aayu decide accepts an open issue labelled %s (aayu inbox --list shows the ones that wait)", pk.Decision, inbox.LabelDecision)}}
		}
		if st.Problem != "" {
			return nil, refuse("%s", strings.TrimSuffix(st.Problem, "."))
		}
		c, why := inbox.Pick(st, strconv.Itoa(pk.Option))
		if why != "" || c.Key == inbox.SkipKey {
			if _, exists := optionOf(st, pk.Option); !exists {
				return nil, refuse("Decision #%d has no option %d: its options are 1 to %d", pk.Decision, pk.Option, countOptions(st))
			}
			return nil, refuse("option %d of Decision #%d cannot be accepted: %s", pk.Option, pk.Decision, strings.TrimSuffix(why, "."))
		}
		items = append(items, Item{Pick: pk, Step: st, Choice: c})
	}
	return items, nil
}

func optionOf(st inbox.Step, n int) (inbox.Choice, bool) {
	for _, c := range st.Choices {
		if c.Key == strconv.Itoa(n) {
			return c, true
		}
	}
	return inbox.Choice{}, false
}

func countOptions(st inbox.Step) int {
	n := 0
	for _, c := range st.Choices {
		if c.Key != inbox.SkipKey {
			n++
		}
	}
	return n
}

// authority words CheckApprover's refusal for a Decision.
func authority(a identity.Account, err error) error {
	switch {
	case errors.Is(err, identity.ErrBotApprover):
		return refuse("aayu writes as @%s, a bot, and a Decision is accepted by a person's account: run aayu decide with your own token (aayu auth says which account aayu acts as)", a.Login)
	case errors.Is(err, identity.ErrAccessTooLow):
		have := a.Access().String()
		if a.Permission == "" {
			have = "no write"
		}
		return refuse("@%s has %s access to this repository, and accepting a Decision (a comment, a status label, closing the issue) needs write access: a person with write access runs aayu decide", a.Login, have)
	}
	return refuse("%s", err.Error())
}

// Options say where to read.
type Options struct {
	Client      *github.Client
	Owner, Repo string
	Picks       []Pick
	Note        string
	// Reader is the inbox's reader; nil builds one on Client.
	Reader *inboxread.Reader
	// Authority, when set, is the person whose authority accepts the
	// Decisions while the writes go out as Client's account (the bot
	// applying an approved batch, or posting one): the authority checked,
	// and the login the acceptance comments name, are this account's.
	Authority *identity.Account
}

// Read reads the inbox as inbox --list does and the account's access, and
// plans the picks, or refuses with a *Refusal naming why.
func Read(ctx context.Context, o Options) (Plan, error) {
	reader := o.Reader
	if reader == nil {
		reader = inboxread.New(o.Client, o.Owner, o.Repo, inboxread.Options{})
	}
	p := Plan{Owner: o.Owner, Repo: o.Repo, Note: strings.Join(strings.Fields(o.Note), " ")}
	snap, err := reader.Read(ctx)
	if err != nil {
		return p, fmt.Errorf("reading the inbox of %s/%s: %w", o.Owner, o.Repo, err)
	}
	p.Writer = snap.Viewer
	if o.Authority != nil {
		snap.Viewer = o.Authority.Login
	}
	p.snap, p.Viewer = snap, untrusted.Login(snap.Viewer)
	viewer := identity.Account{Login: snap.Viewer}
	if o.Authority != nil {
		viewer = *o.Authority
	}
	level, _, err := o.Client.Repositories.GetPermissionLevel(ctx, o.Owner, o.Repo, snap.Viewer)
	switch {
	case err == nil:
		viewer.Permission = level.GetPermission()
	case ghx.IsNotFound(err) || statusOf(err) == http.StatusForbidden:
		// GitHub shows permissions only to accounts with push access.
	default:
		return p, fmt.Errorf("reading @%s's access to %s/%s: %w", snap.Viewer, o.Owner, o.Repo, err)
	}
	items, err := Choose(inbox.Derive(snap), viewer, snap.BotLogins, o.Picks)
	var nw *notWaiting
	if errors.As(err, &nw) {
		nw.Reason = whyNotWaiting(ctx, o, nw.decision, nw.Reason)
	}
	if err != nil {
		return p, err
	}
	p.Items = items
	return p, nil
}

// whyNotWaiting says what an item that is no waiting Decision is, as
// GitHub has it: closed (already decided), a pull request, or an issue
// without the label; the general reason when it cannot tell.
func whyNotWaiting(ctx context.Context, o Options, n int, general string) string {
	is, _, err := o.Client.Issues.Get(ctx, o.Owner, o.Repo, n)
	switch {
	case ghx.IsNotFound(err):
		return fmt.Sprintf("%s/%s has no issue #%d", o.Owner, o.Repo, n)
	case err != nil:
		return general
	case is.IsPullRequest():
		return fmt.Sprintf("#%d is a pull request, not a Decision: aayu decide accepts an open issue labelled %s", n, inbox.LabelDecision)
	}
	labelled := false
	for _, l := range is.Labels {
		labelled = labelled || l.GetName() == inbox.LabelDecision
	}
	switch {
	case !labelled:
		return fmt.Sprintf("#%d is not a Decision: it is not labelled %s", n, inbox.LabelDecision)
	case is.GetState() == "closed":
		return fmt.Sprintf("Decision #%d is closed, so it waits for no decision (it was decided, or closed, on GitHub)", n)
	}
	return general
}

func statusOf(err error) int {
	var resp *github.ErrorResponse
	if errors.As(err, &resp) && resp.Response != nil {
		return resp.Response.StatusCode
	}
	return 0
}

// Result is what became of one pick.
type Result struct {
	Item    Item
	Outcome actions.Outcome
	Tried   bool // false: an earlier pick failed, and this one was not tried
}

// Reread is the inbox's re-read of one card over the read the plan came
// from: the executor compares the card with it before every write.
func Reread(reader *inboxread.Reader, snap inbox.Snapshot) actions.RereadFunc {
	return func(ctx context.Context, st inbox.Step) (inbox.Step, bool, error) {
		now, err := reader.Reread(ctx, st.Kind, st.Item.Number, snap)
		if err != nil {
			return inbox.Step{}, false, err
		}
		found, ok := inbox.Find(inbox.Derive(now), st.ID())
		return found, ok, nil
	}
}

// Snapshot is the read the plan came from.
func (p Plan) Snapshot() inbox.Snapshot { return p.snap }

// Apply makes each pick's writes through the executor, in order, each
// after its re-read. It stops at the first pick that is not done (a
// failure, or a card that changed): the picks after it are not tried, and
// running the same command again finishes what is missing without
// writing anything twice.
func Apply(ctx context.Context, ex Executor, p Plan) []Result {
	out := make([]Result, len(p.Items))
	stopped := false
	for i, it := range p.Items {
		out[i].Item = it
		if stopped {
			continue
		}
		out[i].Tried = true
		out[i].Outcome = ex.Execute(ctx, actions.Request{Step: it.Step, Choice: it.Choice, Note: p.Note,
			Command: strings.TrimPrefix(Command([]Pick{it.Pick}), "aayu ")})
		stopped = !out[i].Outcome.Done
	}
	return out
}

// Executor is the inbox's executor, as Apply uses it.
type Executor interface {
	Execute(ctx context.Context, req actions.Request) actions.Outcome
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
