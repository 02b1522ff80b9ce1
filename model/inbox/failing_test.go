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
