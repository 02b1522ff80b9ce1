package ship

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/google/go-github/v66/github"
)

// run is one call of Shipper.Run: the facts read so far and the result,
// grouped by the gate that reads or writes them, so each gate's state is
// named once: target (the pull request gate), evidence (the policy and
// pack gates), passing (the human pass), presence (whether a person is
// here), bypass (the Solo-mode bypass comment) and landing (the ledger's
// record and the Story's update). The run-wide fields stay at the top.
type run struct {
	s      *Shipper
	cfg    Config
	ctx    context.Context
	pr     int
	events chan<- Event
	res    Result

	// floorOnly stays true while every refusal is a floor that does not
	// hold: it picks the refused run's exit code.
	floorOnly bool
	// reads are the read-only round's (reads.go), started before the
	// first gate and taken by the gates that need them.
	reads *reads

	target   targetFacts
	evidence evidenceFacts
	passing  passFacts
	presence presenceFacts
	bypass   bypassClaim // what this run posted for a solo-mode bypass (bypass.go)
	landing  landingFacts
}

// targetFacts are the pull request gate's (pr.go): the pull request as
// read, and an earlier ship's merge of it when there was one. Every later
// gate reads them; none writes them.
type targetFacts struct {
	pull    *github.PullRequest
	head    string
	author  string
	baseRef string
	story   int // the story the pull request links, 0 when none
	resume  *mergeTrailers
}

// evidenceFacts are the policy and pack gates' (policy.go, gatepack.go,
// checks.go): the base branch's policy and the merge gate's pack for this
// head.
type evidenceFacts struct {
	base *basePolicy
	pack *gatePack
	// media is the [proof] media bucket the pack's media are copied to
	// before the merge (media.go), nil when the base names none.
	media *packMedia
	// waivers are the floors of the pack that do not hold, each waived by
	// an accepted waiver Decision for this head (waivers.go).
	waivers []WaiverRecord
	// proofNotes name the inspect judgements merge on proof did not take
	// (checks.go).
	proofNotes []string
	// rung is inspect's rung merge on proof took (from the gate's own run,
	// green, in proof_rungs), "" when none; proofChecks are the head's
	// checks it judged green. Both go into ship.json and the audit entry.
	rung        string
	proofChecks []checks.Check
	// codeownerPaths are the changed paths CODEOWNERS names (humanpass.go).
	codeownerPaths []string
}

// passFacts are the human pass gate's (humanpass.go), kept for the
// readiness comment, the bypass, the plan and the record.
type passFacts struct {
	pass     pass.PassResult
	plan     pass.PlanReview // the plan review as found on the story
	person   identity.Account
	comments []identity.Comment
	// commentsTaken says the human pass took the read-only round's copy
	// of the comments, so any later load reads them again.
	commentsTaken bool
	// passOutcome is the human pass's refusal, kept so its line can say
	// later that ship commented Ready to ship.
	passOutcome gateOutcome
	// byRecord is the ledger review record of this head read in solo
	// mode, "" when none.
	byRecord string
	// bypassNotAsked: only the Solo-mode bypass could pass, and the person
	// did not ask for it.
	bypassNotAsked bool
	teamNotes      []string // team memberships that could not be read (teams.go)
}

// presenceFacts are Config.Human's answer, taken once (decided says it
// was): the readiness comment, the bypass, the presence check and its gate
// all read it.
type presenceFacts struct {
	here    identity.Decision
	decided bool
}

// landingFacts are the ledger and Story gates' (record.go, story.go).
type landingFacts struct {
	// recorded: the record landed on the ledger this run, so a failure
	// after it leaves only the Story to update.
	recorded bool
	records  []actions.Record
	// ledgerTip is the ledger's tip read at the yes (readLedgerTip), the
	// record's commit's starting point; land takes it once.
	ledgerTip chan tipRead
}

// human is whether a person is here for a step that needs need: the one
// answer this run took from Config.Human, with the approval the run holds
// now applied. The process is looked at once; an approval given at the
// presence check changes the answer only through With.
func (r *run) human(need identity.Access) identity.Decision {
	return r.process().With(r.cfg.Presence, Command(r.pr), need)
}

// process is the answer Config.Human gave for this run, taken on first use.
func (r *run) process() identity.Decision {
	if !r.presence.decided {
		decide := r.cfg.Human
		if decide == nil {
			decide = identity.Here // a run built without New (unit tests)
		}
		if r.cfg.Approval != nil {
			r.presence.here = r.batchDecision()
		} else {
			r.presence.here = decide(identity.HumanCheck{Command: Command(r.pr), Env: r.cfg.Env, Terminal: r.cfg.Terminal, CI: r.cfg.CI})
		}
		r.presence.decided = true
	}
	return r.presence.here
}

// gateOutcome is what one gate found.
type gateOutcome struct {
	words    string
	detail   []string
	refusals []string // non-empty: the gate refused
	skipped  bool
}

func (r *run) emit(e Event) {
	if r.events == nil {
		return
	}
	select {
	case r.events <- e:
	case <-r.ctx.Done():
	}
}

// errStopped is AfterStep's error wrapped: ship stopped as if killed.
var errStopped = errors.New("ship stopped after a step")

// gate runs one gate, reports it, and calls AfterStep when it passed.
// ok is false when it refused; err is a failure (or a simulated kill).
func (r *run) gate(g GateID, fn func() (gateOutcome, error)) (ok bool, err error) {
	r.emit(Event{Gate: g, State: Running})
	out, err := fn()
	if err != nil {
		r.emit(Event{Gate: g, State: Failed, Words: err.Error(), Detail: out.detail})
		return false, err
	}
	switch {
	case out.skipped:
		r.emit(Event{Gate: g, State: Skipped, Words: out.words, Detail: out.detail})
		return true, nil
	case len(out.refusals) > 0:
		r.res.Refusals = append(r.res.Refusals, out.refusals...)
		r.emit(Event{Gate: g, State: Refused, Words: refusedWords(out), Detail: append(append([]string(nil), out.refusals...), out.detail...)})
		return false, nil
	}
	r.emit(Event{Gate: g, State: Passed, Words: out.words, Detail: out.detail})
	if r.cfg.AfterStep != nil {
		if herr := r.cfg.AfterStep(g); herr != nil {
			// The gate passed (its write landed) and the run stops
			// here: ok stays true, so the last words count this write
			// as landed, read from what it did, not as missing.
			return true, fmt.Errorf("%w %q: %w", errStopped, g.Title(), herr)
		}
	}
	return true, nil
}

// stoppedAfterLast says a stop request came once the run's last write had
// landed: nothing is left for it to stop, and the run is complete.
func stoppedAfterLast(ok bool, err error) bool { return ok && errors.Is(err, errStopped) }

// skipRest marks the gates from g on as not reached.
func (r *run) skipRest(from GateID, why string) {
	for _, g := range Gates() {
		if g >= from {
			r.emit(Event{Gate: g, State: Skipped, Words: why})
		}
	}
}

func (r *run) refusedExit() int {
	if r.floorOnly {
		return ExitFloor
	}
	return ExitRefused
}

func (r *run) do() (Result, error) {
	r.floorOnly = true
	r.reads = newReads(r.ctx)
	defer r.reads.stop()
	r.prefetch()
	if err := r.loadApproval(); err != nil {
		r.skipRest(GatePR, "not reached: the batch's approver could not be read")
		return r.fail(err)
	}
	ok, err := r.gate(GatePR, func() (gateOutcome, error) {
		out, err := r.checkPRAndChecks()
		return r.pinned(out), err
	})
	if err != nil {
		r.skipRest(GatePolicy, "not reached: the pull request could not be read")
		return r.fail(err)
	}
	if r.cfg.CheckOnly && (r.res.Shipped || r.target.resume != nil) {
		r.skipRest(GatePolicy, "not reached: merged already, so there is nothing to approve")
		r.res.ExitCode = ExitShipped
		return r.res, nil
	}
	if r.res.Shipped {
		return r.finishShipped()
	}
	if !ok {
		r.floorOnly = false
		if r.target.head == "" {
			r.skipRest(GatePolicy, "not reached: the pull request cannot be shipped")
			r.res.ExitCode = ExitRefused
			return r.res, nil
		}
	}
	// The read-only gates all run, so the person sees every refusal at once.
	policyOK, err := r.gate(GatePolicy, r.checkPolicy)
	if err != nil {
		r.skipRest(GatePack, "not reached: the base branch's policy could not be read")
		return r.fail(err)
	}
	if !policyOK {
		r.floorOnly = false
	}
	packOK, err := r.gate(GatePack, r.checkPack)
	if err != nil {
		r.skipRest(GateHumanPass, "not reached: the gate pack could not be checked")
		return r.fail(err)
	}
	passOK, err := r.gate(GateHumanPass, r.checkHumanPass)
	if err != nil {
		r.skipRest(GatePresence, "not reached: the human pass could not be checked")
		return r.fail(err)
	}
	if !passOK {
		r.floorOnly = false
	}
	if !(ok && policyOK && packOK && passOK) {
		// A ship that will be refused asks nobody for anything: no device
		// code, no confirmation, and no write but the Ready to ship comment.
		r.readyToShip(gateStates{pr: ok, policy: policyOK, pack: packOK, pass: passOK})
		why := askedNothing
		if r.res.ReadyToShip != "" {
			why = "not reached: a gate above refused, so nobody was asked for anything and nothing was merged"
		}
		r.skipRest(GatePresence, why)
		r.res.ExitCode = r.refusedExit()
		r.logRefusal()
		return r.res, nil
	}
	r.floorOnly = false
	p := r.writesPlan()
	if r.cfg.CheckOnly {
		r.res.Plan = &p
		r.skipRest(GatePresence, "not reached: every gate that only reads passed; the rest waits for the batch's approval")
		r.res.ExitCode = ExitShipped
		return r.res, nil
	}
	presentOK, err := r.gate(GatePresence, func() (gateOutcome, error) {
		if err := r.askPresence(r.needFor(), p); err != nil {
			return gateOutcome{}, err
		}
		return r.checkPresence()
	})
	if err != nil {
		r.skipRest(GateConfirm, "not reached: nothing was written")
		return r.fail(err)
	}
	if !presentOK {
		return r.refusedBefore(GateConfirm)
	}
	r.res.Plan = &p
	confirmed, err := r.gate(GateConfirm, func() (gateOutcome, error) { return r.confirm(p) })
	if err != nil {
		r.skipRest(GateBypass, "not reached: nothing was written")
		return r.fail(err)
	}
	if !confirmed {
		return r.refusedBefore(GateBypass)
	}
	r.readLedgerTip()
	bypassOK, err := r.gate(GateBypass, r.postBypass)
	if err != nil {
		r.skipRest(GateMerge, "not reached")
		return r.fail(err)
	}
	if !bypassOK {
		r.skipRest(GateMerge, "not reached: nothing was merged")
		r.res.ExitCode = ExitRefused
		r.logRefusal()
		return r.res, nil
	}
	mergeOK, err := r.gate(GateMerge, r.merge)
	if err != nil {
		r.skipRest(GateLedger, "not reached")
		return r.fail(err)
	}
	if !mergeOK {
		r.skipRest(GateLedger, "not reached: nothing was merged")
		r.res.ExitCode = ExitRefused
		r.logRefusal()
		return r.res, nil
	}
	landed, err := r.gate(GateLedger, r.landRetrying)
	r.landing.recorded = landed // a stop after it landed leaves the record there
	if err != nil {
		r.skipRest(GateStory, "not finished")
		return r.fail(err)
	}
	if ok, err := r.gate(GateStory, r.updateStoryRetrying); err != nil && !stoppedAfterLast(ok, err) {
		r.skipRest(GateDone, "not finished")
		return r.fail(err)
	}
	r.res.Shipped = true
	r.emit(Event{Gate: GateDone, State: Passed, Words: fmt.Sprintf("merged as %s; the record is on the ledger", gitsha.Short(r.res.MergeCommit))})
	r.res.ExitCode = ExitShipped
	return r.res, nil
}

// refusedBefore ends a run refused at the presence check or the
// confirmation: nothing was written.
func (r *run) refusedBefore(from GateID) (Result, error) {
	r.skipRest(from, "not reached: nothing was written")
	r.res.ExitCode = ExitRefused
	r.logRefusal()
	return r.res, nil
}

// fail ends the run on an error. After a write landed, the result names
// every write of the run that landed and every one that did not, and the
// one command that finishes it (Unfinished): a run stopped after its bypass
// comment, its merge or its record never reads as if it wrote nothing.
func (r *run) fail(err error) (Result, error) {
	r.res.ExitCode = ExitFailed
	r.res.Stopped = errors.Is(err, errStopped)
	r.res.Recorded = r.res.Merged && r.landing.recorded
	story := "the Story is not updated"
	if r.target.story != 0 {
		story = fmt.Sprintf("Story #%d is not updated", r.target.story)
	}
	switch {
	case r.res.Recorded:
		r.res.Unfinished = fmt.Sprintf("merged as %s and its record is on the ledger, but %s (%v); run aayu ship %d again to finish it without merging twice",
			gitsha.Short(r.res.MergeCommit), story, err, r.pr)
	case r.res.Merged && !r.res.Shipped:
		r.res.Unfinished = fmt.Sprintf("merged as %s, but the record did not reach the ledger and %s (%v); run aayu ship %d again to finish it without merging twice",
			gitsha.Short(r.res.MergeCommit), story, err, r.pr)
	case r.res.Stopped && r.bypass.posted != "" && !r.bypass.deleted:
		r.res.Unfinished = fmt.Sprintf("the Solo-mode bypass comment for head %s is on #%d (%s), but nothing was merged, no record is on the ledger and %s; run aayu ship %d again to finish it: it uses that comment and posts no second one",
			gitsha.Short(r.target.head), r.pr, r.bypass.posted, story, r.pr)
	}
	return r.res, err
}

// logRefusal writes the refused ship to the actions log: nothing was written
// on GitHub, but the attempt and its reasons are kept.
func (r *run) logRefusal() {
	if r.cfg.Log == nil {
		return
	}
	_ = r.cfg.Log.Append(actions.Record{Time: r.cfg.Now(), Command: r.command(), Repo: r.repoName(), Item: r.item(),
		Who: r.cfg.Viewer, Outcome: "refused", Detail: strings.Join(r.res.Refusals, "; ")})
}

// record keeps a write for this run's log segment and appends it to the
// local actions log.
func (r *run) record(outcome string, writes []string, detail string) {
	rec := actions.Record{Time: r.cfg.Now().UTC(), Command: r.command(), Repo: r.repoName(), Item: r.item(),
		Who: r.cfg.Viewer, Outcome: outcome, Writes: writes, Detail: detail}
	r.landing.records = append(r.landing.records, rec)
	if r.cfg.Log != nil {
		_ = r.cfg.Log.Append(rec)
	}
}

func (r *run) command() string  { return fmt.Sprintf("ship %d", r.pr) }
func (r *run) repoName() string { return r.cfg.Owner + "/" + r.cfg.Repo }
func (r *run) item() string     { return fmt.Sprintf("#%d", r.pr) }
