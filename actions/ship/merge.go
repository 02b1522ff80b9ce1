package ship

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/google/go-github/v66/github"
)

// AuditLabel is added before a merge no person reviewed: no label, no merge.
const AuditLabel = "aayu:audit"

// checkPresence is gate 5: ship is a human-only step. A needed presence
// check that was not approved is a refusal; askPresence ran it (through the
// screen) just before, once every read-only gate had passed.
func (r *run) checkPresence() (gateOutcome, error) {
	need := r.needFor()
	d := identity.RequireHuman(identity.HumanCheck{Command: Command(r.pr), Env: r.cfg.Env, Terminal: r.cfg.Terminal, CI: r.cfg.CI,
		Session: r.cfg.Presence, Need: need})
	switch d.Outcome {
	case identity.Refused:
		return gateOutcome{refusals: []string{d.Reason}}, nil
	case identity.NeedsPresence:
		if r.cfg.AskPresence != nil {
			return gateOutcome{refusals: []string{fmt.Sprintf("the presence check ended without @%s's approval (%s access), so nothing was written; run aayu ship %d again and approve its code as @%s",
				r.cfg.Viewer, need, r.pr, r.cfg.Viewer)}}, nil
		}
		return gateOutcome{refusals: []string{fmt.Sprintf("%s; run aayu ship %d with the presence check and approve its code as @%s",
			d.Reason, r.pr, r.cfg.Viewer)}}, nil
	}
	if s := r.cfg.Presence; s != nil && !identity.SameLogin(s.Login, r.cfg.Viewer) {
		return gateOutcome{refusals: []string{fmt.Sprintf("the presence check was approved by @%s, not by @%s who runs ship", s.Login, r.cfg.Viewer)}}, nil
	}
	if err := r.loadPerson(); err != nil {
		return gateOutcome{}, err
	}
	if r.person.Access() < identity.AccessWrite {
		return gateOutcome{refusals: []string{fmt.Sprintf("@%s has %s access to %s; merging needs write access", r.cfg.Viewer, r.person.Access(), r.repoName())}}, nil
	}
	if r.cfg.Presence != nil && r.cfg.Presence.Covers(Command(r.pr), need) {
		return gateOutcome{words: fmt.Sprintf("approved by @%s by the presence check (%s)", r.cfg.Presence.Login, r.cfg.Presence.Method)}, nil
	}
	return gateOutcome{words: fmt.Sprintf("@%s at a terminal", r.cfg.Viewer)}, nil
}

// postBypass is gate 6: with a solo-mode bypass, the person's "Solo-mode
// bypass:" comment for the head, posted only now that every check passed
// (an earlier one for the same head is reused, never doubled).
func (r *run) postBypass() (gateOutcome, error) {
	if r.pass.Kind != pass.KindSoloBypass {
		return gateOutcome{skipped: true, words: "no bypass: the pass is " + r.pass.Kind}, nil
	}
	if err := r.loadComments(); err != nil {
		return gateOutcome{}, err
	}
	bots := r.base.identity.BotLogins
	if c, ok := identity.FindSoloBypassComment(r.comments, r.cfg.Viewer, r.head, bots); ok {
		r.pass.CommentURL = c.URL
		return gateOutcome{words: "your comment for this head is already there: " + c.URL}, nil
	}
	if r.resume != nil {
		return gateOutcome{skipped: true, words: "merged earlier; no bypass comment for this head was found"}, nil
	}
	body := identity.SoloBypassComment(r.head, r.bypassWhy())
	c, _, err := r.cfg.Client.Issues.CreateComment(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, &github.IssueComment{Body: github.String(body)})
	if errors.Is(err, ghx.ErrMayHaveLanded) {
		r.comments = nil
		if lerr := r.loadComments(); lerr != nil {
			return gateOutcome{}, lerr
		}
		found, ok := identity.FindSoloBypassComment(r.comments, r.cfg.Viewer, r.head, bots)
		if !ok {
			return gateOutcome{}, fmt.Errorf("posting the Solo-mode bypass: comment: %s", ghx.Describe(err))
		}
		c, err = &github.IssueComment{HTMLURL: github.String(found.URL)}, nil
	}
	if err != nil {
		return gateOutcome{}, fmt.Errorf("posting the Solo-mode bypass: comment: %s; nothing was merged", ghx.Describe(err))
	}
	r.pass.CommentURL = c.GetHTMLURL()
	r.record("done", []string{fmt.Sprintf("posted the Solo-mode bypass: comment for head %s (%s)", r.head, c.GetHTMLURL())}, "")
	return gateOutcome{words: "posted for head " + short(r.head) + ": " + c.GetHTMLURL()}, nil
}

// merge is gate 7: a squash merge pinned to the head, so a head that moved
// since the checks is refused by GitHub (409) and nothing merges.
func (r *run) merge() (gateOutcome, error) {
	if r.resume != nil {
		return gateOutcome{skipped: true, words: "merged earlier as " + short(r.res.MergeCommit)}, nil
	}
	if k := r.pass.Kind; k == pass.KindAutonomous || k == pass.KindProof {
		if _, _, err := r.cfg.Client.Issues.AddLabelsToIssue(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, []string{AuditLabel}); err != nil {
			return gateOutcome{}, fmt.Errorf("adding the %s label before merging with no review: %s; nothing was merged", AuditLabel, ghx.Describe(err))
		}
		r.record("done", []string{fmt.Sprintf("added the %s label", AuditLabel)}, "")
	}
	tr := mergeTrailers{Head: r.head, Story: r.story, RunID: r.pack.run.GetID(), PackSHA: r.pack.report.PackSHA256,
		PassKind: r.pass.Kind, PassBy: r.pass.Login, PassURL: firstNonEmpty(r.pass.ReviewURL, r.pass.CommentURL)}
	if tr.PassBy == "" {
		tr.PassBy = r.cfg.Viewer
	}
	msg := fmt.Sprintf("Refs #%d\n\nShipped by @%s with aayu ship.\n\n%s", r.story, r.cfg.Viewer, tr.lines())
	title := fmt.Sprintf("%s (#%d)", r.pull.GetTitle(), r.pr)
	out, _, err := r.cfg.Client.PullRequests.Merge(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, msg,
		&github.PullRequestOptions{MergeMethod: "squash", SHA: r.head, CommitTitle: title})
	var ge *github.ErrorResponse
	switch {
	case errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusConflict:
		return gateOutcome{refusals: []string{fmt.Sprintf("the head moved since ship checked %s; nothing was merged — run ship again to check the new head", short(r.head))}}, nil
	case errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusMethodNotAllowed:
		return gateOutcome{refusals: []string{fmt.Sprintf("GitHub refused the merge (%s); nothing was merged", ge.Message)}}, nil
	case errors.Is(err, ghx.ErrMayHaveLanded):
		sha, rerr := r.mergedAfterAll()
		if rerr != nil || sha == "" {
			return gateOutcome{}, fmt.Errorf("merging: %s; ship could not tell whether it merged, so run it again: it merges only once", ghx.Describe(err))
		}
		out, err = &github.PullRequestMergeResult{SHA: github.String(sha)}, nil
	case err != nil:
		return gateOutcome{}, fmt.Errorf("merging: %s", ghx.Describe(err))
	}
	r.res.Merged, r.res.MergeCommit = true, out.GetSHA()
	r.record("done", []string{fmt.Sprintf("squash-merged #%d at head %s as %s", r.pr, r.head, out.GetSHA())}, "")
	return gateOutcome{words: fmt.Sprintf("squash-merged into %s as %s", r.baseRef, short(out.GetSHA()))}, nil
}

// mergedAfterAll re-reads the pull request after a merge whose answer was
// lost: merged by ship for this head gives the merge commit.
func (r *run) mergedAfterAll() (string, error) {
	pr, _, err := r.cfg.Client.PullRequests.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr)
	if err != nil || !pr.GetMerged() || pr.GetHead().GetSHA() != r.head {
		return "", err
	}
	tr, err := r.readMergeTrailers(pr.GetMergeCommitSHA())
	if err != nil || tr == nil || tr.Head != r.head {
		return "", err
	}
	return pr.GetMergeCommitSHA(), nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
