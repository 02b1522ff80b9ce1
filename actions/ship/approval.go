package ship

import (
	"fmt"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// Approval is a batch approval (actions/approve; seed 001, "Approving a
// batch from your phone") standing in for ship's presence check, exactly
// as the login screen's approval does at a terminal: the person proved
// their account by the batch's device code (or by a reply the approve
// workflow checked), for this ship pinned to Head and Base. Every other
// gate is checked again on the pinned head; a head or base that moved
// since the batch voids it. The caller makes one only from an approved
// batch (or, with Config.CheckOnly, from the batch being made).
type Approval struct {
	Batch   string // the batch's hash; "" while the batch is being made
	Login   string // the person who approved (or will)
	Method  string // "device-code" or "reply"
	Comment string // the reply's link, for a reply
	Head    string // the head SHA the batch pinned; "" while being made
	Base    string // the base ref the batch pinned; "" while being made
	// Trailers go on the ledger commit beside ship's own: the writer's
	// identity tags and who approved which batch.
	Trailers []string
}

// words is how the approval reads on the presence gate's line.
func (a *Approval) words() string {
	how := "its device code"
	if a.Method == "reply" {
		how = "a reply"
	}
	return fmt.Sprintf("batch %s, approved by @%s by %s", a.Batch, a.Login, how)
}

// PresenceRecord is ship.json's "presence" when a batch approval stood
// in for the presence check: which batch, who approved it, and how.
type PresenceRecord struct {
	Kind       string `json:"kind"` // "batch"
	Batch      string `json:"batch"`
	Login      string `json:"login"`
	Method     string `json:"method"`
	CommentURL string `json:"comment_url,omitempty"`
}

// batchDecision is what a batch approval makes of the process: nobody is
// at a terminal here (an agent lane, CI, or a waiting process), and the
// approval given for this command is the presence check's answer, so
// With allows exactly the steps it covers at the access the approver
// holds.
func (r *run) batchDecision() identity.Decision {
	return identity.Decision{Outcome: identity.NeedsPresence,
		Reason: fmt.Sprintf("%s was started in an agent lane, and only the approval of its batch shows a person asked for it", Command(r.pr))}
}

// loadApproval turns the batch approval into this run's presence session,
// at the access the approver holds now (read from GitHub, never taken
// from the batch).
func (r *run) loadApproval() error {
	a := r.cfg.Approval
	if a == nil || r.cfg.Presence != nil {
		return nil
	}
	lvl, _, err := r.cfg.Client.Repositories.GetPermissionLevel(r.ctx, r.cfg.Owner, r.cfg.Repo, a.Login)
	perm, err := ghx.Access(lvl, err)
	if err != nil {
		return fmt.Errorf("reading @%s's access to %s: %s", a.Login, r.repoName(), ghx.Describe(err))
	}
	method := "batch " + a.Batch + " (" + a.Method + ")"
	if a.Batch == "" {
		method = "the batch being made, once approved"
	}
	r.cfg.Presence = &identity.Session{Command: Command(r.pr), Login: a.Login, Access: identity.ParseAccess(perm), Method: method}
	return nil
}

// pinned adds to gate 1 the batch's pin: the head and base the batch
// showed the person. A head that moved since is not the change approved.
func (r *run) pinned(out gateOutcome) gateOutcome {
	a := r.cfg.Approval
	if a == nil || a.Head == "" || r.target.head == "" || r.target.resume != nil {
		return out
	}
	if r.target.head != a.Head {
		r.res.ApprovalVoid = fmt.Sprintf("the head of #%d moved from %s to %s since batch %s", r.pr, gitsha.Short(a.Head), gitsha.Short(r.target.head), a.Batch)
		out.refusals = append(out.refusals, fmt.Sprintf("the head of #%d moved from %s to %s since batch %s, so the approval was for another change and is void; ask the agent to run aayu ship %d again for a new batch",
			r.pr, gitsha.Short(a.Head), gitsha.Short(r.target.head), a.Batch, r.pr))
	}
	if a.Base != "" && r.target.baseRef != a.Base {
		r.res.ApprovalVoid = fmt.Sprintf("#%d now merges into %s, not the %s batch %s showed", r.pr, r.target.baseRef, a.Base, a.Batch)
		out.refusals = append(out.refusals, fmt.Sprintf("#%d now merges into %s, not the %s batch %s showed, so the approval is void; ask the agent for a new batch",
			r.pr, r.target.baseRef, a.Base, a.Batch))
	}
	return out
}

// checkApproval is the presence gate under a batch approval: a person
// (never a bot) approved, with the access this ship needs now; a bypass,
// written in the name of the account ship writes as, only when that
// account is the approver's own.
func (r *run) checkApproval(need identity.Access) (gateOutcome, error) {
	a, s := r.cfg.Approval, r.cfg.Presence
	if s == nil || a.Batch == "" {
		return gateOutcome{refusals: []string{fmt.Sprintf("%s waits for its batch's approval; nothing was written", Command(r.pr))}}, nil
	}
	var bots []string
	if r.evidence.base != nil {
		bots = r.evidence.base.identity.BotLogins
	}
	if identity.IsBot(identity.Account{Login: a.Login}, bots) {
		return gateOutcome{refusals: []string{fmt.Sprintf("batch %s was approved by @%s, a bot, and a bot never stands in for a person", a.Batch, a.Login)}}, nil
	}
	if s.Access < need {
		return gateOutcome{refusals: []string{fmt.Sprintf("@%s approved batch %s with %s access to %s, and this ship needs %s; nothing was written", a.Login, a.Batch, s.Access, r.repoName(), need)}}, nil
	}
	if r.passing.pass.Kind == pass.KindSoloBypass && !identity.SameLogin(a.Login, r.cfg.Viewer) {
		return gateOutcome{refusals: []string{fmt.Sprintf("the Solo-mode bypass comment would be written as @%s, and batch %s was approved by @%s; only your own approval bypasses your review", r.cfg.Viewer, a.Batch, a.Login)}}, nil
	}
	return gateOutcome{words: a.words()}, nil
}

// presenceRecord is ship.json's presence, when a batch approval stood in.
func (r *run) presenceRecord() *PresenceRecord {
	a := r.cfg.Approval
	if a == nil || a.Batch == "" {
		return nil
	}
	return &PresenceRecord{Kind: "batch", Batch: a.Batch, Login: a.Login, Method: a.Method, CommentURL: a.Comment}
}
