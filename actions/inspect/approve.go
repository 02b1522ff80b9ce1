package inspect

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/inbox"
)

// ApproveKey is the key of "approve its head" on a needs-review card.
const ApproveKey = "2"

// ApproveStep is the inbox's needs-review card for pr and its "approve its
// head" choice, as `aayu inspect PR --approve` applies it: the same card,
// the same choice, the same refusals (inbox.Pick gives a disabled choice's
// reason). refusal says in words why there is none to apply.
func ApproveStep(snap inbox.Snapshot, pr int) (inbox.Step, inbox.Choice, string) {
	for _, st := range inbox.Derive(snap) {
		if st.Kind != inbox.KindNeedsReview || st.Item.Number != pr {
			continue
		}
		c, refusal := inbox.Pick(st, ApproveKey)
		return st, c, refusal
	}
	return inbox.Step{}, inbox.Choice{}, whyNoReview(snap, pr)
}

// whyNoReview says why pr has no head waiting for the person's review.
func whyNoReview(snap inbox.Snapshot, pr int) string {
	var found *inbox.PullRequest
	for i := range snap.PullRequests {
		if snap.PullRequests[i].Number == pr {
			found = &snap.PullRequests[i]
		}
	}
	switch {
	case found == nil:
		return fmt.Sprintf("#%d is no open pull request of this repository", pr)
	case inbox.AtHumanRung(snap.PRFacts[pr]):
		return fmt.Sprintf("head %s of #%d is already approved by the [autonomy] approver, so nothing waits for a review", gitsha.Short(found.HeadSHA), pr)
	}
	for _, st := range snap.PRFacts[pr].Statuses {
		if st.Context.Raw() == inbox.InspectContext && st.FromGate {
			return fmt.Sprintf("inspect does not wait at the human rung for head %s of #%d (the merge gate's run says %s: %s), so there is no review to record",
				gitsha.Short(found.HeadSHA), pr, st.State, strings.TrimSpace(st.Description.String()))
		}
	}
	return fmt.Sprintf("the merge gate's inspect has not judged head %s of #%d yet, so no review waits for it", gitsha.Short(found.HeadSHA), pr)
}
