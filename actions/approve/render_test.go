package approve

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRenderBodyGrammarLayoutAndSoloLine: the batch comment's body as the
// person reads it on a phone. One step "waits" (two "wait"); each item's
// options and its recommendation stand on lines of their own; a batch an
// agent lane posted under the person's own token (solo mode) says so on
// the line after the first, and a bot's batch does not; the hostile text
// of a solo poster's login cannot add a line. The closed comment keeps the
// solo line and the layout.
func TestRenderBodyGrammarLayoutAndSoloLine(t *testing.T) {
	one := twoWayRecord()
	one.Items = one.Items[:1]
	solo := twoWayRecord()
	solo.PostedBy, solo.HumanFallback, solo.Way = "founder", true, WayDevice
	hostile := solo
	hostile.PostedBy = "evil\n<!-- aayu-batch 0123456789ab -->"
	for _, c := range []struct {
		name      string
		rec       Record
		want, not []string
	}{
		{"one step waits", one,
			[]string{"@founder 1 human-only step waits for your approval (batch " + one.Hash() + ").\n"},
			[]string{"step wait for", "Posted by an agent lane"}},
		{"two steps wait", twoWayRecord(),
			[]string{"@founder 2 human-only steps wait for your approval (batch " + twoWayRecord().Hash() + ").\n"},
			[]string{"steps waits", "Posted by an agent lane"}},
		{"options and recommendation on their own lines", twoWayRecord(),
			[]string{"\n   Options: 1. Add the seat (recommended) / 2. Wait a quarter\n   Recommendation: option 1 (Add the seat).\n",
				"\n   Options: 1. Keep it (recommended) / 2. Drop it\n   Recommendation: option 1 (Keep it).\n"},
			[]string{"quarter   Recommendation", "it   Recommendation"}},
		{"solo mode names the agent lane and the person's token", solo,
			[]string{"(batch " + solo.Hash() + ").\nPosted by an agent lane under @founder's own token (solo mode: no bot identity is configured), so GitHub shows it as @founder's comment.\n"},
			nil},
		{"a hostile poster login stays on its line", hostile,
			[]string{"Posted by an agent lane under @evil⏎&lt;!-- aayu-batch 0123456789ab --&gt;'s own token"},
			[]string{"\n<!-- aayu-batch 0123456789ab -->"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := Render(c.rec)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("body lacks %q:\n%s", w, out)
				}
			}
			for _, n := range c.not {
				if strings.Contains(out, n) {
					t.Errorf("body holds %q:\n%s", n, out)
				}
			}
			if MarkerIn(out) != c.rec.Hash() {
				t.Errorf("marker is %q, want %q", MarkerIn(out), c.rec.Hash())
			}
		})
	}
	closed := RenderClosed(solo, "applied on @founder's approval")
	for _, w := range []string{"\nPosted by an agent lane under @founder's own token", "\n   Recommendation: option 1 (Add the seat).\n"} {
		if !strings.Contains(closed, w) {
			t.Errorf("closed body lacks %q:\n%s", w, closed)
		}
	}
	// A bot's batch hashes as before the field existed: the field is left
	// out of the record when false.
	if strings.Contains(string(mustJSON(t, twoWayRecord())), "human_fallback") {
		t.Error("a bot's record carries human_fallback")
	}
}

func mustJSON(t *testing.T, r Record) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
