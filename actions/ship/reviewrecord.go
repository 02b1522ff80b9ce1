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
const recordNote = "review by record: the person's approval of this head, recorded on the ledger by aayu inbox; like any review it never counts for the pull request's author"

// recordedReview is the person's review of exactly this head on the ledger,
// read in solo mode only, and only when it names the person running ship
// (the token's account). It is a review like any other: by the pull
// request's author it never counts, so it never stands in for the review
// GitHub refuses an author (seed 001: every such merge needs a recorded
// bypass). ok is false when there is none.
func (r *run) recordedReview() (pass.Review, bool, error) {
	if r.evidence.base == nil || !identity.SoloMode(r.evidence.base.identity) || r.target.head == "" {
		return pass.Review{}, false, nil
	}
	path := ReviewRecordPath(r.pr, r.target.head)
	b, err := r.readFile(LedgerBranch, path)
	if ghx.IsNotFound(err) {
		return pass.Review{}, false, nil
	}
	if err != nil {
		return pass.Review{}, false, fmt.Errorf("reading %s on the ledger: %s", path, ghx.Describe(err))
	}
	var rec actions.ReviewRecord
	if json.Unmarshal(b, &rec) != nil || rec.PR != r.pr || rec.Head != r.target.head || rec.Login == "" {
		return pass.Review{}, false, nil // a record of another head, or not one at all, grants nothing
	}
	// The login in the record is the file's own word: anyone who can write
	// the ledger (in solo mode an agent lane writes with the person's token)
	// could name someone else. The record can only stand for the person
	// running this ship, whose account the token proves, so a record naming
	// anybody else grants nothing.
	if !identity.SameLogin(rec.Login, r.cfg.Viewer) {
		return pass.Review{}, false, nil
	}
	return pass.Review{State: "APPROVED", CommitID: rec.Head, SubmittedAt: rec.Time, URL: LedgerBranch + ":" + path,
		Author: identity.Account{Login: rec.Login}}, true, nil
}
