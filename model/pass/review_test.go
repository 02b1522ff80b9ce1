package pass

import (
	"testing"
	"time"

	"github.com/aayudha/aayu/model/identity"
)

func rv(id int64, login, state string, minute int) Review {
	return Review{ID: id, Author: identity.Account{Login: login}, State: state, CommitID: head,
		SubmittedAt: time.Date(2026, 10, 12, 9, minute, 0, 0, time.UTC)}
}

func TestLatestDecisive(t *testing.T) {
	cases := []struct {
		name    string
		reviews []Review
		want    map[string]int64 // login → review id
	}{
		{"none", nil, map[string]int64{}},
		{"approval", []Review{rv(1, "ana", StateApproved, 1)}, map[string]int64{"ana": 1}},
		{"comment does not replace approval", []Review{rv(1, "ana", StateApproved, 1), rv(2, "ana", StateCommented, 2)}, map[string]int64{"ana": 1}},
		{"comment alone is not decisive", []Review{rv(1, "ana", StateCommented, 1)}, map[string]int64{}},
		{"changes requested replaces approval", []Review{rv(1, "ana", StateApproved, 1), rv(2, "ana", StateChangesRequested, 2)}, map[string]int64{"ana": 2}},
		{"approval replaces changes requested", []Review{rv(1, "ana", StateChangesRequested, 1), rv(2, "ana", StateApproved, 2)}, map[string]int64{"ana": 2}},
		{"dismissed clears", []Review{rv(1, "ana", StateApproved, 1), rv(2, "ana", StateDismissed, 2)}, map[string]int64{}},
		{"order by time, not by input", []Review{rv(2, "ana", StateChangesRequested, 5), rv(1, "ana", StateApproved, 1)}, map[string]int64{"ana": 2}},
		{"logins fold case", []Review{rv(1, "Ana", StateApproved, 1), rv(2, "ana", StateChangesRequested, 2)}, map[string]int64{"ana": 2}},
		{"per reviewer", []Review{rv(1, "ana", StateApproved, 1), rv(2, "bo", StateChangesRequested, 2)}, map[string]int64{"ana": 1, "bo": 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := LatestDecisive(c.reviews)
			if len(got) != len(c.want) {
				t.Fatalf("got %d reviewers, want %d: %v", len(got), len(c.want), got)
			}
			for login, id := range c.want {
				if got[login].ID != id {
					t.Errorf("%s: review %d, want %d", login, got[login].ID, id)
				}
			}
		})
	}
}
