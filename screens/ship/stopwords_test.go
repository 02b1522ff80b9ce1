package ship

import (
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/ship"
)

// TestStoppedShipLastWordsNameWhatLanded: after a quit request stopped
// ship once a write landed, the result line names that write (the bypass
// comment, the merge, the record) and what is left, and the run's own
// account of it (Unfinished) is said as a sentence; never "nothing was
// merged; starts again from the gates" when a comment landed.
func TestStoppedShipLastWordsNameWhatLanded(t *testing.T) {
	cases := []struct {
		name string
		res  core.Result
		want string
	}{
		{"the bypass comment", core.Result{Stopped: true, Unfinished: "the Solo-mode bypass comment for head abc is on #4"},
			" — stopped on ctrl+c after the write under way landed: the bypass comment posted, nothing merged; aayu ship 4 finishes it"},
		{"the merge", core.Result{Stopped: true, Merged: true, Unfinished: "merged as abc, but the record did not reach the ledger"},
			" — stopped on ctrl+c after the write under way landed: merged, the record not finished; aayu ship 4 finishes it without merging twice"},
		{"the record", core.Result{Stopped: true, Merged: true, Recorded: true, Unfinished: "merged as abc and its record is on the ledger"},
			" — stopped on ctrl+c after the write under way landed: merged and recorded, the Story not updated; aayu ship 4 finishes it without merging twice"},
		{"the Story's update", core.Result{Merged: true, Shipped: true}, " — ctrl+c came as the last write landed: shipped in full"},
	}
	for _, c := range cases {
		m := &Model{}
		m.opts.PR = 4
		m.run.stopWhy = "ctrl+c"
		m.question.confirmed = true
		res := c.res
		m.run.result = &res
		if got := m.stopSuffix(); got != c.want {
			t.Errorf("%s: %q; want %q", c.name, got, c.want)
		}
		if c.res.Unfinished != "" {
			if got := landedWords(c.res); !strings.HasPrefix(got, strings.ToUpper(c.res.Unfinished[:1])) || !strings.HasSuffix(got, ".") {
				t.Errorf("%s: landed words %q are not the run's account as a sentence", c.name, got)
			}
		}
	}
}
