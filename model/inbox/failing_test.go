package inbox

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/checks"
)

// TestFailingCheckCardSaysShipsOneRule: a card whose head has a failing
// check names it, says ship's one green rule in the seed's words (every
// required check of the base branch must be green, none may fail, skipped
// or neutral counts as green) rather than "until every check is green",
// disables "ship it" and recommends opening it; a head with none is left
// as it was.
func TestFailingCheckCardSaysShipsOneRule(t *testing.T) {
	card := func() Step {
		return Step{Kind: KindReadyToShip, Head: "0123456789abcdef0123456789abcdef01234567", Counsel: "ready.",
			Choices: []Choice{
				{Key: "1", Label: "ship it", Recommended: true, Writes: []Write{{Kind: WriteOpenShip, Number: 4}}},
				{Key: "2", Label: "open it and review it", Writes: []Write{{Kind: WriteOpen, Number: 4}}},
			}}
	}
	for _, tc := range []struct {
		name    string
		failing []checks.Check
		flagged bool
	}{
		{name: "no failing check"},
		{name: "another workflow's check run failed", flagged: true,
			failing: []checks.Check{checks.FromCheckRun("go test ./...", "completed", "failure", "github-actions", "")}},
		{name: "a status errored", flagged: true,
			failing: []checks.Check{checks.FromStatus("lint", "error", "writer", "")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := card()
			flagFailingChecks(&st, tc.failing)
			counsel := st.Counsel.String()
			if !tc.flagged {
				if counsel != "ready." || st.Choices[0].Disabled != "" || !st.Choices[0].Recommended || st.Choices[1].Recommended {
					t.Errorf("a card with no failing check changed: %+v", st)
				}
				return
			}
			for _, want := range []string{"A check failed on head 0123456", tc.failing[0].Describe(),
				"every required check of the base branch must be green, and no check may fail; a skipped or neutral required check counts as green, as GitHub counts it"} {
				if !strings.Contains(counsel, want) {
					t.Errorf("the card lacks %q:\n%s", want, counsel)
				}
			}
			if strings.Contains(counsel, "until every check is green") {
				t.Errorf("the card still says ship waits for every check: %s", counsel)
			}
			if st.Choices[0].Disabled == "" || st.Choices[0].Recommended || !st.Choices[1].Recommended {
				t.Errorf("ship is still offered, or opening is not recommended: %+v", st.Choices)
			}
		})
	}
}

// TestInboxIgnoresAnInspectTheGateDidNotPost: only the merge gate's own
// inspect status (FromGate, decided by checks.InspectFromGate) makes a
// "needs your review" or "review stopped" card, or puts a head at the
// human rung; anyone else's makes none.
func TestInboxIgnoresAnInspectTheGateDidNotPost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		status  Status
		kind    Kind // "" for no card
		atHuman bool
	}{
		{name: "the gate's human rung", status: Status{Context: InspectContext, State: "pending", Description: "human rung: no reviewer", FromGate: true}, kind: KindNeedsReview, atHuman: true},
		{name: "a forged human rung", status: Status{Context: InspectContext, State: "pending", Description: "human rung: no reviewer"}},
		{name: "the gate's stopped review", status: Status{Context: InspectContext, State: "failure", Description: "stopped after 3 rounds", FromGate: true}, kind: KindReviewStopped},
		{name: "a forged stopped review", status: Status{Context: InspectContext, State: "failure", Description: "stopped after 3 rounds"}},
		{name: "the gate's status of another name", status: Status{Context: "aayudha/merge-gate", State: "pending", Description: "human rung: no reviewer", FromGate: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			s.PullRequests = append(s.PullRequests, PullRequest{Number: 150, Title: "Claims export", HeadRef: "story/140-export", HeadSHA: headB, BaseRef: "dev", State: "open", Author: agent})
			s.PRFacts[150] = PRFacts{Statuses: []Status{tc.status}}
			var got Kind
			for _, st := range Derive(s) {
				if st.Item.Number == 150 {
					got = st.Kind
				}
			}
			if got != tc.kind {
				t.Errorf("card %q, want %q", got, tc.kind)
			}
			if AtHumanRung(s.PRFacts[150]) != tc.atHuman {
				t.Errorf("AtHumanRung = %v, want %v", !tc.atHuman, tc.atHuman)
			}
		})
	}
}
