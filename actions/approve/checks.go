package approve

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/identity"
)

// Comment is an issue comment as the checks need it.
type Comment struct {
	ID        int64
	URL       string
	Author    identity.Account // Permission filled for a reply's author
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// edited says GitHub shows the comment as changed since it was posted.
func (c Comment) edited() bool { return c.UpdatedAt.After(c.CreatedAt) }

// DecisionNow is a Decision as it is when the reply is checked.
type DecisionNow struct {
	Number int
	Title  string
	Body   string
	Parent int
	Found  bool
}

// ReplyFacts is everything CheckReply judges, read by the caller. The
// policy (approvers, bot logins, device_for, the App) is the default
// branch's, never the checkout's.
type ReplyFacts struct {
	// WorkflowOnDefault: .github/workflows/aayudha-approve.yml is on the
	// default branch and the workflow is enabled.
	WorkflowOnDefault bool
	// AppLogin is the aayudha GitHub App's login ("<slug>[bot]") when the
	// repository has one; "" when it has none (or only a machine user).
	AppLogin  string
	Approvers []string
	BotLogins []string
	DeviceFor []string
	Reply     Comment
	// Batch is the batch comment the reply's hash names on this issue (by
	// its marker); nil when there is none.
	Batch *Comment
	// Stored is the ledger's record of the named hash; nil when there is
	// none.
	Stored *Stored
	// Applied is the ledger's applied record; nil when the batch is open.
	Applied *Applied
	// Superseded is the ledger's mark that a later batch of the session
	// holds this one's steps; nil when there is none.
	Superseded *Superseded
	Decisions  map[int]DecisionNow
}

// Refusal is one failed check: which row of the seed's table, what
// happened and the one next step. Nothing is applied.
type Refusal struct {
	Check  string // the row's short name, as the tests are named
	Reason string
	Next   string
}

func (r *Refusal) Error() string { return r.Reason + " " + r.Next }

// Check names, one per row of the seed's table (and the reply's own form).
const (
	CheckWorkflow     = "workflow not on the default branch"
	CheckApp          = "no App"
	CheckBotReply     = "a bot replying"
	CheckNotApprover  = "not an approver"
	CheckNoWrite      = "no write access"
	CheckNotReply     = "not a reply"
	CheckEditedReply  = "edited reply"
	CheckReplyBefore  = "reply before the batch"
	CheckNoBatch      = "no such batch"
	CheckEditedBatch  = "edited batch"
	CheckNotBot       = "batch not posted by the bot"
	CheckClosed       = "batch no longer open"
	CheckSuperseded   = "batch superseded by a later batch of its session"
	CheckHash         = "hash does not match its record"
	CheckRendered     = "batch text is not what aayu renders"
	CheckDecisionEdit = "a Decision edited after the batch"
	CheckDeviceFor    = "a door kept on the device code"
	// CheckStepRefused: the step's own command refuses it now (ship's
	// gates on the pinned head, a head that moved).
	CheckStepRefused = "the step refused when applied"
	// CheckApprovalVoid: the change the batch showed is gone (its head or
	// base moved), so the approval can never apply; the batch is voided.
	CheckApprovalVoid = "an approval for a change that moved"
	// CheckPlanOwnComment: a plan step needs the person's own comment,
	// which this route cannot make (the device code in an agent lane).
	CheckPlanOwnComment = "a plan review needs your own comment"
	// CheckOneStepEach: a batch holds one option per Decision, one step
	// per pull request or Story.
	CheckOneStepEach = "two steps for one issue in one batch"
)

// NeedsDevice says whether device_for keeps the batch on the device code:
// "all" keeps every batch, "one-way" (the default) every batch with a
// one-way door. The words name the first item it keeps, or "".
func NeedsDevice(r Record, deviceFor []string) (bool, string) {
	if slices.Contains(deviceFor, "all") {
		return true, "[approvals] device_for = [\"all\"] keeps every batch on the device code"
	}
	if slices.Contains(deviceFor, "one-way") {
		for i, it := range r.Items {
			if it.Door == DoorOneWay {
				return true, fmt.Sprintf("item %d (%s) is a one-way door, and [approvals] device_for keeps one-way doors on the device code", i+1, it.Command)
			}
		}
	}
	return false, ""
}

// CheckReply applies the seed's table to a reply, row by row, in the
// table's order, and returns the first row that fails, or nil when every
// one holds. It is pure: whatever it is given was read by the caller.
func CheckReply(f ReplyFacts) *Refusal {
	deviceNext := "Approve it with the device code instead: run aayu approve HASH at a terminal, or approve the code in the batch comment."
	if f.Stored != nil {
		deviceNext = strings.Replace(deviceNext, "HASH", f.Stored.Hash, 1)
	}
	if !f.WorkflowOnDefault {
		return &Refusal{CheckWorkflow, "The aayudha-approve workflow is not on the default branch, or is disabled, so no reply is applied.",
			"Install it with aayu init --gates through a reviewed pull request. " + deviceNext}
	}
	if f.AppLogin == "" {
		return &Refusal{CheckApp, "This repository has no aayudha GitHub App, so agents may write as you and a reply cannot prove it was you.",
			"Create it with aayu init --identity. " + deviceNext}
	}
	a := f.Reply.Author
	if identity.IsBot(a, append(slices.Clone(f.BotLogins), f.AppLogin)) {
		return &Refusal{CheckBotReply, fmt.Sprintf("@%s is a bot, and a bot's reply never approves a batch.", a.Login),
			"A person in [approvals] approvers replies instead."}
	}
	if !containsLogin(f.Approvers, a.Login) {
		return &Refusal{CheckNotApprover, fmt.Sprintf("@%s is not in [approvals] approvers on the default branch's .aayudha/config.toml.", a.Login),
			"An approver replies instead; adding one is a reviewed pull request to the default branch."}
	}
	if a.Access() < identity.AccessWrite {
		return &Refusal{CheckNoWrite, fmt.Sprintf("@%s has no write access to this repository.", a.Login),
			"A person with write access replies instead."}
	}
	_, hash, ok := ParseReply(f.Reply.Body)
	if !ok {
		return &Refusal{CheckNotReply, "The reply's first line is not exactly Approve batch HASH or Reject batch HASH.",
			"Reply again with a new comment whose first line is exactly Approve batch HASH."}
	}
	if f.Reply.edited() {
		return &Refusal{CheckEditedReply, "The reply was edited after it was posted, so it could have said something else when it was read.",
			"Reply again with a new comment, and do not edit it."}
	}
	if f.Batch == nil || f.Stored == nil || f.Stored.Hash != hash {
		return &Refusal{CheckNoBatch, fmt.Sprintf("No batch %s waits on this issue: there is no batch comment or no record of it on the ledger.", hash),
			"Check the hash in the batch comment and reply again."}
	}
	// GitHub's times are whole seconds, so a reply in the batch's second
	// is ordered by the comment ids, which only grow.
	if f.Reply.CreatedAt.Before(f.Batch.CreatedAt) || f.Reply.ID <= f.Batch.ID {
		return &Refusal{CheckReplyBefore, fmt.Sprintf("The reply came before batch %s was posted.", hash),
			"Reply again, below the batch comment."}
	}
	rec := f.Stored.Record
	if !identity.SameLogin(f.Batch.Author.Login, f.AppLogin) {
		return &Refusal{CheckNotBot, fmt.Sprintf("Batch %s was posted by @%s, not by the aayudha App @%s.", hash, f.Batch.Author.Login, f.AppLogin),
			"Ask the agent to start the steps again as the App. " + deviceNext}
	}
	// The record on the ledger names its poster too; a reply applies only a
	// batch the App posted by both accounts, and the sentence names the
	// one that differs.
	if !identity.SameLogin(rec.PostedBy, f.AppLogin) {
		return &Refusal{CheckNotBot, fmt.Sprintf("The ledger's record of batch %s names @%s as its poster, not the aayudha App @%s.", hash, rec.PostedBy, f.AppLogin),
			"Ask the agent to start the steps again as the App. " + deviceNext}
	}
	if f.Applied != nil {
		return &Refusal{CheckClosed, fmt.Sprintf("Batch %s is no longer open: it was %s by @%s.", hash, f.Applied.Outcome, f.Applied.By),
			"Nothing more to do; ask the agent for a new batch for anything else."}
	}
	if sup := f.Superseded; sup != nil {
		return &Refusal{CheckSuperseded, fmt.Sprintf("Batch %s was superseded by batch %s, which holds its steps and more from the same agent session; approving this one applies nothing.", hash, sup.By),
			fmt.Sprintf("Approve batch %s instead (its comment is on #%d).", sup.By, sup.Issue)}
	}
	// The comment itself: unedited, the poster's, exactly what the record
	// renders; the same check a device-code approval makes (Apply).
	if r := CheckShown(f.Batch, *f.Stored, hash, "", deviceNext); r != nil {
		return r
	}
	for _, it := range rec.Items {
		now, ok := f.Decisions[it.Issue()]
		if !ok || !now.Found || now.Title != it.Title || now.Body != it.Body || now.Parent != it.Parent {
			return &Refusal{CheckDecisionEdit, fmt.Sprintf("#%d changed since batch %s (its title, body or parent): a later edit voids the approval.", it.Issue(), hash),
				"Read the Decision again and ask the agent for a new batch."}
		}
	}
	if keep, why := NeedsDevice(rec, f.DeviceFor); keep {
		return &Refusal{CheckDeviceFor, "A reply cannot apply this batch: " + why + ".", deviceNext}
	}
	return nil
}

func containsLogin(list []string, login string) bool {
	for _, l := range list {
		if identity.SameLogin(l, login) {
			return true
		}
	}
	return false
}

// deviceLinesRE is the one shape DeviceLines gives the lines below the
// rendered text: the only text a device-code batch's comment may carry
// beyond what aayu renders from its record.
var deviceLinesRE = lazyre.New(`^\n\nDevice code: open (\S+) and enter \*\*([A-Z0-9-]{1,20})\*\* \(expires at \d\d:\d\d UTC\)\.$`)

// CheckShown is the one check of what a batch's comment shows, for a
// reply and a device code alike (seed 001's row "The batch was not edited
// ... its text is exactly what aayu renders from that record"; SPEC §11):
// the comment GitHub records as never edited (updated_at is created_at),
// posted by the account the record names, the record hashing to its name,
// and the comment's text exactly what Render makes of the record, plus, on
// a device-code batch, DeviceLines and nothing else. code, when not "",
// is the user code the waiting process polls for: the comment must show
// that one, never another code someone started. next is the refusal's
// way on. nil when the person was shown exactly the batch's steps.
func CheckShown(batch *Comment, st Stored, hash, code, next string) *Refusal {
	if batch == nil {
		return &Refusal{CheckNoBatch, fmt.Sprintf("The comment of batch %s is gone from its issue, so nothing shows what approving it does.", hash),
			"Ask the agent to start the steps again; a new batch is posted."}
	}
	if batch.edited() {
		return &Refusal{CheckEditedBatch, fmt.Sprintf("The comment of batch %s was edited after it was posted (GitHub records it as changed at %s), so its steps may not be the ones you were shown.", hash, batch.UpdatedAt.UTC().Format(time.RFC3339)),
			"Ask the agent to start the steps again; a new batch is posted. " + next}
	}
	rec := st.Record
	if !identity.SameLogin(batch.Author.Login, rec.PostedBy) {
		return &Refusal{CheckNotBot, fmt.Sprintf("The comment of batch %s was posted by @%s, not by @%s, who posted the batch.", hash, batch.Author.Login, rec.PostedBy),
			"Ask the agent to start the steps again; a new batch is posted."}
	}
	if st.Hash != hash || rec.Hash() != hash {
		return &Refusal{CheckHash, fmt.Sprintf("The ledger's record of batch %s does not hash to %s.", hash, hash),
			"Ask the agent to start the steps again; a new batch is posted."}
	}
	rendered := Render(rec)
	body := strings.ReplaceAll(batch.Body, "\r\n", "\n")
	shown := st.Rendered == rendered && strings.TrimSpace(body) == strings.TrimSpace(rendered)
	if !shown && st.Rendered == rendered && rec.Way == WayDevice && strings.HasPrefix(body, rendered) {
		m := deviceLinesRE().FindStringSubmatch(strings.TrimRight(body[len(rendered):], " \n"))
		shown = m != nil && (code == "" || m[2] == code)
	}
	if !shown {
		return &Refusal{CheckRendered, fmt.Sprintf("The text of batch %s's comment is not exactly what aayu renders from its record, so it may not show the steps approving applies.", hash),
			"Ask the agent to start the steps again; a new batch is posted. " + next}
	}
	return nil
}
