package inbox

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/untrusted"
)

// withBypassPosted is withReadyToShip in solo mode with the person's
// Solo-mode bypass comment for head on #148: a ship posted it and stopped.
func withBypassPosted(head string) func(s *Snapshot) {
	return func(s *Snapshot) {
		withReadyToShip(s)
		s.SoloMode = true
		f := s.PRFacts[148]
		f.Comments = append(f.Comments, identity.Comment{ID: 2, Author: founder, CreatedAt: t0,
			Body: untrusted.Text(identity.SoloBypassComment(head, "no reviewer exists in solo mode"))})
		s.PRFacts[148] = f
	}
}

// TestStoppedShipIsOneCard: an aayu ship stopped after any of its writes
// is one card, decided from what GitHub holds, that names what landed,
// what did not and the one command that finishes it; the facts never also
// make a "ready to ship" or a "merged without ship" card of it.
func TestStoppedShipIsOneCard(t *testing.T) {
	cases := []struct {
		name  string
		build func(*Snapshot)
		want  string // the one card for the pull request and its Story, by ID
		says  []string
	}{
		{"the bypass comment landed, nothing merged", withBypassPosted(headA), "ship-stopped#148",
			[]string{"stopped after its Solo-mode bypass comment for head " + headA[:12] + " landed", "nothing is merged, no record is on the ledger and Story #131 is not updated", "aayu ship 148 --solo-bypass"}},
		{"a bypass comment for another head is not this head's ship", withBypassPosted(headB), "ready-to-ship#148", nil},
		{"outside solo mode no bypass comment is ship's", func(s *Snapshot) { withBypassPosted(headA)(s); s.SoloMode = false }, "ready-to-ship#148", nil},
		{"merged by ship, no record", func(s *Snapshot) {
			withMergedWithoutShip(s)
			s.PullRequests[0].MergeCommitSHA = mergeSHA
			s.ShipMerges = map[int]bool{122: true}
		}, "ship-stopped#122", []string{"aayu ship merged #122 into dev as " + mergeSHA[:12], "its record is not on the ledger and Story #120 is still before status:merged", "Enter finishes it with aayu ship 122; it never merges twice"}},
		{"merged and recorded, the Story not updated", func(s *Snapshot) {
			withMergedWithoutShip(s)
			s.ShipRecords = map[int]bool{122: true}
		}, "ship-stopped#122", []string{"its record is on the ledger, but it stopped before updating Story #120", "aayu ship 122"}},
		{"merged without ship stays that card", withMergedWithoutShip, "merged-without-ship#120", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.build(&s)
			steps := Derive(s)
			if len(steps) != 1 || steps[0].ID() != c.want {
				var ids []string
				for _, st := range steps {
					ids = append(ids, st.ID())
				}
				t.Fatalf("cards %v; want the one card %s", ids, c.want)
			}
			st := steps[0]
			for _, w := range c.says {
				if !strings.Contains(st.Counsel.Raw(), w) {
					t.Errorf("the card says %q; want it to say %q", st.Counsel.Raw(), w)
				}
			}
			if st.Kind == KindShipStopped {
				cmd := ShipCommand(st.Item.Number, s.SoloMode)
				writes := 0
				for _, ch := range st.Choices {
					if ch.Key != SkipKey {
						writes++
					}
				}
				if Command(st) != cmd || st.Recommendation.Label != "finish it with "+cmd || writes != 1 {
					t.Errorf("command %q, recommendation %q, %d choices besides skip; want %q as its one choice", Command(st), st.Recommendation.Label, writes, cmd)
				}
			}
		})
	}
}

// TestStoppedShipAfterTheStoryUpdateIsNoCard: once the Story reads
// status:merged, a ship is finished: no card.
func TestStoppedShipAfterTheStoryUpdateIsNoCard(t *testing.T) {
	s := base()
	withMergedWithoutShip(&s)
	s.Issues[0].Labels = []untrusted.Label{LabelStory, LabelMerged}
	s.ShipRecords = map[int]bool{122: true}
	s.ShipMerges = map[int]bool{122: true}
	if steps := Derive(s); len(steps) != 0 {
		t.Fatalf("a finished ship still has a card: %+v", steps)
	}
}

// TestShipTrailerLines: only a last paragraph that is exactly ship's
// block counts; trailer lines in a title or above the last paragraph do
// not make a merge ship's.
func TestShipTrailerLines(t *testing.T) {
	block := ShipTrailerRecord + "\n" + ShipTrailerShip + " head=" + headA + " story=3 run=1 pack=\n" + ShipTrailerPass + " solo-bypass @founder"
	cases := []struct {
		name, msg string
		want      bool
	}{
		{"ship's squash commit", "Show it (#4)\n\nRefs #3\n\n" + block + "\n", true},
		{"CRLF line ends", strings.ReplaceAll("Show it (#4)\n\n"+block, "\n", "\r\n"), true},
		{"a title alone", block, false},
		{"the block above another paragraph", "Show it (#4)\n\n" + block + "\n\n* a commit", false},
		{"a fourth line in the block", "Show it (#4)\n\n" + block + "\nSigned-off-by: x", false},
		{"a merge without ship", "Merge pull request #10 from acme/story/9", false},
	}
	for _, c := range cases {
		if got := ShipTrailerLines(c.msg) != nil; got != c.want {
			t.Errorf("%s: ship's block found %v; want %v", c.name, got, c.want)
		}
	}
}
