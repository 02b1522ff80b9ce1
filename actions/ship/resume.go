package ship

import (
	"fmt"
	"time"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// ResumeWindow is how long after its merge a ship that merged and then
// failed may be finished without a new presence check. It is the validity
// of the device approval that let the merge happen (15 minutes), counted
// from GitHub's own merged_at, so a resume the next day asks again.
const ResumeWindow = 15 * time.Minute

// earlierApproval says, in words, why a run that finishes an earlier ship
// needs no new presence check, or "" when it does. Only the writes that
// complete an already-approved ship remain (the ledger record and the Story
// update): the pull request was merged by this person (GitHub's merged_by,
// which no text on GitHub can forge), by aayu ship for this very head (the
// merge commit's trailers), within ResumeWindow. A solo-mode bypass must
// name this person as its passer as well. An agent lane or CI is still
// refused by RequireHuman before this is asked, and every read-only gate
// (policy, pack, human pass) has run again for the unrecorded resume, so the
// record never claims a pass that does not hold now.
func (r *run) earlierApproval() string {
	if r.target.resume == nil || r.target.pull == nil || !r.target.pull.GetMerged() {
		return ""
	}
	if r.target.resume.Head == "" || r.target.resume.Head != r.target.head {
		return ""
	}
	if !identity.SameLogin(r.target.pull.GetMergedBy().GetLogin(), r.cfg.Viewer) {
		return ""
	}
	if r.target.resume.PassKind == pass.KindSoloBypass && !identity.SameLogin(r.target.resume.PassBy, r.cfg.Viewer) {
		return ""
	}
	at := r.target.pull.GetMergedAt().Time
	if at.IsZero() {
		return ""
	}
	age := r.cfg.Now().Sub(at)
	if age < -time.Minute || age > ResumeWindow {
		return ""
	}
	return fmt.Sprintf("finishing the ship you approved at %s: no new approval needed (merged by @%s as %s at head %s, %s ago; the approval holds for %s after the merge)",
		at.UTC().Format("15:04 UTC"), r.cfg.Viewer, gitsha.Short(r.res.MergeCommit), gitsha.Short(r.target.head), age.Round(time.Second), ResumeWindow)
}
