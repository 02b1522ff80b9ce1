package inbox

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/waiver"

	"github.com/aayudha/aayu/model/untrusted"
)

// Kind is one of the eight kinds of step in the seed's inbox table, or a
// ship stopped part-way (its one card until ship finishes it).
type Kind string

const (
	KindDecision          Kind = "decision"
	KindReadyToShip       Kind = "ready-to-ship"
	KindNeedsReview       Kind = "needs-review"
	KindReviewStopped     Kind = "review-stopped"
	KindMergedWithoutShip Kind = "merged-without-ship"
	KindBugFixMerged      Kind = "bug-fix-merged"
	KindReplaced          Kind = "replaced"
	KindAudit             Kind = "audit"
	KindShipStopped       Kind = "ship-stopped"
	// KindNeedsReady and KindNeedsPlanReview are the human-only steps of
	// the story loop that only a command did: freezing a Story's goal
	// (aayu ready) and the plan-time review a never-layer change needs
	// (aayu plan). Their cards open that command's screen.
	KindNeedsReady      Kind = "needs-ready"
	KindNeedsPlanReview Kind = "needs-plan-review"
)

// Kinds lists every kind in the seed's table order, which is also the order
// of steps within a group.
func Kinds() []Kind {
	return []Kind{KindDecision, KindShipStopped, KindReadyToShip, KindNeedsReview, KindReviewStopped,
		KindNeedsReady, KindNeedsPlanReview,
		KindMergedWithoutShip, KindBugFixMerged, KindReplaced, KindAudit}
}

// Words is the kind's name on a card.
func (k Kind) Words() string {
	switch k {
	case KindDecision:
		return "Decision"
	case KindReadyToShip:
		return "Story PR ready to ship"
	case KindNeedsReview:
		return "PR that needs your review"
	case KindReviewStopped:
		return "PR whose review stopped"
	case KindMergedWithoutShip:
		return "Story merged without ship"
	case KindBugFixMerged:
		return "Bug with its fix merged"
	case KindReplaced:
		return "Replaced"
	case KindAudit:
		return "Merged unreviewed, to audit"
	case KindShipStopped:
		return "Ship stopped part-way"
	case KindNeedsReady:
		return "Story waiting for its Ready snapshot"
	case KindNeedsPlanReview:
		return "PR that needs a plan review"
	}
	return string(k)
}

// Group is where a kind is listed: steps that need the person, or the
// housekeeping that may be selected and done in bulk.
func (k Kind) Group() Group {
	switch k {
	case KindMergedWithoutShip, KindBugFixMerged, KindReplaced:
		return Housekeeping
	}
	return NeedsYou
}

func (k Kind) rank() int {
	for i, x := range Kinds() {
		if x == k {
			return i
		}
	}
	return len(Kinds())
}

// Group orders the list: NeedsYou first.
type Group int

const (
	NeedsYou Group = iota
	Housekeeping
)

func (g Group) String() string {
	if g == Housekeeping {
		return "housekeeping"
	}
	return "needs you"
}

// Item is the issue or pull request a step acts on.
type Item struct {
	Number int
	Title  untrusted.Text
	IsPR   bool
}

// Link is another issue or pull request shown on the card.
type Link struct {
	Number int
	Title  untrusted.Text
	IsPR   bool
	Role   string // e.g. "links Story", "merged fix", "replaced by"
}

// Step is one card.
type Step struct {
	Kind    Kind
	Group   Group
	Item    Item
	Links   []Link
	Head    string         // the pull request head shown on the card; approve-its-head approves exactly this
	Counsel untrusted.Text // advice, never an approval; it may quote a comment
	// Problem says why the step cannot be accepted from the inbox (a
	// Decision whose body does not parse); its choices only open it.
	Problem string
	// HalfDone says what an earlier run left half done on the item (a
	// Decision commented as accepted but still open); the recommendation
	// finishes it.
	HalfDone string
	Door     Door // a Decision's door
	// TextHash is a Decision's title and body as the card read them
	// (waiver.TextHash): the re-read before a write refuses a Decision
	// whose text changed since, whatever part of it changed.
	TextHash       string
	Choices        []Choice // in key order, skip last
	Recommendation Choice
}

// ID names the step across reads: its kind and item.
func (s Step) ID() string { return fmt.Sprintf("%s#%d", s.Kind, s.Item.Number) }

// Choice is one thing the person can do with a card.
type Choice struct {
	Key          string // "1".."9", or "s" for skip; Enter picks the Recommendation
	Label        string
	Recommended  bool
	OneWay       bool   // cannot be undone later (a one-way Decision)
	NeedsConfirm bool   // applies only on a second Enter (y in plain mode)
	Confirm      string // the one line shown first, saying exactly what it will do
	NeedsNote    string // when set, ask for one line (this prompt) before writing
	Disabled     string // when set, the choice stays visible and says why it cannot be taken
	Writes       []Write
	// labelRaw is Label with GitHub's text as GitHub has it (a Decision
	// option's title), for --json, whose title fields are GitHub's too;
	// "" when Label holds no text from GitHub.
	labelRaw string
}

// JSONLabel is the label --json gives: GitHub's own text where the label
// carries some, as every other field of --json does.
func (c Choice) JSONLabel() string {
	if c.labelRaw != "" {
		return c.labelRaw
	}
	return c.Label
}

// SkipKey is the key that skips a card.
const SkipKey = "s"

func skipChoice() Choice {
	return Choice{Key: SkipKey, Label: "skip"}
}

// WriteKind says what one write does.
type WriteKind string

const (
	WriteComment      WriteKind = "comment"       // Body on issue or PR Number
	WriteAddLabel     WriteKind = "add-label"     // Label on Number
	WriteRemoveLabel  WriteKind = "remove-label"  // Label from Number
	WriteClose        WriteKind = "close"         // close Number with Reason (completed, not_planned)
	WriteReview       WriteKind = "review"        // a review with event APPROVE and commit_id CommitID on PR Number
	WriteLedgerPut    WriteKind = "ledger-put"    // a file at Path on the ledger (a review record: Login, CommitID, the time, the person's note)
	WriteLedgerAppend WriteKind = "ledger-append" // one sample line for PR Number appended to Path (Correction marks it)
	WriteLedgerRemove WriteKind = "ledger-remove" // the file at Path removed from the ledger
	// WriteLedgerWaiver lands an accepted floor waiver's record
	// (waiver.Record) at Path on the ledger: Decision Number waives
	// Waiver's floor of its pull request at its head, accepted by Login.
	WriteLedgerWaiver WriteKind = "ledger-waiver"
	WriteRevertPR     WriteKind = "revert-pr" // a pull request into Base reverting PR Number's merge (SPEC §7)
	WriteOpenShip     WriteKind = "open-ship" // opens the ship screen for PR Number (Solo: with --solo-bypass); writes nothing itself
	WriteOpen         WriteKind = "open"      // opens Number on GitHub in the browser; writes nothing
	// WriteOpenCommand opens the screen of Command (CommandReady or
	// CommandPlan) for Story Number (Solo: aayu plan's --solo-bypass); that
	// screen asks its own yes before it writes, so this writes nothing.
	WriteOpenCommand WriteKind = "open-command"
	// WriteGateRerun asks GitHub to re-run the merge gate's newest run on
	// pull request Number's head CommitID when that run did not succeed,
	// so its comment job reads the waiver just accepted; it writes nothing
	// of aayu's own.
	WriteGateRerun WriteKind = "gate-rerun"
)

// The commands a card's WriteOpenCommand opens.
const (
	CommandReady = "ready"
	CommandPlan  = "plan"
)

// Write is one effect of accepting a choice, as data.
type Write struct {
	Kind       WriteKind
	Number     int
	Body       string
	Label      string
	Reason     string
	CommitID   string
	Login      string
	Path       string
	Correction bool
	Base       string
	Solo       bool
	Command    string // WriteOpenCommand's command: CommandReady or CommandPlan
	// Waiver is what WriteLedgerWaiver's Decision waives.
	Waiver waiver.Request
}

// Writes says whether it changes anything on GitHub or the ledger.
func (w Write) Writes() bool {
	return w.Kind != WriteOpen && w.Kind != WriteOpenShip && w.Kind != WriteOpenCommand
}

// CommandLine is the command a WriteOpenCommand opens, as a person types
// it ("aayu ready 17", "aayu plan 17 --solo-bypass"); "" for any other
// write.
func (w Write) CommandLine() string {
	switch {
	case w.Kind != WriteOpenCommand:
		return ""
	case w.Command == CommandPlan && w.Solo:
		return fmt.Sprintf("aayu plan %d --solo-bypass", w.Number)
	}
	return fmt.Sprintf("aayu %s %d", w.Command, w.Number)
}

// String says the write in words, for --dry-run and the confirmation line.
func (w Write) String() string {
	switch w.Kind {
	case WriteComment:
		return fmt.Sprintf("comment on #%d: %q", w.Number, Shown(w.Body))
	case WriteAddLabel:
		return fmt.Sprintf("add the label %s to #%d", w.Label, w.Number)
	case WriteRemoveLabel:
		return fmt.Sprintf("remove the label %s from #%d", w.Label, w.Number)
	case WriteClose:
		return fmt.Sprintf("close #%d as %s", w.Number, strings.ReplaceAll(w.Reason, "_", " "))
	case WriteReview:
		return fmt.Sprintf("approve pull request #%d at head %s", w.Number, w.CommitID)
	case WriteLedgerPut:
		return fmt.Sprintf("write %s on the ledger", w.Path)
	case WriteLedgerAppend:
		kind := "a clean sample"
		if w.Correction {
			kind = "a correction sample"
		}
		return fmt.Sprintf("append %s for #%d to %s on the ledger", kind, w.Number, w.Path)
	case WriteLedgerRemove:
		return fmt.Sprintf("remove %s from the ledger", w.Path)
	case WriteLedgerWaiver:
		return fmt.Sprintf("write %s on the ledger (floor %s of #%d waived at head %s)", w.Path, w.Waiver.Floor, w.Waiver.PR, gitsha.Short(w.Waiver.Head))
	case WriteGateRerun:
		return fmt.Sprintf("re-run the merge gate on #%d's head %s if its newest run there failed", w.Number, gitsha.Short(w.CommitID))
	case WriteRevertPR:
		return fmt.Sprintf("open a pull request into %s that reverts #%d", w.Base, w.Number)
	case WriteOpenShip:
		if w.Solo {
			return fmt.Sprintf("open the ship screen for #%d (aayu ship %d --solo-bypass)", w.Number, w.Number)
		}
		return fmt.Sprintf("open the ship screen for #%d (aayu ship %d)", w.Number, w.Number)
	case WriteOpen:
		return fmt.Sprintf("open #%d on GitHub", w.Number)
	case WriteOpenCommand:
		return fmt.Sprintf("open the %s screen for #%d (%s)", w.Command, w.Number, w.CommandLine())
	}
	return string(w.Kind)
}

// Describe joins a choice's writes in words.
func (c Choice) Describe() string {
	if len(c.Writes) == 0 {
		return "nothing is written"
	}
	parts := make([]string, len(c.Writes))
	for i, w := range c.Writes {
		parts[i] = w.String()
	}
	return strings.Join(parts, "; ")
}

func (c Choice) writes() bool {
	for _, w := range c.Writes {
		if w.Writes() {
			return true
		}
	}
	return false
}
