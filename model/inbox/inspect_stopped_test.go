package inbox

import "testing"

// TestReviewStoppedAsTheGatePostsIt: the merge gate's inspect posts SPEC
// §11's "review stopped: …" after three rounds; the card reads it as it
// reads the older "stopped …".
func TestReviewStoppedAsTheGatePostsIt(t *testing.T) {
	s := base()
	withReviewStopped(&s)
	s.PRFacts[151] = PRFacts{Statuses: []Status{{Context: InspectContext, State: "failure", FromGate: true,
		Description: "review stopped: 3 rounds on distinct heads did not converge; step back and rethink the approach"}}}
	for _, st := range Derive(s) {
		if st.Kind == KindReviewStopped && st.Item.Number == 151 {
			return
		}
	}
	t.Errorf("no review-stopped card for #151: %+v", Derive(s))
}
