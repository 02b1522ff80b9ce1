package verify

import (
	"testing"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestVerifyScreenPutsTheWebFloorBeforeThePack: the web floor runs only
// when the evidence map names a page, so its row is not in the list the
// screen starts with; it comes in before the pack's row, in run order.
func TestVerifyScreenPutsTheWebFloorBeforeThePack(t *testing.T) {
	t.Parallel()
	m := driven(t, tuitest.Common(80, 24), script{req: story3Req, events: []packbuild.Event{
		packbuild.StepStarted{Step: packbuild.StepWeb, What: "each screenshot criterion's page in headless chromium"},
	}}, false)
	var names []string
	for _, s := range m.steps {
		names = append(names, s.name)
	}
	if len(names) < 3 || names[len(names)-1] != packbuild.StepPack || names[len(names)-2] != packbuild.StepWeb {
		t.Fatalf("rows %v, want the web floor's just before the pack's", names)
	}
}
