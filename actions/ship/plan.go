package ship

import (
	"fmt"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// Plan is what ship will write once the person says yes: every read-only
// gate has passed, and each line of Writes is one write in plain words, in
// the order it goes out.
type Plan struct {
	PR    int
	Title untrusted.Text // the pull request's, as GitHub gave it
	// CommitTitle is the squash commit's title exactly as ship writes it:
	// the pull request's title as one neutral line (commitTitle).
	CommitTitle string
	Head        string
	Base        string
	Story       int
	Viewer      string // who writes: the person whose token ship uses
	PassKind    string // the human pass's kind (pass.Kind*)
	PassBy      string
	Bypass      bool // the pass is the person's Solo-mode bypass: no review happened
	Writes      []string
	// Warnings are the gate pack's named warnings ("test-framing: …"), shown
	// before the yes: no floor judges them.
	Warnings []untrusted.Text
}

// PresenceRequest is what the presence check asks the person to approve.
type PresenceRequest struct {
	Command   string
	Need      identity.Access
	MustBe    string   // the login ship writes as; any other approver is refused
	Approving []string // one line per write, as the plan lists them
}

// writesPlan lists this run's writes, after every read-only gate passed.
func (r *run) writesPlan() Plan {
	p := Plan{PR: r.pr, Title: untrusted.Text(r.target.pull.GetTitle()), Head: r.target.head, Base: r.target.baseRef, Story: r.target.story, Viewer: r.cfg.Viewer,
		PassKind: r.passing.pass.Kind, PassBy: firstNonEmpty(r.passing.pass.Login, r.cfg.Viewer), Bypass: r.passing.pass.Kind == pass.KindSoloBypass,
		CommitTitle: commitTitle(r.target.pull.GetTitle(), r.pr)}
	if r.evidence.pack != nil && r.evidence.pack.report != nil && r.evidence.pack.report.Pack != nil {
		for _, w := range r.evidence.pack.report.Pack.Warnings {
			p.Warnings = append(p.Warnings, untrusted.Text(w.Name+": "+w.Detail))
		}
	}
	if p.Bypass && r.target.resume == nil {
		if c, ok := identity.FindSoloBypassComment(r.passing.comments, r.cfg.Viewer, r.target.head, r.evidence.base.identity.BotLogins); ok {
			p.Writes = append(p.Writes, fmt.Sprintf("reuses your Solo-mode bypass: comment already on #%d for head %s (%s)", r.pr, gitsha.Short(r.target.head), c.URL))
		} else {
			p.Writes = append(p.Writes, fmt.Sprintf("posts your Solo-mode bypass: comment on #%d for head %s", r.pr, gitsha.Short(r.target.head)))
		}
	}
	if k := r.passing.pass.Kind; (k == pass.KindAutonomous || k == pass.KindProof) && r.target.resume == nil {
		p.Writes = append(p.Writes, fmt.Sprintf("adds the %s label to #%d: no person reviewed it, so the inbox audits it", AuditLabel, r.pr))
	}
	if r.target.resume == nil {
		line := fmt.Sprintf("squash-merges #%d into %s at head %s", r.pr, r.target.baseRef, gitsha.Short(r.target.head))
		if raw := fmt.Sprintf("%s (#%d)", r.target.pull.GetTitle(), r.pr); p.CommitTitle != raw {
			// The title carries a line break, a control or bidi character, or
			// is too long: the person sees the line history will hold.
			line += ", its title written as one neutral line: " + p.CommitTitle
		}
		p.Writes = append(p.Writes, line)
	}
	p.Writes = append(p.Writes, fmt.Sprintf("lands the pack and ship.json on the ledger (%s)", ledgerDir(r.target.story, r.target.head)))
	if r.target.story != 0 {
		p.Writes = append(p.Writes, fmt.Sprintf("updates Story #%d: %s, a comment naming the pack, the ship record and the pass, %s removed",
			r.target.story, inbox.LabelMerged, inbox.LabelLease))
	}
	return p
}

// askPresence runs the presence check through the screen, when this
// process needs one and no approval given earlier covers this ship.
func (r *run) askPresence(need identity.Access, p Plan) error {
	d := r.human(need)
	if d.Outcome != identity.NeedsPresence || r.cfg.AskPresence == nil || r.earlierApproval() != "" {
		return nil
	}
	s, err := r.cfg.AskPresence(r.ctx, PresenceRequest{Command: Command(r.pr), Need: need, MustBe: r.cfg.Viewer, Approving: p.Writes})
	if err != nil {
		return err
	}
	if s != nil {
		r.cfg.Presence = s
	}
	return nil
}

// confirm is gate 6: the person's yes to the plan. No answer, or any
// answer but yes, writes nothing.
func (r *run) confirm(p Plan) (gateOutcome, error) {
	if a := r.cfg.Approval; a != nil && a.Batch != "" {
		// The batch showed the person this merge, pinned to its head, and
		// its approval is their yes; no one is here to be asked again.
		return gateOutcome{words: fmt.Sprintf("yes, by @%s's approval of batch %s: %d writes", a.Login, a.Batch, len(p.Writes))}, nil
	}
	if r.cfg.Confirm == nil {
		return gateOutcome{refusals: []string{"nobody could be asked to confirm the writes, so nothing was written"}}, nil
	}
	yes, err := r.cfg.Confirm(r.ctx, p)
	if err != nil {
		if r.ctx.Err() != nil {
			return gateOutcome{refusals: []string{"stopped before you answered; nothing was written"}}, nil
		}
		return gateOutcome{}, err
	}
	if !yes {
		r.res.Cancelled = true
		return gateOutcome{refusals: []string{"you did not answer yes; nothing was written"}}, nil
	}
	return gateOutcome{words: fmt.Sprintf("yes, by @%s: %d writes", r.cfg.Viewer, len(p.Writes))}, nil
}

// needFor is the access the presence check needs: admin for a bypass.
func (r *run) needFor() identity.Access {
	return identity.NeedFor(r.passing.pass.Kind == pass.KindSoloBypass)
}

// askedNothing is why the gates after a refusal were not reached.
const askedNothing = "not reached: a gate above refused, so nobody was asked for anything and nothing was written"
