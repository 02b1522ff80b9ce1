package ship

import (
	"encoding/json"
	"fmt"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// ReviewRecordPath is the ledger's review record of one head, as the
// inbox's "approve its head" writes it (seed 001: the record aayu inspect
// --approve writes).
func ReviewRecordPath(pr int, head string) string { return fmt.Sprintf("reviews/%d/%s.json", pr, head) }

// recordNote says what a review by record is, in the ship record.
const recordNote = "review by record: in solo mode GitHub refuses a review by the pull request's author (the person's token wrote it for an agent), so the person's approval of this head is the record on the ledger"

// recordedReview is the person's review of exactly this head on the ledger,
// read in solo mode only: there GitHub refuses the author's own review, and
// the record stands in for it. ok is false when there is none.
func (r *run) recordedReview() (pass.Review, bool, error) {
	if r.base == nil || !identity.SoloMode(r.base.identity) || r.head == "" {
		return pass.Review{}, false, nil
	}
	path := ReviewRecordPath(r.pr, r.head)
	b, err := ghx.ReadFile(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch, path)
	if ghx.IsNotFound(err) {
		return pass.Review{}, false, nil
	}
	if err != nil {
		return pass.Review{}, false, fmt.Errorf("reading %s on the ledger: %s", path, ghx.Describe(err))
	}
	var rec actions.ReviewRecord
	if json.Unmarshal(b, &rec) != nil || rec.PR != r.pr || rec.Head != r.head || rec.Login == "" {
		return pass.Review{}, false, nil // a record of another head, or not one at all, grants nothing
	}
	return pass.Review{State: "APPROVED", CommitID: rec.Head, SubmittedAt: rec.Time, URL: LedgerBranch + ":" + path,
		Author: identity.Account{Login: rec.Login}}, true, nil
}
