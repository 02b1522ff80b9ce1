package ship

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// ShippedMarker ends the comment ship leaves on the Story it shipped; a
// later run finds it and never posts it twice.
func ShippedMarker(pr int, head string) string {
	return fmt.Sprintf("<!-- aayu:shipped pr=%d head=%s -->", pr, head)
}

// updateStory is gate 9: the Story the pull request ships reads
// status:merged, carries a comment naming the pack, the ship record and the
// human pass, and loses its lease, so the inbox never files it as merged
// without ship. Each write is made only when it is missing, so a run that
// stopped half way finishes with each write once. The Story and its
// comments are read side by side, then the labels are set in one write
// (the status before merged and the lease gone, status:merged on: a reader
// never sees the Story with two statuses or none), then the comment.
func (r *run) updateStory() (gateOutcome, error) {
	if r.target.story == 0 {
		return gateOutcome{skipped: true, words: "the pull request links no Story"}, nil
	}
	var (
		comments    []identity.Comment
		commentsErr error
		read        = make(chan struct{})
	)
	go func() {
		defer close(read)
		comments, commentsErr = r.issueComments(r.target.story)
	}()
	is, _, err := r.cfg.Client.Issues.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, r.target.story)
	<-read
	if ghx.IsNotFound(err) {
		return gateOutcome{skipped: true, words: fmt.Sprintf("#%d, the Story it links, cannot be read", r.target.story)}, nil
	}
	if err != nil {
		return gateOutcome{}, &storyError{err: err, words: fmt.Sprintf("reading Story #%d: %s; #%d is merged and its record is on the ledger", r.target.story, ghx.Describe(err), r.pr)}
	}
	if commentsErr != nil {
		return gateOutcome{}, r.storyFailed("reading its comments", commentsErr)
	}
	labels, done := storyLabels(is.Labels)
	if len(done) > 0 {
		if _, _, err := r.cfg.Client.Issues.Edit(r.ctx, r.cfg.Owner, r.cfg.Repo, r.target.story, &github.IssueRequest{Labels: &labels}); err != nil {
			return gateOutcome{}, r.storyFailed("setting its labels", err)
		}
	}
	posted, err := r.shippedComment(comments)
	if err != nil {
		return gateOutcome{}, r.storyFailed("commenting", err)
	}
	if posted != "" {
		done = append(done, "commented "+posted)
	}
	r.res.StoryUpdated = true
	if len(done) == 0 {
		return gateOutcome{words: fmt.Sprintf("Story #%d already read %s with its shipped comment", r.target.story, inbox.LabelMerged)}, nil
	}
	r.record("done", []string{fmt.Sprintf("Story #%d: %s", r.target.story, strings.Join(done, ", "))}, "")
	return gateOutcome{words: fmt.Sprintf("Story #%d: %s", r.target.story, strings.Join(done, ", "))}, nil
}

// storyLabels is the Story's labels once shipped: every status but
// status:merged (inbox.OtherStatuses) and the lease taken off,
// status:merged on, every other label kept; done says what changed, empty
// when nothing does.
func storyLabels(now []*github.Label) (labels, done []string) {
	var names []string
	for _, l := range now {
		names = append(names, l.GetName())
	}
	drop := map[string]bool{}
	for _, name := range inbox.OtherStatuses(names, inbox.LabelMerged) {
		drop[name] = true
		done = append(done, "removed "+name)
	}
	merged := false
	labels = []string{}
	for _, name := range names {
		switch {
		case drop[name]:
		case strings.EqualFold(name, inbox.LabelLease): // GitHub's label names ignore case
			done = append(done, "removed "+name)
		default:
			merged = merged || strings.EqualFold(name, inbox.LabelMerged)
			labels = append(labels, name)
		}
	}
	if !merged {
		labels = append(labels, inbox.LabelMerged)
		done = append(done, "labelled "+inbox.LabelMerged)
	}
	return labels, done
}

func (r *run) storyFailed(step string, err error) error {
	return &storyError{err: err, words: fmt.Sprintf("updating Story #%d (%s): %s; #%d is merged and its record is on the ledger, so run aayu ship %d again to finish the Story",
		r.target.story, step, ghx.Describe(err), r.pr, r.pr)}
}

// storyError keeps GitHub's error under the words, so the retries after
// the merge (landRetrying, updateStoryRetrying) can tell a passing fault
// from a refusal.
type storyError struct {
	err   error
	words string
}

func (e *storyError) Error() string { return e.words }
func (e *storyError) Unwrap() error { return e.err }

// afterMergeAttempts bounds the retries after the merge: the pull request
// is already merged, so a passing 5xx must not leave it without its record
// or its Story looking unshipped.
const afterMergeAttempts = 8

// updateStoryRetrying runs updateStory again after a fault GitHub may
// recover from. It is safe to repeat because updateStory re-reads the
// Story and makes only the writes still missing.
func (r *run) updateStoryRetrying() (gateOutcome, error) { return r.retryAfterMerge(r.updateStory) }

// landRetrying runs land again after such a fault. It is safe to repeat
// because every attempt re-reads the ledger's tip for this head's
// ship.json before it commits (land's Unless).
func (r *run) landRetrying() (gateOutcome, error) { return r.retryAfterMerge(r.land) }

// retryAfterMerge is the one retry rule for the writes after the merge:
// again after a fault GitHub may recover from, never after a refusal.
func (r *run) retryAfterMerge(step func() (gateOutcome, error)) (gateOutcome, error) {
	var out gateOutcome
	err := ghx.Steps{Attempts: afterMergeAttempts}.Retry(r.ctx, ghx.Retryable, func() (err error) {
		out, err = step()
		return err
	})
	return out, err
}

// shippedComment posts the Story's shipped comment unless the person's is
// already there for this head among list, the Story's comments read just
// before; it returns the new comment's URL, or "".
func (r *run) shippedComment(list []identity.Comment) (string, error) {
	marker := ShippedMarker(r.pr, r.target.head)
	has := func(list []identity.Comment) bool {
		for _, c := range list {
			if identity.SameLogin(c.Author.Login, r.cfg.Viewer) && strings.Contains(c.Body.Raw(), marker) {
				return true
			}
		}
		return false
	}
	find := func() (bool, error) {
		list, err := r.issueComments(r.target.story)
		return err == nil && has(list), err
	}
	if has(list) {
		return "", nil
	}
	c, _, err := r.cfg.Client.Issues.CreateComment(r.ctx, r.cfg.Owner, r.cfg.Repo, r.target.story, &github.IssueComment{Body: github.String(actions.Neutralize(r.shippedBody()))})
	if errors.Is(err, ghx.ErrMayHaveLanded) {
		if there, ferr := find(); ferr == nil && there {
			return "(after a lost answer)", nil
		}
	}
	if err != nil {
		return "", err
	}
	return c.GetHTMLURL(), nil
}

// shippedBody names what covers the Story: the pack by its hash, the ship
// record by its ledger path, and the human pass as ship.json records it.
func (r *run) shippedBody() string {
	packSHA, runID := "", int64(0)
	if r.evidence.pack != nil {
		packSHA, runID = r.evidence.pack.report.PackSHA256, r.evidence.pack.run.GetID()
	} else if r.target.resume != nil {
		packSHA, runID = r.target.resume.PackSHA, r.target.resume.RunID
	}
	var b strings.Builder
	// Every field from GitHub is one neutral word or line: the comment is
	// part of the record, and a field must not add lines to it.
	fmt.Fprintf(&b, "Shipped in #%d by @%s with aayu ship: squash-merged into %s as %s, at head %s.\n\n",
		r.pr, recordWord(r.cfg.Viewer), recordWord(r.target.baseRef), r.res.MergeCommit, r.target.head)
	fmt.Fprintf(&b, "- Pack: pack.json sha256 %s, from merge-gate run %d\n", packSHA, runID)
	fmt.Fprintf(&b, "- Ship record: %s:%s/ship.json\n", LedgerBranch, ledgerDir(r.target.story, r.target.head))
	b.WriteString("- Human pass: " + r.passLine() + "\n\n")
	b.WriteString(ShippedMarker(r.pr, r.target.head))
	return b.String()
}

func (r *run) passLine() string {
	p := r.passing.pass
	by := recordWord(firstNonEmpty(p.Login, r.cfg.Viewer))
	switch p.Kind {
	case pass.KindSoloBypass:
		return fmt.Sprintf("solo-mode bypass by @%s; no review happened (%s)", by, recordWord(p.CommentURL))
	case pass.KindReview:
		return fmt.Sprintf("review by @%s of head %s (%s)", by, gitsha.Short(r.target.head), firstNonEmpty(recordWord(p.ReviewURL), "on the ledger"))
	case pass.KindAutonomous, pass.KindProof:
		return fmt.Sprintf("%s: no person reviewed it, and the inbox audits it", p.Kind)
	}
	return p.Kind + " by @" + by
}

// finishShipped ends a run on a pull request whose record is already on
// the ledger. A Story an earlier run left without its update (it stopped
// after the ledger) is finished, after the presence check and a yes, like
// any write; otherwise nothing is written.
func (r *run) finishShipped() (Result, error) {
	done := func(words string) (Result, error) {
		r.emit(Event{Gate: GateDone, State: Passed, Words: words})
		return r.res, nil
	}
	todo, err := r.storyTodo()
	if err != nil {
		r.skipRest(GatePolicy, "already shipped: the record is on the ledger")
		return r.fail(err)
	}
	if !todo {
		r.res.StoryUpdated = r.target.story != 0
		r.skipRest(GatePolicy, "already shipped: the record is on the ledger")
		return done("already shipped; nothing was written")
	}
	var rec ShipRecord
	if err := json.Unmarshal(r.res.ShipRecord, &rec); err != nil {
		r.skipRest(GatePolicy, "already shipped: the record is on the ledger")
		return r.fail(fmt.Errorf("reading the ship record on the ledger: %w", err))
	}
	hp := rec.HumanPass
	r.passing.pass = pass.PassResult{Passed: true, Kind: hp.Kind, Login: hp.Login, ReviewURL: hp.ReviewURL, CommentURL: hp.CommentURL, Commit: hp.Commit}
	if r.target.resume != nil && r.target.resume.PackSHA == "" {
		r.target.resume.PackSHA, r.target.resume.RunID = rec.PackSHA256, rec.GateRun.RunID
	}
	for _, g := range []GateID{GatePolicy, GatePack, GateHumanPass} {
		r.emit(Event{Gate: g, State: Skipped, Words: "already shipped: the record is on the ledger"})
	}
	p := Plan{PR: r.pr, Title: untrusted.Text(r.target.pull.GetTitle()), Head: r.target.head, Base: r.target.baseRef, Story: r.target.story, Viewer: r.cfg.Viewer,
		PassKind: hp.Kind, PassBy: hp.Login,
		Writes: []string{fmt.Sprintf("updates Story #%d, which an earlier ship left unfinished: %s, a comment naming the pack, the ship record and the pass, %s removed",
			r.target.story, inbox.LabelMerged, inbox.LabelLease)}}
	ok, err := r.gate(GatePresence, func() (gateOutcome, error) {
		if err := r.askPresence(r.needFor(), p); err != nil {
			return gateOutcome{}, err
		}
		return r.checkPresence()
	})
	if err != nil || !ok {
		if err != nil {
			r.skipRest(GateConfirm, "not reached: nothing was written")
			return r.fail(err)
		}
		return r.refusedBefore(GateConfirm)
	}
	r.res.Plan = &p
	if ok, err = r.gate(GateConfirm, func() (gateOutcome, error) { return r.confirm(p) }); err != nil || !ok {
		if err != nil {
			r.skipRest(GateBypass, "not reached: nothing was written")
			return r.fail(err)
		}
		return r.refusedBefore(GateBypass)
	}
	for _, g := range []GateID{GateBypass, GateMerge, GateLedger} {
		r.emit(Event{Gate: g, State: Skipped, Words: "done by an earlier run"})
	}
	if ok, err := r.gate(GateStory, r.updateStoryRetrying); err != nil && !stoppedAfterLast(ok, err) {
		r.skipRest(GateDone, "not finished")
		return r.fail(err)
	}
	return done("already shipped; this run finished the Story")
}

// storyTodo says whether the Story still lacks its update: status:merged,
// the person's shipped comment for this head, or the lease removed.
func (r *run) storyTodo() (bool, error) {
	if r.target.story == 0 {
		return false, nil
	}
	is, _, err := r.cfg.Client.Issues.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, r.target.story)
	if ghx.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading Story #%d: %s", r.target.story, ghx.Describe(err))
	}
	merged, lease := false, false
	var names []string
	for _, l := range is.Labels {
		merged = merged || l.GetName() == inbox.LabelMerged
		lease = lease || l.GetName() == inbox.LabelLease
		names = append(names, l.GetName())
	}
	if !merged || lease || len(inbox.OtherStatuses(names, inbox.LabelMerged)) > 0 {
		return true, nil
	}
	list, err := r.issueComments(r.target.story)
	if err != nil {
		return false, err
	}
	for _, c := range list {
		if identity.SameLogin(c.Author.Login, r.cfg.Viewer) && strings.Contains(c.Body.Raw(), ShippedMarker(r.pr, r.target.head)) {
			return false, nil
		}
	}
	return true, nil
}
