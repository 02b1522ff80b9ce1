package inbox

import (
	"strconv"
	"testing"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/untrusted"
)

// TestCommandPerCard: each card names the command a person runs for it:
// a Decision's recommendation through aayu decide, a ready Story PR
// through aayu ship (with --solo-bypass in solo mode), the rest the inbox.
func TestCommandPerCard(t *testing.T) {
	s := base()
	withAll(&s)
	withOneWayDecision(&s)
	want := map[string]string{
		"decision#324":       "aayu decide 324 --accept 1",
		"decision#283":       "aayu decide 283 --accept 1",
		"ready-to-ship#148":  "aayu ship 148",
		"needs-review#150":   "aayu inbox",
		"review-stopped#151": "aayu inbox",
	}
	steps := Derive(s)
	for id, cmd := range want {
		st, ok := Find(steps, id)
		if !ok {
			t.Fatalf("no card %s", id)
		}
		if got := Command(st); got != cmd {
			t.Errorf("%s: Command = %q, want %q", id, got, cmd)
		}
	}
	s.SoloMode = true
	if st, _ := Find(Derive(s), "ready-to-ship#148"); Command(st) != "aayu ship 148 --solo-bypass" {
		t.Errorf("solo mode: Command = %q", Command(st))
	}
	bad := base()
	bad.Issues = append(bad.Issues, Issue{Number: 9, Title: "no options", State: "open", Labels: []untrusted.Label{LabelDecision}, Body: "Door: two-way"})
	if st, _ := Find(Derive(bad), "decision#9"); Command(st) != "" {
		t.Errorf("a Decision whose body does not parse names %q; it is fixed on GitHub", Command(st))
	}
}

// TestCommandOfAHalfDoneDecisionFinishesIt: the option already commented
// is the one named, which finishes it.
func TestCommandOfAHalfDoneDecisionFinishesIt(t *testing.T) {
	s := base()
	withOneWayDecision(&s)
	s.IssueComments[283] = append(s.IssueComments[283], identity.Comment{Author: founder, Body: "Accepted option 3 (Drop it) by @founder"})
	st, _ := Find(Derive(s), "decision#283")
	if got := Command(st); got != "aayu decide 283 --accept 3" {
		t.Errorf("Command = %q", got)
	}
}

func TestNext(t *testing.T) {
	s := base()
	withAll(&s)
	steps := Derive(s)
	cases := []struct {
		steps []Step
		want  string
	}{
		{nil, "Nothing is waiting in your inbox: no command to run now."},
		{steps[:1], "Waiting in your inbox: 1 step — run aayu inbox"},
		{steps[:3], "Waiting in your inbox: 3 steps — run aayu inbox"},
	}
	for _, c := range cases {
		if got := Next(c.steps); got != c.want {
			t.Errorf("Next(%d steps) = %q, want %q", len(c.steps), got, c.want)
		}
	}
	needs := 0
	for _, st := range steps {
		if st.Group == NeedsYou {
			needs++
		}
	}
	if got := Next(steps); needs == len(steps) || got != "Waiting in your inbox: "+strconv.Itoa(len(steps))+" steps ("+strconv.Itoa(needs)+" need you, "+strconv.Itoa(len(steps)-needs)+" housekeeping) — run aayu inbox" {
		t.Errorf("Next(all) = %q", got)
	}
}
