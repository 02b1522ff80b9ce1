package inbox

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/identity"

	"github.com/aayudha/aayu/model/untrusted"
)

func TestReread(t *testing.T) {
	cases := []struct {
		name   string
		add    func(*Snapshot)
		id     string
		change func(*Snapshot)
		what   string // "" when nothing changed
	}{
		{"nothing changed", withDecision, "decision#324", func(*Snapshot) {}, ""},
		{"unrelated issue changed", withDecision, "decision#324", func(s *Snapshot) {
			s.Issues = append(s.Issues, Issue{Number: 1, Title: "x", State: "open"})
		}, ""},
		{"decision closed elsewhere", withDecision, "decision#324", func(s *Snapshot) { s.Issues[0].State = "closed" }, "no longer waits"},
		{"title edited", withDecision, "decision#324", func(s *Snapshot) { s.Issues[0].Title = "Production Engineer seat (revised)" }, "title changed"},
		{"options edited", withDecision, "decision#324", func(s *Snapshot) {
			s.Issues[0].Body = untrusted.Text(strings.Replace(seatDecision, "Wait a quarter", "Wait a year", 1))
		}, "choices changed"},
		{"recommendation moved", withDecision, "decision#324", func(s *Snapshot) {
			s.Issues[0].Body = "## Options\n1. Add the seat\n2. Wait a quarter (recommended)\nDoor: two-way\n"
		}, "choices changed"},
		{"door changed", withDecision, "decision#324", func(s *Snapshot) {
			s.Issues[0].Body = untrusted.Text(strings.Replace(seatDecision, "two-way", "one-way", 1))
		}, "body changed"},
		// The options stay as they were; what the person read around them
		// did not: the card's text is not the text the write would accept.
		{"a Decision's prose edited", withDecision, "decision#324", func(s *Snapshot) {
			s.Issues[0].Body = untrusted.Text(strings.Replace(seatDecision, "We need a production engineer.", "We need two production engineers.", 1))
		}, "body changed"},
		{"new counsel", withDecision, "decision#324", func(s *Snapshot) {
			s.IssueComments[324] = []identity.Comment{{ID: 5, Author: agent, Body: CounselMarker + " wait"}}
		}, "counsel changed"},
		{"head moved", withNeedsReview, "needs-review#150", func(s *Snapshot) {
			s.PullRequests[0].HeadSHA = headC
			s.PRFacts[150] = PRFacts{Statuses: []Status{{Context: InspectContext, State: "pending", Description: "human rung", FromGate: true}}}
		}, "head moved from " + headB[:12] + " to " + headC[:12]},
		{"ready comment gone with a push", withReadyToShip, "ready-to-ship#148", func(s *Snapshot) { s.PullRequests[0].HeadSHA = headC }, "no longer waits"},
		{"another PR merged for the story", withMergedWithoutShip, "merged-without-ship#120", func(s *Snapshot) {
			s.PullRequests = append(s.PullRequests, PullRequest{Number: 130, Title: "More vision", HeadRef: "story/120-more", BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0.Add(1), Author: agent})
		}, "linked issues or pull requests changed"},
		{"lease removed by someone", withMergedWithoutShip, "merged-without-ship#120", func(s *Snapshot) {
			s.Issues[0].Labels = []untrusted.Label{LabelStory}
		}, "choices changed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.add(&s)
			before, ok := Find(Derive(s), c.id)
			if !ok {
				t.Fatalf("%s not derived", c.id)
			}
			c.change(&s)
			after, _ := Find(Derive(s), c.id)
			changed, what := Reread(before, after)
			if c.what == "" {
				if changed {
					t.Fatalf("reported a change: %s", what)
				}
				return
			}
			if !changed || !strings.Contains(what, c.what) || !strings.Contains(what, "nothing was written") {
				t.Fatalf("Reread = (%v, %q), want a change mentioning %q", changed, what, c.what)
			}
		})
	}
}
