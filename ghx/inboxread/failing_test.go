package inboxread_test

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/inbox"
)

// TestInboxFlagsAFailingCheckRunOfAnotherWorkflow: the project's own tests
// (another workflow's check run) failed on PR 4's head. The inbox reads it
// through GraphQL's statusCheckRollup (and REST's check-runs one by one),
// and the ready-to-ship card names it and will not offer ship.
func TestInboxFlagsAFailingCheckRunOfAnotherWorkflow(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	if _, err := f.srv.ReportCheckRun(f.srv.HeadSHA(sandbox.DemoPRReady), "go test ./...", "failure"); err != nil {
		t.Fatal(err)
	}
	snap := read(t, f.reader)
	failing := snap.PRFacts[sandbox.DemoPRReady].Failing
	if len(failing) != 1 || failing[0].Name != "go test ./..." || failing[0].Kind != "check run" {
		t.Fatalf("PR 4's failing checks: %+v", failing)
	}
	var card *inbox.Step
	for _, st := range inbox.Derive(snap) {
		if st.Item.Number == sandbox.DemoPRReady {
			card = &st
		}
	}
	if card == nil {
		t.Fatal("PR 4 has no card")
	}
	if !strings.Contains(card.Counsel.String(), `A check failed on head`) || !strings.Contains(card.Counsel.String(), `"go test ./..." of github-actions (failure)`) ||
		!strings.Contains(card.Counsel.String(), checks.Rule) {
		t.Errorf("the card does not flag the failing check: %s", card.Counsel)
	}
	for _, c := range card.Choices {
		for _, w := range c.Writes {
			if w.Kind == inbox.WriteOpenShip && (c.Disabled == "" || c.Recommended) {
				t.Errorf("ship is still offered: %+v", c)
			}
		}
	}
	if card.Recommendation.Label != "open it and review it" {
		t.Errorf("recommended %q, want opening it", card.Recommendation.Label)
	}
}
