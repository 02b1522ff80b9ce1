package actions

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

// LedgerBranch is the branch the ledger lives on (SPEC §4).
const LedgerBranch = "ledger"

// RereadFunc reads one item again from GitHub and derives its step as it is
// now; found is false when the item no longer waits for the person.
type RereadFunc func(ctx context.Context, st inbox.Step) (now inbox.Step, found bool, err error)

// ExecutorConfig is everything an Executor needs; Client, Owner, Repo,
// Viewer and Reread are required.
type ExecutorConfig struct {
	Client *github.Client // built by ghx.NewClient, under the person's token
	Owner  string
	Repo   string
	Viewer string // the person's login: every write goes out as them
	Reread RereadFunc
	// Log receives one Record per executed request; nil keeps no log.
	Log *Log
	// Now stamps ledger records and samples; nil means time.Now.
	Now func() time.Time
	// Ledger is the ledger branch; "" means LedgerBranch.
	Ledger string
}

// Executor carries out accepted choices: it re-reads the item, then makes
// each write in order, checking before each one whether it already
// happened, so pressing Enter again after a failure never doubles anything.
// It is safe for concurrent use; the Queue keeps two writes off one item.
type Executor struct {
	cfg ExecutorConfig

	mu sync.Mutex
	// afterFailure holds, per step and choice, the item as re-read after a
	// write failed part-way. A retry compares against it instead of the
	// card, because the card's own earlier writes changed the item.
	afterFailure map[string]seen
}

// seen is one re-read: the step, or found false when it no longer waits.
type seen struct {
	step   inbox.Step
	found  bool
	unread bool // the re-read after a part-way failure did not answer
}

// NewExecutor checks the configuration and returns an Executor.
func NewExecutor(cfg ExecutorConfig) (*Executor, error) {
	var missing []string
	if cfg.Client == nil {
		missing = append(missing, "a GitHub client")
	}
	if cfg.Owner == "" || cfg.Repo == "" {
		missing = append(missing, "the repository")
	}
	if cfg.Viewer == "" {
		missing = append(missing, "the person's login")
	}
	if cfg.Reread == nil {
		missing = append(missing, "a way to re-read an item")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the inbox cannot write without %s", strings.Join(missing, ", "))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Ledger == "" {
		cfg.Ledger = LedgerBranch
	}
	return &Executor{cfg: cfg, afterFailure: map[string]seen{}}, nil
}

// Request is one accepted choice.
type Request struct {
	Step   inbox.Step
	Choice inbox.Choice
	Note   string // the one line the person typed (Choice.NeedsNote, or aayu decide --note)
	DryRun bool   // say what would be written; write, read and log nothing
	// Command is how the actions log names the request when it did not
	// come from the inbox (e.g. "decide 7 --accept 2"); "" is the inbox's
	// own words (InboxCommand).
	Command string
}

// Outcome is what executing a request did.
type Outcome struct {
	Done    bool // every write landed (or had already landed)
	Changed bool // the re-read found the item changed: nothing written
	// ChangedWhat says in words what the re-read found changed.
	ChangedWhat string
	Now         *inbox.Step // the card as it is now when Changed; nil when it no longer waits
	Wrote       []string    // each write that landed, in words
	// ByHand is what the person must do themselves although every write
	// landed, e.g. revert a merge by hand when a later commit touched it.
	ByHand string
	// CommentURL is the link to the comment the request posted (or found
	// already posted), "" when it posted none: the result a screen offers
	// to copy.
	CommentURL string
	DryRun     bool // Wrote lists what would be written
	Failure    *Failure
	// LogError says the actions log could not be written; the writes on
	// GitHub stand.
	LogError string
}

// ItemKey names issue or pull request n of owner/repo, the item a request
// writes to, for the Queue: never two writes on one item at once.
func ItemKey(owner, repo string, n int) string {
	return fmt.Sprintf("%s/%s#%d", owner, repo, n)
}

// Execute carries out one accepted choice. DryRun returns the writes in
// words and touches nothing: no re-read, no write, no log line (the log
// records what was written, and a dry run writes nothing). Otherwise the
// item is re-read first: if anything the card showed changed, nothing is
// written and Now holds the card as it is. Writes that only open something
// (WriteOpen, WriteOpenShip) are the screen's to do and are passed over; a
// choice with nothing else (skip, open it) is Done at once, unread and
// unlogged.
func (e *Executor) Execute(ctx context.Context, req Request) Outcome {
	var would []string
	for _, w := range req.Choice.Writes {
		if w.Writes() {
			would = append(would, w.String())
		}
	}
	switch {
	case req.DryRun:
		return Outcome{DryRun: true, Wrote: would}
	case len(would) == 0 && req.Choice.Disabled == "":
		return Outcome{Done: true}
	}
	out := e.execute(ctx, req)
	e.record(ctx, req, &out)
	return out
}

func (e *Executor) execute(ctx context.Context, req Request) Outcome {
	if f := e.refusal(req); f != nil {
		return Outcome{Failure: f}
	}
	key := req.Step.ID() + " " + req.Choice.Key
	now, found, err := e.cfg.Reread(ctx, req.Step)
	if err != nil {
		return Outcome{Failure: rereadFailure(req.Step, err)}
	}
	if changed, what := e.compare(key, req.Step, seen{step: now, found: found}); changed {
		e.forget(key)
		out := Outcome{Changed: true, ChangedWhat: what}
		if found {
			out.Now = &now
		}
		return out
	}
	r := &run{e: e, req: req}
	for i, w := range req.Choice.Writes {
		if !w.Writes() {
			continue
		}
		if err := r.write(ctx, w); err != nil {
			f := r.failure(i, w, err)
			if len(r.changed) > 0 || r.state == unknown {
				// Our own writes changed the item: a retry compares
				// against it as it is now, not against the card.
				after, found, rerr := e.cfg.Reread(ctx, req.Step)
				// When even that re-read fails, the item as our own writes
				// left it is unknown: the retry cannot tell our change from
				// another's, so it leans on the check before each write.
				e.remember(key, seen{step: after, found: found, unread: rerr != nil})
			}
			return Outcome{Wrote: r.wrote, Failure: f, CommentURL: r.commentURL}
		}
	}
	e.forget(key)
	return Outcome{Done: true, Wrote: r.wrote, ByHand: r.byHand, CommentURL: r.commentURL}
}

// refusal turns down a request before anything is read: a disabled
// choice, one the card does not offer, or a note still missing.
func (e *Executor) refusal(req Request) *Failure {
	st, c := req.Step, req.Choice
	item := fmt.Sprintf("#%d", st.Item.Number)
	if c.Disabled != "" {
		return refused(fmt.Sprintf("%s on %s cannot be done: %s.", capitalise(c.Label), item, strings.TrimSuffix(c.Disabled, ".")),
			"Choose another action on the card, or s to skip.", false)
	}
	offered := false
	for _, o := range st.Choices {
		offered = offered || (o.Key == c.Key && reflect.DeepEqual(o.Writes, c.Writes))
	}
	if !offered {
		return refused(fmt.Sprintf("%s is not a choice the card for %s offers.", capitalise(c.Label), item),
			"Choose an action the card shows, or s to skip.", false)
	}
	if c.NeedsNote != "" && oneLine(req.Note) == "" {
		return refused(fmt.Sprintf("%s on %s needs one line first: %s", capitalise(c.Label), item, c.NeedsNote),
			"Type the line, then press Enter.", true)
	}
	for _, w := range c.Writes {
		if w.Kind == inbox.WriteReview && !strings.EqualFold(w.Login, e.cfg.Viewer) {
			return refused(fmt.Sprintf("The approval of %s was offered to @%s, not to @%s who is signed in.", item, w.Login, e.cfg.Viewer),
				"Nothing more can be done from here; open "+item+" on GitHub to act on it by hand.", false)
		}
	}
	return nil
}

// compare checks the re-read against the card, or, when an earlier try
// of the same choice failed part-way, against the item as it was then.
func (e *Executor) compare(key string, card inbox.Step, now seen) (bool, string) {
	e.mu.Lock()
	base, retried := e.afterFailure[key]
	e.mu.Unlock()
	if !retried {
		base = seen{step: card, found: true}
	}
	switch {
	case base.unread:
		// Our own writes changed the item and it could not be read then;
		// every write that follows is checked on GitHub before it is made,
		// so nothing already there is written twice.
		return false, ""
	case !base.found && !now.found:
		return false, ""
	case !now.found:
		return inbox.Reread(card, inbox.Step{})
	case !base.found:
		return true, fmt.Sprintf("%s #%d changed since the last try; nothing was written", card.Kind.Words(), card.Item.Number)
	}
	return inbox.Reread(base.step, now.step)
}

func (e *Executor) remember(key string, s seen) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.afterFailure[key] = s
}

func (e *Executor) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.afterFailure, key)
}
