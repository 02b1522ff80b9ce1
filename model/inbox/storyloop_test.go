package inbox

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
)

const hostileTitle = "Story: tiers\x1b[2J\u202e\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n"

// readyLedger is a snapshot whose ledger was read: ReadySnapshots is set.
func readyLedger() Snapshot {
	s := base()
	s.ReadySnapshots = map[int]bool{}
	s.PlanRecords = map[int]pass.PlanRecord{}
	return s
}

func stepsOf(steps []Step, kind Kind) []Step {
	var out []Step
	for _, st := range steps {
		if st.Kind == kind {
			out = append(out, st)
		}
	}
	return out
}

// TestStoryWaitingForReadyCard: an open Story or Bug with no Ready
// snapshot on the ledger is a card whose recommendation opens aayu ready;
// one already Ready, finished, closed, ended by a housekeeping card, or a
// snapshot whose ledger was never read makes none.
func TestStoryWaitingForReadyCard(t *testing.T) {
	story := func(n int, labels ...untrusted.Label) Issue {
		return Issue{Number: n, Title: "Dental cap", State: "open", Labels: labels}
	}
	cases := []struct {
		name  string
		setup func(*Snapshot)
		want  []int
	}{
		{"a Story with no snapshot waits", func(s *Snapshot) { s.Issues = append(s.Issues, story(17, LabelStory)) }, []int{17}},
		{"a Bug with no snapshot waits", func(s *Snapshot) { s.Issues = append(s.Issues, story(18, LabelBug)) }, []int{18}},
		{"a Story already Ready makes no card", func(s *Snapshot) {
			s.Issues = append(s.Issues, story(17, LabelStory))
			s.ReadySnapshots[17] = true
		}, nil},
		{"a merged, done or cancelled Story makes no card", func(s *Snapshot) {
			s.Issues = append(s.Issues, story(17, LabelStory, LabelMerged), story(18, LabelBug, LabelDone), story(19, LabelStory, LabelCancelled))
		}, nil},
		{"a closed Story makes no card", func(s *Snapshot) {
			is := story(17, LabelStory)
			is.State = "closed"
			s.Issues = append(s.Issues, is)
		}, nil},
		{"an issue that is no Story makes no card", func(s *Snapshot) { s.Issues = append(s.Issues, story(17, "type:chore")) }, nil},
		{"a Decision makes no card", func(s *Snapshot) { withDecision(s) }, nil},
		{"a Story another replaces is housekeeping, not Ready", func(s *Snapshot) {
			s.Issues = append(s.Issues, story(90, LabelStory),
				Issue{Number: 95, Title: "New", State: "open", Body: "Replaces #90", Author: founder, Labels: []untrusted.Label{LabelStory}})
			s.ReadySnapshots[95] = true
		}, nil},
		{"a Story merged without ship is housekeeping, not Ready", func(s *Snapshot) { withMergedWithoutShip(s) }, nil},
		{"the ledger not read: no card from ignorance", func(s *Snapshot) {
			s.Issues = append(s.Issues, story(17, LabelStory))
			s.ReadySnapshots = nil
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := readyLedger()
			c.setup(&s)
			var got []int
			for _, st := range stepsOf(Derive(s), KindNeedsReady) {
				got = append(got, st.Item.Number)
			}
			if len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) {
				t.Fatalf("Ready cards %v, want %v", got, c.want)
			}
		})
	}

	s := readyLedger()
	s.Issues = append(s.Issues, Issue{Number: 17, Title: hostileTitle, State: "open", Labels: []untrusted.Label{LabelStory}})
	st := stepsOf(Derive(s), KindNeedsReady)[0]
	if st.Group != NeedsYou || st.Item.IsPR || Command(st) != "aayu ready 17" {
		t.Errorf("card %+v: command %q, want a NeedsYou Story card with aayu ready 17", st, Command(st))
	}
	rec := st.Recommendation
	if len(rec.Writes) != 1 || rec.Writes[0].Kind != WriteOpenCommand || rec.Writes[0].Command != CommandReady || rec.NeedsConfirm || rec.writes() {
		t.Errorf("recommendation %+v: want it to open aayu ready's screen, writing nothing itself", rec)
	}
	if !strings.Contains(rec.Label, "aayu ready 17") || !strings.Contains(st.Counsel.Raw(), "specs/17/ready.md") {
		t.Errorf("label %q, counsel %q: want the command and the ledger path named", rec.Label, st.Counsel.Raw())
	}
	if shown := st.Item.Title.String(); strings.ContainsAny(shown, "\x1b\x07\u202e\u009b") {
		t.Errorf("the hostile title reaches the screen as %q", shown)
	}
	if st.Item.Title.Raw() != hostileTitle {
		t.Errorf("the title is GitHub's raw text for --json, got %q", st.Item.Title.Raw())
	}
	if strings.ContainsAny(st.Counsel.Raw(), "\x1b\x07\u202e") {
		t.Errorf("the counsel carries the title's controls: %q", st.Counsel.Raw())
	}
	if st.Choices[len(st.Choices)-1].Key != SkipKey {
		t.Errorf("choices %+v: want skip last", st.Choices)
	}
}

// withPlanPR is an open pull request into dev that links Story 131 and
// touches the never layer L04.
func withPlanPR(s *Snapshot) {
	s.Issues = append(s.Issues, Issue{Number: 131, Title: hostileTitle, State: "open", Labels: []untrusted.Label{LabelStory}})
	s.ReadySnapshots[131] = true
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 148, Title: hostileTitle, HeadRef: "story/131-dental-cap", HeadSHA: headA, BaseRef: "dev", State: "open", Author: agent})
	s.NeverLayers = map[int][]string{148: {"L04"}}
}

func planRecord(kind, reviewer string, layers ...string) pass.PlanRecord {
	return pass.PlanRecord{Story: 131, Layers: layers, Kind: kind, Reviewer: reviewer, RecordedBy: reviewer,
		RecordedAt: "2026-10-12T07:00:00Z", CommentURL: "https://github.com/acme/benefits/issues/131#issuecomment-9"}
}

// TestPlanReviewCard: an open pull request touching a never layer whose
// Story has no plan review standing for it is a card whose recommendation
// opens aayu plan on the Story; a plan already reviewed (for these layers,
// by someone other than the author) makes none, as ship would take it.
func TestPlanReviewCard(t *testing.T) {
	cases := []struct {
		name  string
		setup func(*Snapshot)
		want  string // "" for no card, else a word of the counsel
	}{
		{"no record waits", func(s *Snapshot) {}, "has none recorded"},
		{"a review covering its layers makes no card", func(s *Snapshot) { s.PlanRecords[131] = planRecord(pass.PlanKindReview, "founder", "L04") }, ""},
		{"a review of fewer layers waits", func(s *Snapshot) {
			s.PlanRecords[131] = planRecord(pass.PlanKindReview, "founder", "L07")
			s.NeverLayers[148] = []string{"L04", "L07"}
		}, "covers L07, and this pull request touches L04, L07"},
		{"another Story's record waits", func(s *Snapshot) {
			r := planRecord(pass.PlanKindReview, "founder", "L04")
			r.Story = 99
			s.PlanRecords[131] = r
		}, "is for #99"},
		{"the author's own review waits", func(s *Snapshot) { s.PlanRecords[131] = planRecord(pass.PlanKindReview, agent.Login, "L04") }, "author's own plan review never counts"},
		{"a bypass in solo mode makes no card", func(s *Snapshot) {
			s.SoloMode = true
			s.PlanRecords[131] = planRecord(pass.KindSoloBypass, pass.NoPlanReviewer, "L04")
		}, ""},
		{"a bypass where a bot identity exists waits", func(s *Snapshot) {
			s.PlanRecords[131] = planRecord(pass.KindSoloBypass, pass.NoPlanReviewer, "L04")
		}, "needs a review"},
		{"no never layer makes no card", func(s *Snapshot) { delete(s.NeverLayers, 148) }, ""},
		{"a merged pull request makes no card", func(s *Snapshot) {
			s.PullRequests[0].State, s.PullRequests[0].Merged = "closed", true
		}, ""},
		{"a pull request that links no Story makes no card", func(s *Snapshot) {
			s.PullRequests[0].HeadRef = "feature/cap"
		}, ""},
		{"records not read: no card from ignorance", func(s *Snapshot) { s.PlanRecords = nil }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := readyLedger()
			withPlanPR(&s)
			c.setup(&s)
			got := stepsOf(Derive(s), KindNeedsPlanReview)
			if c.want == "" {
				if len(got) != 0 {
					t.Fatalf("cards %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].Counsel.Raw(), c.want) {
				t.Fatalf("cards %+v, want one saying %q", got, c.want)
			}
		})
	}

	for _, solo := range []bool{false, true} {
		s := readyLedger()
		withPlanPR(&s)
		s.SoloMode = solo
		st := stepsOf(Derive(s), KindNeedsPlanReview)[0]
		want := map[bool]string{false: "aayu plan 131", true: "aayu plan 131 --solo-bypass"}[solo]
		if Command(st) != want || st.Group != NeedsYou || !st.Item.IsPR || st.Item.Number != 148 {
			t.Errorf("solo %v: card %+v, command %q; want PR 148's card running %q", solo, st, Command(st), want)
		}
		rec := st.Recommendation
		if len(rec.Writes) != 1 || rec.Writes[0].Kind != WriteOpenCommand || rec.Writes[0].Command != CommandPlan || rec.Writes[0].Number != 131 || rec.writes() {
			t.Errorf("solo %v: recommendation %+v, want it to open aayu plan on Story 131, writing nothing itself", solo, rec)
		}
		if solo && !strings.Contains(rec.Label, "Solo-mode bypass") {
			t.Errorf("solo: label %q does not say it is the bypass", rec.Label)
		}
		if len(st.Links) != 1 || st.Links[0].Number != 131 || strings.ContainsAny(st.Links[0].Title.String(), "\x1b\x07\u202e\u009b") || strings.ContainsAny(st.Item.Title.String(), "\x1b\x07\u202e\u009b") {
			t.Errorf("solo %v: links %+v: want Story 131, its hostile title neutralised on screen", solo, st.Links)
		}
		if strings.ContainsAny(st.Counsel.Raw(), "\x1b\x07\u202e") {
			t.Errorf("the counsel carries a title's controls: %q", st.Counsel.Raw())
		}
	}
}

// TestPlanReviewCardByBasePolicy: the base branch's own policy decides
// whether a bypass stands, as ship reads it.
func TestPlanReviewCardByBasePolicy(t *testing.T) {
	s := readyLedger()
	withPlanPR(&s)
	s.SoloMode = true
	s.PlanRecords[131] = planRecord(pass.KindSoloBypass, pass.NoPlanReviewer, "L04")
	s.BasePolicy = map[string]Policy{"dev": {Approver: "founder", BotLogins: []string{"aayudha[bot]"}}}
	if got := stepsOf(Derive(s), KindNeedsPlanReview); len(got) != 1 {
		t.Fatalf("cards %+v: a bypass into a base with a bot identity needs a review", got)
	}
}

// TestStoryLoopCardsInJSON: --json gives the new kinds and each card's
// command, the title as GitHub has it.
func TestStoryLoopCardsInJSON(t *testing.T) {
	s := readyLedger()
	withPlanPR(&s)
	s.Issues = append(s.Issues, Issue{Number: 17, Title: hostileTitle, State: "open", Labels: []untrusted.Label{LabelStory}})
	want := map[string]string{"needs-ready#17": "aayu ready 17", "needs-plan-review#148": "aayu plan 131"}
	for _, st := range Derive(s) {
		obj, err := st.JSON([]string{"id", "kind", "title", "command"})
		if err != nil {
			t.Fatal(err)
		}
		if cmd, ok := want[obj["id"].(string)]; ok {
			if obj["command"] != cmd || obj["kind"] != string(st.Kind) || obj["title"] != hostileTitle {
				t.Errorf("%v: want command %q and GitHub's title", obj, cmd)
			}
			delete(want, obj["id"].(string))
		}
	}
	if len(want) != 0 {
		t.Errorf("no card for %v", want)
	}
}
