package inboxread

import (
	"reflect"
	"testing"

	"github.com/aayudha/aayu/model/checks"
)

// TestFailingChecksAreShipsFailingLessAayudhasOwn: the inbox flags exactly
// the checks ship's one green rule fails (checks.Judge): red, errored,
// timed out; never one still running or skipped; and not aayudha's own
// inspect and merge gate, which have cards of their own.
func TestFailingChecksAreShipsFailingLessAayudhasOwn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		list []checks.Check
		want []string
	}{
		{name: "nothing on the head"},
		{name: "a red status", list: []checks.Check{checks.FromStatus("lint", "failure", "w", "")}, want: []string{"lint"}},
		{name: "an errored status", list: []checks.Check{checks.FromStatus("lint", "error", "w", "")}, want: []string{"lint"}},
		{name: "a check still running", list: []checks.Check{checks.FromStatus("lint", "pending", "w", ""), checks.FromCheckRun("test", "in_progress", "", "a", "")}},
		{name: "skipped and neutral", list: []checks.Check{checks.FromCheckRun("a", "completed", "skipped", "x", ""), checks.FromCheckRun("b", "completed", "neutral", "x", "")}},
		{name: "timed out", list: []checks.Check{checks.FromCheckRun("test", "completed", "timed_out", "x", "")}, want: []string{"test"}},
		{name: "aayudha's own aside", list: []checks.Check{checks.FromStatus("aayudha/inspect", "failure", "github-actions[bot]", ""),
			checks.FromStatus(mergeGateCheck, "failure", "github-actions[bot]", ""), checks.FromCheckRun("zeta", "completed", "failure", "x", ""),
			checks.FromCheckRun("alpha", "completed", "cancelled", "x", "")}, want: []string{"alpha", "zeta"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range failingChecks(tc.list) {
				got = append(got, c.Name)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("failing %q, want %q", got, tc.want)
			}
		})
	}
}
