package pass

import (
	"sort"
	"strings"
	"time"

	"github.com/aayudha/aayu/model/identity"
)

// Review states as GitHub names them.
const (
	StateApproved         = "APPROVED"
	StateChangesRequested = "CHANGES_REQUESTED"
	StateCommented        = "COMMENTED"
	StateDismissed        = "DISMISSED"
)

// Review is a pull-request review as a fact.
type Review struct {
	ID          int64
	Author      identity.Account
	State       string // APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED (PENDING is never listed)
	CommitID    string // the commit the review was made on
	SubmittedAt time.Time
	URL         string
}

// LatestDecisive returns each reviewer's latest decisive review, keyed by
// lower-case login, as GitHub counts them: an APPROVED or CHANGES_REQUESTED
// review replaces the reviewer's earlier one, a COMMENTED review replaces
// nothing, and a DISMISSED one clears it. Reviews are taken in submission
// order (input order breaks ties).
func LatestDecisive(reviews []Review) map[string]Review {
	ordered := make([]Review, len(reviews))
	copy(ordered, reviews)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].SubmittedAt.Before(ordered[j].SubmittedAt) })
	out := map[string]Review{}
	for _, r := range ordered {
		key := strings.ToLower(r.Author.Login)
		if key == "" {
			continue
		}
		switch strings.ToUpper(r.State) {
		case StateApproved, StateChangesRequested:
			out[key] = r
		case StateDismissed:
			delete(out, key)
		}
	}
	return out
}
