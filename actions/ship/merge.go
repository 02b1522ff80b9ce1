package ship

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
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
	if r.cfg.Approval != nil {
		return r.checkApproval(need)
	}
	d := r.human(need)
	earlier := ""
	switch d.Outcome {
	case identity.Refused:
		return gateOutcome{refusals: []string{d.Reason}}, nil
	case identity.NeedsPresence:
		if earlier = r.earlierApproval(); earlier != "" {
			break // the access is still checked below
		}
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
	if r.passing.person.Access() < identity.AccessWrite {
		return gateOutcome{refusals: []string{fmt.Sprintf("@%s has %s access to %s; merging needs write access", r.cfg.Viewer, r.passing.person.Access(), r.repoName())}}, nil
	}
	if earlier != "" {
		return gateOutcome{words: earlier}, nil
	}
	if r.cfg.Presence != nil && r.cfg.Presence.Covers(Command(r.pr), need) {
		return gateOutcome{words: fmt.Sprintf("approved by @%s by the presence check (%s)", r.cfg.Presence.Login, r.cfg.Presence.Method)}, nil
	}
	return gateOutcome{words: fmt.Sprintf("@%s at a terminal", r.cfg.Viewer)}, nil
}

// postBypass is gate 6: with a solo-mode bypass, the person's "Solo-mode
// bypass:" comment for the head, posted only now that every check passed.
// The comment is GitHub's own lock on shipping this head: it is checked and
// posted as a compare-and-set (bypass.go), so two ships of one pull request
// end with one comment, the earliest, which both use.
func (r *run) postBypass() (gateOutcome, error) {
	if r.passing.pass.Kind != pass.KindSoloBypass {
		return gateOutcome{skipped: true, words: "no bypass: the pass is " + r.passing.pass.Kind}, nil
	}
	return r.claimBypass()
}

// merge is gate 7: a squash merge pinned to the head, so a head that moved
// since the checks is refused by GitHub (409) and nothing merges.
func (r *run) merge() (gateOutcome, error) {
	if r.target.resume != nil {
		return gateOutcome{skipped: true, words: "merged earlier as " + gitsha.Short(r.res.MergeCommit)}, nil
	}
	if k := r.passing.pass.Kind; k == pass.KindAutonomous || k == pass.KindProof {
		if _, _, err := r.cfg.Client.Issues.AddLabelsToIssue(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, []string{AuditLabel}); err != nil {
			return gateOutcome{}, fmt.Errorf("adding the %s label before merging with no review: %s; nothing was merged", AuditLabel, ghx.Describe(err))
		}
		r.record("done", []string{fmt.Sprintf("added the %s label", AuditLabel)}, "")
	}
	if r.passing.pass.Kind == pass.KindSoloBypass {
		if out, err := r.confirmBypass(); err != nil || len(out.refusals) > 0 {
			return out, err
		}
	}
	if refusal := r.copyMedia("nothing was merged"); refusal != "" {
		return gateOutcome{refusals: []string{refusal}}, nil
	}
	tr := mergeTrailers{Head: r.target.head, Story: r.target.story, RunID: r.evidence.pack.run.GetID(), PackSHA: r.evidence.pack.report.PackSHA256,
		PassKind: r.passing.pass.Kind, PassBy: r.passing.pass.Login, PassURL: firstNonEmpty(r.passing.pass.ReviewURL, r.passing.pass.CommentURL)}
	if tr.PassBy == "" {
		tr.PassBy = r.cfg.Viewer
	}
	out, err := r.squashMerge(mergeMessage(r.target.story, r.cfg.Viewer, tr), commitTitle(r.target.pull.GetTitle(), r.pr))
	var ge *github.ErrorResponse
	switch {
	case errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusConflict:
		return r.refuseMovedHead()
	case errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusMethodNotAllowed:
		// A concurrent ship of the same head may have merged it a moment
		// ago: its merge commit then carries this head's trailers.
		if sha, rerr := r.mergedAfterAll(); rerr == nil && sha != "" {
			r.res.Merged, r.res.MergeCommit = true, sha
			return gateOutcome{words: fmt.Sprintf("already squash-merged into %s for this head as %s, by another run of aayu ship", r.target.baseRef, gitsha.Short(sha))}, nil
		}
		return gateOutcome{refusals: []string{r.mergeRefusedWords(ge.Message) + r.postedNote()}}, nil
	case errors.Is(err, ghx.ErrMayHaveLanded):
		sha, rerr := r.mergedAfterAll()
		switch {
		case rerr != nil:
			return gateOutcome{}, fmt.Errorf("merging: %s; %w, so run it again: it merges only once", strings.TrimSuffix(ghx.Describe(err), "."), ErrMergeUnknown)
		case sha == "":
			return gateOutcome{}, fmt.Errorf("merging: %s; GitHub shows no merge of head %s by aayu ship, so nothing was merged", strings.TrimSuffix(ghx.Describe(err), "."), gitsha.Short(r.target.head))
		}
		out, err = &github.PullRequestMergeResult{SHA: github.String(sha)}, nil
	case err != nil:
		return gateOutcome{}, fmt.Errorf("merging: %s", ghx.Describe(err))
	}
	r.res.Merged, r.res.MergeCommit = true, out.GetSHA()
	r.record("done", []string{fmt.Sprintf("squash-merged #%d at head %s as %s", r.pr, r.target.head, out.GetSHA())}, "")
	return gateOutcome{words: fmt.Sprintf("squash-merged into %s as %s", r.target.baseRef, gitsha.Short(out.GetSHA()))}, nil
}

// ErrMergeUnknown says a merge's answer was lost and GitHub could not be
// asked afterwards whether it landed: the pull request may be merged. A
// run after it finds out, and merges only once.
var ErrMergeUnknown = errors.New("ship could not tell whether it merged")

// squashMerge asks GitHub for the squash merge pinned to the head. When the
// answer is lost or a 5xx, the pull request is read again: merged for this
// head by ship is done; still open is asked again (the merge is pinned to
// the head, so a repeat can never merge anything else), a few times.
func (r *run) squashMerge(msg, title string) (*github.PullRequestMergeResult, error) {
	var out *github.PullRequestMergeResult
	// Anything but open at this head, or a failed read, is not asked again:
	// the caller's re-read decides.
	landed := func() (bool, error) {
		pr, _, err := r.cfg.Client.PullRequests.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr)
		return err == nil && (pr.GetMerged() || pr.GetState() != "open" || pr.GetHead().GetSHA() != r.target.head), err
	}
	err := ghx.Steps{Attempts: 4}.Retry(r.ctx, func(err error) bool { return ghx.WriteAgain(err, landed) }, func() (err error) {
		out, _, err = r.cfg.Client.PullRequests.Merge(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, msg,
			&github.PullRequestOptions{MergeMethod: "squash", SHA: r.target.head, CommitTitle: title})
		return err
	})
	return out, err
}

// mergedAfterAll re-reads the pull request after a merge whose answer was
// lost: merged by ship for this head gives the merge commit.
func (r *run) mergedAfterAll() (string, error) {
	pr, _, err := r.cfg.Client.PullRequests.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr)
	if err != nil || !pr.GetMerged() || pr.GetHead().GetSHA() != r.target.head {
		return "", err
	}
	tr, err := r.readMergeTrailers(pr.GetMergeCommitSHA())
	if err != nil || tr == nil || tr.Head != r.target.head {
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
