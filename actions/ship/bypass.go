package ship

import (
	"errors"
	"fmt"
	"sort"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/google/go-github/v66/github"
)

// bypassClaim is what this run did about the Solo-mode bypass comment.
type bypassClaim struct {
	posted  string // the URL of the comment this run posted, "" when none
	deleted bool   // that comment was a duplicate and this run deleted it
	// used is the comment this ship stands on (its own or an earlier
	// run's), kept so a merge refused for a moved head can mark it unused.
	used identity.Comment
}

// bypassComments re-reads the pull request's comments (never the copy read
// for the human pass) and returns the person's Solo-mode bypass comments
// for this head, oldest first. GitHub's comment IDs only grow, so every run
// sees the same oldest one.
func (r *run) bypassComments() ([]identity.Comment, error) {
	r.passing.comments = nil
	if err := r.loadComments(); err != nil {
		return nil, err
	}
	var out []identity.Comment
	for _, c := range r.passing.comments {
		if _, ok := identity.FindSoloBypassComment([]identity.Comment{c}, r.cfg.Viewer, r.target.head, r.evidence.base.identity.BotLogins); ok {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// claimBypass checks and posts the bypass comment as a compare-and-set on
// the head: compare (re-read; an existing comment for the head is used,
// whoever's run posted it), set (post), then read back: when two runs
// posted, the oldest comment wins and the run that posted a later one
// deletes it, so one comment stays and both runs record the same one.
func (r *run) claimBypass() (gateOutcome, error) {
	// The head is read again beside the comments: both are the compare,
	// and neither read waits for the other.
	var (
		now    string
		nowErr error
		read   = make(chan struct{})
	)
	go func() {
		defer close(read)
		now, nowErr = r.headNow()
	}()
	list, err := r.bypassComments()
	<-read
	if err != nil {
		return gateOutcome{}, err
	}
	if len(list) > 0 {
		r.passing.pass.CommentURL, r.bypass.used = list[0].URL, list[0]
		return gateOutcome{words: "your comment for this head is already there: " + list[0].URL}, nil
	}
	if r.target.resume != nil {
		return gateOutcome{skipped: true, words: "merged earlier; no bypass comment for this head was found"}, nil
	}
	// The comment names a head: it is posted only for the head the pull
	// request has now, read again just before, never for one already gone.
	if err := nowErr; err != nil {
		return gateOutcome{}, fmt.Errorf("%w; no Solo-mode bypass: comment was posted and nothing was merged", err)
	}
	if now != r.target.head {
		return gateOutcome{refusals: []string{fmt.Sprintf("the head moved from %s to %s since ship checked it; no Solo-mode bypass: comment was posted and nothing was merged — run ship again to check the new head",
			gitsha.Short(r.target.head), gitsha.Short(now))}}, nil
	}
	body := actions.Neutralize(identity.SoloBypassComment(r.target.head, r.bypassWhy()))
	var (
		made    *github.IssueComment
		postErr error
		unknown bool
	)
	var fail error // a failure that ends the gate, worded
	_ = ghx.Steps{Attempts: 3}.Retry(r.ctx, func(err error) bool {
		// A lost answer whose comment is not there was never taken: post
		// again (the read-back in the step is the re-read the rule needs).
		return fail == nil && ghx.WriteAgain(err, func() (bool, error) { return len(list) > 0, nil })
	}, func() error {
		made, _, postErr = r.cfg.Client.Issues.CreateComment(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, &github.IssueComment{Body: github.String(body)})
		unknown = errors.Is(postErr, ghx.ErrMayHaveLanded)
		if postErr != nil && !unknown {
			fail = fmt.Errorf("posting the Solo-mode bypass: comment: %s; nothing was posted and nothing was merged", ghx.Describe(postErr))
			return fail
		}
		if made != nil {
			r.bypass.posted = made.GetHTMLURL()
			r.record("done", []string{fmt.Sprintf("posted the Solo-mode bypass: comment for head %s (%s)", r.target.head, made.GetHTMLURL())}, "")
		}
		var err error
		if list, err = r.readBackBypass(); err != nil {
			if unknown {
				fail = fmt.Errorf("posting the Solo-mode bypass: comment: %s, and reading the comments back failed too (%w); nothing was merged; run ship again: it uses the comment if it landed", ghx.Describe(postErr), err)
			} else {
				fail = fmt.Errorf("%w; nothing was merged%s", err, r.postedNote())
			}
			return fail
		}
		return postErr
	})
	if fail != nil {
		return gateOutcome{}, fail
	}
	if len(list) == 0 {
		if unknown {
			return gateOutcome{}, fmt.Errorf("posting the Solo-mode bypass: comment: %s; it is not on the pull request, so nothing was posted and nothing was merged", ghx.Describe(postErr))
		}
		return gateOutcome{}, fmt.Errorf("the Solo-mode bypass: comment ship posted (%s) is not on the pull request when read back; nothing was merged", r.bypass.posted)
	}
	first := list[0]
	r.passing.pass.CommentURL, r.bypass.used = first.URL, first
	if made == nil || made.GetID() == first.ID {
		return gateOutcome{words: "posted for head " + gitsha.Short(r.target.head) + ": " + first.URL}, nil
	}
	// Another run of ship posted first: this run's comment is the duplicate.
	_, derr := r.cfg.Client.Issues.DeleteComment(r.ctx, r.cfg.Owner, r.cfg.Repo, made.GetID())
	if derr != nil && !ghx.IsNotFound(derr) {
		r.record("failed", []string{fmt.Sprintf("deleting the duplicate Solo-mode bypass: comment %s", made.GetHTMLURL())}, ghx.Describe(derr))
		return gateOutcome{}, fmt.Errorf("another run of ship posted the Solo-mode bypass: comment first (%s), and the duplicate this run posted (%s) could not be deleted: %s; nothing was merged by this run",
			first.URL, made.GetHTMLURL(), ghx.Describe(derr))
	}
	r.bypass.deleted = true
	r.record("done", []string{fmt.Sprintf("deleted its duplicate Solo-mode bypass: comment %s; the first, %s, stands for head %s", made.GetHTMLURL(), first.URL, r.target.head)}, "")
	return gateOutcome{words: fmt.Sprintf("another run of ship posted first (%s), so this run uses that comment and deleted the one it posted", first.URL)}, nil
}

// readBackBypass re-reads the bypass comments after a post, a few times
// over a failing read: giving up here would leave a posted comment unused.
func (r *run) readBackBypass() ([]identity.Comment, error) {
	var list []identity.Comment
	err := ghx.Steps{Attempts: 3}.Retry(r.ctx, nil, func() (err error) {
		list, err = r.bypassComments()
		return err
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// confirmBypass re-reads the comments just before the merge: the comment
// this ship stands on must still be the oldest for the head.
func (r *run) confirmBypass() (gateOutcome, error) {
	list, err := r.bypassComments()
	if err != nil {
		return gateOutcome{}, fmt.Errorf("%w; nothing was merged%s", err, r.postedNote())
	}
	if len(list) == 0 || list[0].URL != r.passing.pass.CommentURL {
		return gateOutcome{refusals: []string{fmt.Sprintf("the Solo-mode bypass: comment this ship stands on (%s) is no longer the one for head %s on the pull request (deleted or edited); nothing was merged%s",
			r.passing.pass.CommentURL, gitsha.Short(r.target.head), r.postedNote())}}, nil
	}
	return gateOutcome{}, nil
}

// postedNote tells, after a refusal or failure, what this run did post, so
// a run that stops never reads as if it wrote nothing.
func (r *run) postedNote() string {
	switch {
	case r.bypass.posted == "":
		return ""
	case r.bypass.deleted:
		return fmt.Sprintf("; this run posted a Solo-mode bypass: comment (%s) and deleted it as a duplicate", r.bypass.posted)
	}
	return fmt.Sprintf("; this run posted the Solo-mode bypass: comment %s, which stays on the pull request for this head", r.bypass.posted)
}

// headNow re-reads the pull request's head.
func (r *run) headNow() (string, error) {
	pr, _, err := r.cfg.Client.PullRequests.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr)
	if err != nil {
		return "", fmt.Errorf("reading #%d's head again: %s", r.pr, ghx.Describe(err))
	}
	return pr.GetHead().GetSHA(), nil
}

// refuseMovedHead is the merge's refusal when GitHub says the head moved
// (409). A bypass comment this ship stood on was for the old head and
// merged nothing: it is edited to say so (identity.UnusedSoloBypassComment),
// which takes it out of every later pass, and aayu audit lists it.
func (r *run) refuseMovedHead() (gateOutcome, error) {
	words := fmt.Sprintf("the head moved since ship checked %s; nothing was merged — run ship again to check the new head", gitsha.Short(r.target.head))
	if r.passing.pass.Kind != pass.KindSoloBypass || r.bypass.used.ID == 0 {
		return gateOutcome{refusals: []string{words}}, nil
	}
	return gateOutcome{refusals: []string{words + r.markBypassUnused()}}, nil
}

// markBypassUnused edits the bypass comment this ship stood on to say no
// merge used it, and says in words what it did.
func (r *run) markBypassUnused() string {
	c := r.bypass.used
	movedTo := "a new head"
	if now, err := r.headNow(); err == nil && now != "" && now != r.target.head {
		movedTo = now
	}
	body := actions.Neutralize(identity.UnusedSoloBypassComment(r.target.head, movedTo, c.Body.Raw()))
	if _, _, err := r.cfg.Client.Issues.EditComment(r.ctx, r.cfg.Owner, r.cfg.Repo, c.ID, &github.IssueComment{Body: github.String(body)}); err != nil {
		r.record("failed", []string{fmt.Sprintf("marking the Solo-mode bypass: comment %s for head %s as not used", c.URL, r.target.head)}, ghx.Describe(err))
		return fmt.Sprintf("; the Solo-mode bypass: comment %s could not be marked as not used (%s), so it still reads as the bypass for head %s — edit it on GitHub",
			c.URL, ghx.Describe(err), gitsha.Short(r.target.head))
	}
	r.record("done", []string{fmt.Sprintf("marked the Solo-mode bypass: comment %s unused: head %s moved before the merge", c.URL, r.target.head)}, "")
	return fmt.Sprintf("; your Solo-mode bypass: comment %s now says it was not used, and aayu audit lists it", c.URL)
}
