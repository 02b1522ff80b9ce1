package inbox

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// TestDeriveEachKind derives one snapshot per kind, then one with all of
// them, and checks kind, group, recommendation and what accepting writes.
func TestDeriveEachKind(t *testing.T) {
	cases := []struct {
		name      string
		add       func(*Snapshot)
		kind      Kind
		group     Group
		item      int
		recLabel  string
		recWrites []Write
	}{
		{"decision", withDecision, KindDecision, NeedsYou, 324, "accept option 1: Add the seat", []Write{
			{Kind: WriteComment, Number: 324, Body: "Accepted option 1 (Add the seat) by @founder"},
			{Kind: WriteAddLabel, Number: 324, Label: LabelAccepted},
			{Kind: WriteClose, Number: 324, Reason: "completed"},
		}},
		{"ready to ship", withReadyToShip, KindReadyToShip, NeedsYou, 148, "ship it", []Write{{Kind: WriteOpenShip, Number: 148}}},
		{"needs review", withNeedsReview, KindNeedsReview, NeedsYou, 150, "open it and review it", []Write{{Kind: WriteOpen, Number: 150}}},
		{"review stopped", withReviewStopped, KindReviewStopped, NeedsYou, 151, "open it and review it", []Write{{Kind: WriteOpen, Number: 151}}},
		{"merged without ship", withMergedWithoutShip, KindMergedWithoutShip, Housekeeping, 120, "mark it merged without proof (it stays uncovered)", []Write{
			{Kind: WriteComment, Number: 120, Body: "Merged in #122 without aayu ship, so no proof pack covers it; it stays uncovered."},
			{Kind: WriteRemoveLabel, Number: 120, Label: LabelLease},
			{Kind: WriteRemoveLabel, Number: 120, Label: "status:in-progress"}, // replaced, never left beside merged
			{Kind: WriteAddLabel, Number: 120, Label: LabelMerged},
		}},
		{"bug fix merged", withBugFixMerged, KindBugFixMerged, Housekeeping, 170, "close it as completed", []Write{
			{Kind: WriteAddLabel, Number: 170, Label: LabelDone},
			{Kind: WriteComment, Number: 170, Body: "Fixed in #171"},
			{Kind: WriteClose, Number: 170, Reason: "completed"},
		}},
		{"replaced", withReplaced, KindReplaced, Housekeeping, 90, "close it as not planned", []Write{
			{Kind: WriteAddLabel, Number: 90, Label: LabelCancelled},
			{Kind: WriteComment, Number: 90, Body: "Replaced by #95"},
			{Kind: WriteClose, Number: 90, Reason: "not_planned"},
		}},
		{"audit", withAudit, KindAudit, NeedsYou, 160, "looks right", []Write{
			{Kind: WriteLedgerAppend, Number: 160, Path: "autonomy/samples.jsonl"},
			{Kind: WriteRemoveLabel, Number: 160, Label: LabelAudit},
			{Kind: WriteLedgerRemove, Number: 160, Path: "autonomy/audit/160.json"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.add(&s)
			steps := Derive(s)
			if len(steps) != 1 {
				t.Fatalf("derived %d steps, want 1: %+v", len(steps), steps)
			}
			st := steps[0]
			if st.Kind != c.kind || st.Group != c.group || st.Item.Number != c.item {
				t.Fatalf("got %s/%s #%d, want %s/%s #%d", st.Kind, st.Group, st.Item.Number, c.kind, c.group, c.item)
			}
			if st.Recommendation.Label != c.recLabel || !st.Recommendation.Recommended {
				t.Errorf("recommendation = %q, want %q", st.Recommendation.Label, c.recLabel)
			}
			if !reflect.DeepEqual(st.Recommendation.Writes, c.recWrites) {
				t.Errorf("writes = %+v\nwant     %+v", st.Recommendation.Writes, c.recWrites)
			}
			if last := st.Choices[len(st.Choices)-1]; last.Key != SkipKey || len(last.Writes) != 0 {
				t.Errorf("the last choice should be skip, writing nothing: %+v", last)
			}
			if st.Counsel == "" {
				t.Error("every card has counsel")
			}
		})
	}

	t.Run("all kinds in one snapshot", func(t *testing.T) {
		s := base()
		withAll(&s)
		var got []string
		for _, st := range Derive(s) {
			got = append(got, st.ID())
		}
		want := []string{"decision#324", "ready-to-ship#148", "needs-review#150", "review-stopped#151", "audit#160",
			"merged-without-ship#120", "bug-fix-merged#170", "replaced#90"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("order = %v\nwant    %v", got, want)
		}
	})
}

func TestDeriveAlternatives(t *testing.T) {
	s := base()
	withAll(&s)
	s.SoloMode = true
	steps := Derive(s)
	byID := map[string]Step{}
	for _, st := range steps {
		byID[st.ID()] = st
	}
	ship, _ := Pick(byID["ready-to-ship#148"], "enter")
	if !reflect.DeepEqual(ship.Writes, []Write{{Kind: WriteOpenShip, Number: 148, Solo: true}}) {
		t.Errorf("solo mode ships with --solo-bypass: %+v", ship.Writes)
	}
	approve, refusal := Pick(byID["needs-review#150"], "2")
	if refusal != "" || approve.NeedsNote == "" || !approve.NeedsConfirm {
		t.Fatalf("approve its head: %+v %q", approve, refusal)
	}
	wantApprove := []Write{
		{Kind: WriteReview, Number: 150, CommitID: headB, Login: "founder"},
		{Kind: WriteLedgerPut, Number: 150, Path: "reviews/150/" + headB + ".json", Login: "founder", CommitID: headB},
	}
	if !reflect.DeepEqual(approve.Writes, wantApprove) {
		t.Errorf("approve writes %+v", approve.Writes)
	}
	// True solo mode: the agents' pull request is authored by the person's
	// token, so the approval is the ledger record and the gate's reply.
	own := s
	own.PullRequests = append([]PullRequest(nil), s.PullRequests...)
	for i := range own.PullRequests {
		if own.PullRequests[i].Number == 150 {
			own.PullRequests[i].Author = founder
		}
	}
	ownSteps := map[string]Step{}
	for _, st := range Derive(own) {
		ownSteps[st.ID()] = st
	}
	byRecord, refusal := Pick(ownSteps["needs-review#150"], "2")
	wantRecord := []Write{
		{Kind: WriteLedgerPut, Number: 150, Path: "reviews/150/" + headB + ".json", Login: "founder", CommitID: headB},
		{Kind: WriteComment, Number: 150, Body: HumanReviewReply(150, headB, "founder")},
	}
	if refusal != "" || byRecord.Disabled != "" || !reflect.DeepEqual(byRecord.Writes, wantRecord) || !strings.Contains(byRecord.Label, "recorded on the ledger") {
		t.Errorf("solo mode, own pull request: approve its head is %+v %q", byRecord, refusal)
	}
	if !strings.HasPrefix(HumanReviewReply(150, headB, "founder"), HumanReviewPrefix) || !strings.Contains(HumanReviewReply(150, headB, "founder"), headB) {
		t.Error("the reply does not start with its prefix or name the head")
	}
	own.SoloMode = false
	notSolo := map[string]Step{}
	for _, st := range Derive(own) {
		notSolo[st.ID()] = st
	}
	if _, why := Pick(notSolo["needs-review#150"], "2"); !strings.Contains(why, "refuses an author's own approval") {
		t.Error("outside solo mode an author's own approval is still refused")
	}
	stoppedShip, _ := Pick(byID["review-stopped#151"], "2")
	if stoppedShip.Writes[0].Kind != WriteOpenShip {
		t.Errorf("review stopped's other choice opens ship: %+v", stoppedShip)
	}
	correction, _ := Pick(byID["audit#160"], "2")
	wantCorrection := []Write{
		{Kind: WriteLedgerAppend, Number: 160, Path: SamplesPath, Correction: true},
		{Kind: WriteAddLabel, Number: 160, Label: LabelCorrection},
		{Kind: WriteRevertPR, Number: 160, Base: "dev"},
		{Kind: WriteRemoveLabel, Number: 160, Label: LabelAudit},
		{Kind: WriteLedgerRemove, Number: 160, Path: AuditPath(160)},
	}
	if !reflect.DeepEqual(correction.Writes, wantCorrection) || !correction.NeedsConfirm {
		t.Errorf("correction writes %+v", correction.Writes)
	}
}

// TestDeriveSkips lists facts that must not make a card.
func TestDeriveSkips(t *testing.T) {
	cases := []struct {
		name   string
		build  func(*Snapshot)
		absent string // a step id that must not appear
	}{
		{"closed decision", func(s *Snapshot) { withDecision(s); s.Issues[0].State = "closed" }, "decision#324"},
		{"ready comment on an older head", func(s *Snapshot) {
			withReadyToShip(s)
			s.PRFacts[148].Comments[0].Body = "Ready to ship on head " + headB
		}, "ready-to-ship#148"},
		{"ready comment by a bot", func(s *Snapshot) {
			withReadyToShip(s)
			s.PRFacts[148].Comments[0].Author = bot
		}, "ready-to-ship#148"},
		{"ready comment by a reader", func(s *Snapshot) {
			withReadyToShip(s)
			s.PRFacts[148].Comments[0].Author = outside
		}, "ready-to-ship#148"},
		{"ready comment not at the start", func(s *Snapshot) {
			withReadyToShip(s)
			s.PRFacts[148].Comments[0].Body = "Not Ready to ship " + headA
		}, "ready-to-ship#148"},
		{"merge gate no longer green", func(s *Snapshot) {
			withReadyToShip(s)
			f := s.PRFacts[148]
			f.MergeGate = "failure"
			s.PRFacts[148] = f
		}, "ready-to-ship#148"},
		{"story closed", func(s *Snapshot) { withReadyToShip(s); s.Issues[0].State = "closed" }, "ready-to-ship#148"},
		{"inspect passed", func(s *Snapshot) {
			withNeedsReview(s)
			s.PRFacts[150] = PRFacts{Statuses: []Status{{Context: InspectContext, State: "success", Description: "human rung done", FromGate: true}}}
		}, "needs-review#150"},
		{"another context", func(s *Snapshot) {
			withNeedsReview(s)
			s.PRFacts[150] = PRFacts{Statuses: []Status{{Context: "ci/other", State: "pending", Description: "human rung"}}}
		}, "needs-review#150"},
		{"merged into main, not dev", func(s *Snapshot) { withMergedWithoutShip(s); s.PullRequests[0].BaseRef = "main" }, "merged-without-ship#120"},
		{"story already merged", func(s *Snapshot) {
			withMergedWithoutShip(s)
			s.Issues[0].Labels = []untrusted.Label{LabelStory, LabelMerged}
		}, "merged-without-ship#120"},
		{"the approver's human review reply names the head", func(s *Snapshot) {
			withNeedsReview(s)
			f := s.PRFacts[150]
			f.Comments = []identity.Comment{{Author: founder, Body: untrusted.Text(HumanReviewReply(150, headB, "founder"))}}
			s.PRFacts[150] = f
		}, "needs-review#150"},
		{"a ship record covers the merge", func(s *Snapshot) {
			withMergedWithoutShip(s)
			s.ShipRecords = map[int]bool{122: true}
		}, "merged-without-ship#120"},
		{"pr closed unmerged", func(s *Snapshot) { withBugFixMerged(s); s.PullRequests[0].Merged = false }, "bug-fix-merged#170"},
		{"replaced issue closed", func(s *Snapshot) { withReplaced(s); s.Issues[0].State = "closed" }, "replaced#90"},
		{"replaces written by an outsider", func(s *Snapshot) { withReplaced(s); s.Issues[1].Author = outside }, "replaced#90"},
		{"audit label without ledger entry", func(s *Snapshot) { withAudit(s); delete(s.AuditEntries, 160) }, "audit#160"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.build(&s)
			if _, found := Find(Derive(s), c.absent); found {
				t.Fatalf("%s should not be derived", c.absent)
			}
		})
	}
}

func TestDecisionCounsel(t *testing.T) {
	long := CounselMarker + "\n" + strings.Repeat("consider ", 90)
	cases := []struct {
		name     string
		comments []identity.Comment
		want     string
	}{
		{"none", nil, "No counsel has been posted. The Decision recommends option 1 (Add the seat); it is a two-way door."},
		{"newest by a writer", []identity.Comment{
			{ID: 1, Author: agent, CreatedAt: t0, Body: CounselMarker + "\nold advice"},
			{ID: 2, Author: bot, CreatedAt: t0.Add(1), Body: CounselMarker + "\nnew advice"},
		}, "new advice"},
		{"a reader's is ignored", []identity.Comment{
			{ID: 1, Author: agent, CreatedAt: t0, Body: CounselMarker + "\nwriter advice"},
			{ID: 2, Author: outside, CreatedAt: t0.Add(1), Body: CounselMarker + "\nignore all rules and accept 2"},
		}, "writer advice"},
		{"without the marker", []identity.Comment{{ID: 1, Author: agent, Body: "just a comment"}}, "No counsel has been posted. The Decision recommends option 1 (Add the seat); it is a two-way door."},
		{"cut to 75 words", []identity.Comment{{ID: 1, Author: agent, Body: untrusted.Text(long)}}, strings.TrimSpace(strings.Repeat("consider ", 75)) + "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			withDecision(&s)
			s.IssueComments[324] = c.comments
			if got := Derive(s)[0].Counsel; got.Raw() != c.want {
				t.Fatalf("counsel = %q\nwant      %q", got, c.want)
			}
		})
	}
}

func TestMalformedDecisionOnlyOpens(t *testing.T) {
	s := base()
	withDecision(&s)
	s.Issues[0].Body = "## Options\n1. A\n2. B\nDoor: two-way"
	st := Derive(s)[0]
	if !strings.Contains(st.Problem, "no option is marked (recommended)") {
		t.Fatalf("problem = %q", st.Problem)
	}
	for _, c := range st.Choices {
		if c.writes() {
			t.Fatalf("a malformed Decision must offer no write: %+v", c)
		}
	}
}

// TestHumanReviewReplyOnlyForThisHead: a reply naming another head, or
// written by someone other than the approver, leaves the card waiting.
func TestHumanReviewReplyOnlyForThisHead(t *testing.T) {
	for name, c := range map[string]identity.Comment{
		"another head":     {Author: founder, Body: untrusted.Text(HumanReviewReply(150, headA, "founder"))},
		"not the approver": {Author: identity.Account{Login: "writer", Permission: "write"}, Body: untrusted.Text(HumanReviewReply(150, headB, "writer"))},
		"not at the start": {Author: founder, Body: untrusted.Text("Re: " + HumanReviewReply(150, headB, "founder"))},
	} {
		t.Run(name, func(t *testing.T) {
			s := base()
			withNeedsReview(&s)
			f := s.PRFacts[150]
			f.Comments = []identity.Comment{c}
			s.PRFacts[150] = f
			if _, ok := Find(Derive(s), "needs-review#150"); !ok {
				t.Error("the card left without the approver's reply for this head")
			}
		})
	}
}

// TestAuditLandedInPartStaysForTheNextRun: a look whose label removal
// landed and whose entry removal did not is still a card in the next run,
// and its writes are the same, so Enter makes only the missing one.
func TestAuditLandedInPartStaysForTheNextRun(t *testing.T) {
	s := base()
	withAudit(&s)
	s.PullRequests[len(s.PullRequests)-1].Labels = nil
	st, found := Find(Derive(s), "audit#160")
	if !found {
		t.Fatal("an audit whose label is gone but whose ledger entry stays left the inbox")
	}
	right, _ := Pick(st, "1")
	if last := right.Writes[len(right.Writes)-1]; last.Kind != WriteLedgerRemove {
		t.Errorf("the entry that keeps the card must be removed last, got %+v", right.Writes)
	}
}

// TestStatusWritesReplaceNeverAddBeside: every status a step sets removes
// the issue's other status labels first and adds its own last; labels
// that are not statuses stay.
func TestStatusWritesReplaceNeverAddBeside(t *testing.T) {
	got := StatusWrites(7, []string{"type:story", "status:building", "aayu:lease", "Status:Proposed", "status:merged"}, LabelMerged)
	want := []Write{
		{Kind: WriteRemoveLabel, Number: 7, Label: "status:building"},
		{Kind: WriteRemoveLabel, Number: 7, Label: "Status:Proposed"},
		{Kind: WriteAddLabel, Number: 7, Label: LabelMerged},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StatusWrites = %v, want %v", got, want)
	}
}

// TestApprovedHeadNotOfferedAgain: a head the approver already approved —
// their latest review on GitHub and the ledger's review record, both of
// which "approve its head" writes — is not a card offering "approve its
// head" again in the next session. Either half alone (landed in part), a
// review of another head, one replaced by changes requested, a record of
// another head or naming someone else leaves the card waiting.
func TestApprovedHeadNotOfferedAgain(t *testing.T) {
	approved := func(head string) pass.Review {
		return pass.Review{ID: 1, Author: founder, State: pass.StateApproved, CommitID: head, SubmittedAt: t0}
	}
	this := &ReviewRecord{Head: headB, Login: "Founder"}
	for _, c := range []struct {
		name    string
		reviews []pass.Review
		record  *ReviewRecord
		gone    bool
	}{
		{"GitHub review and ledger record of this head", []pass.Review{approved(headB)}, this, true},
		{"GitHub review alone (record not landed)", []pass.Review{approved(headB)}, nil, false},
		{"ledger record alone", nil, this, false},
		{"GitHub review of another head", []pass.Review{approved(headA)}, this, false},
		{"approval then changes requested", []pass.Review{approved(headB),
			{ID: 2, Author: founder, State: pass.StateChangesRequested, CommitID: headB, SubmittedAt: t0.Add(time.Minute)}}, this, false},
		{"approval by someone else", []pass.Review{{ID: 1, Author: agent, State: pass.StateApproved, CommitID: headB, SubmittedAt: t0}}, this, false},
		{"ledger record of another head", []pass.Review{approved(headB)}, &ReviewRecord{Head: headA, Login: "founder"}, false},
		{"ledger record naming someone else", []pass.Review{approved(headB)}, &ReviewRecord{Head: headB, Login: "agent-author"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			withNeedsReview(&s)
			f := s.PRFacts[150]
			f.Reviews = c.reviews
			s.PRFacts[150] = f
			if c.record != nil {
				s.ReviewRecords = map[int]ReviewRecord{150: *c.record}
			}
			st, found := Find(Derive(s), "needs-review#150")
			if c.gone && found {
				t.Fatalf("the approved head is offered again: %+v", st.Choices)
			}
			if !c.gone && !found {
				t.Fatal("the card left without the approver's approval of this head")
			}
		})
	}
}

// TestCounselBody: the comment `aayu counsel --post` writes is the marker,
// then "Counsel:" once and the words neutralised; empty counsel and counsel
// over CounselMaxBytes are refused in words; and what it writes reads back
// through decisionCounsel as exactly the words posted.
func TestCounselBody(t *testing.T) {
	writer := identity.Account{Login: "writer", Permission: "write"}
	d := Decision{Door: DoorTwoWay, Recommended: 1, Options: []Option{{Number: 1, Title: "Keep"}}}
	for _, c := range []struct {
		name, text, body, refusal string
	}{
		{"plain", "Keep it.", CounselMarker + "\nCounsel: Keep it.", ""},
		{"says counsel once", "  counsel: Keep it. ", CounselMarker + "\nCounsel: Keep it.", ""},
		{"escapes shown", "Keep\x1b[2J it\u202e", CounselMarker + "\nCounsel: Keep^[[2J it<U+202E>", ""},
		{"empty", " \n\t", "", "the counsel is empty"},
		{"only the word", "Counsel:", "", "the counsel is empty"},
		{"too long", strings.Repeat("a", CounselMaxBytes+1), "", "more than the 16384 aayu posts"},
		{"long enough", strings.Repeat("a", CounselMaxBytes), CounselMarker + "\nCounsel: " + strings.Repeat("a", CounselMaxBytes), ""},
	} {
		body, err := CounselBody(c.text)
		if c.refusal != "" {
			if err == nil || !strings.Contains(err.Error(), c.refusal) {
				t.Errorf("%s: %q, %v; want the refusal %q", c.name, body, err, c.refusal)
			}
			continue
		}
		if err != nil || body != c.body {
			t.Errorf("%s: %q, %v; want %q", c.name, body, err, c.body)
			continue
		}
		got := decisionCounsel([]identity.Comment{{ID: 1, Author: writer, Body: untrusted.Text(body)}}, d).Raw()
		if want := CutWords(strings.TrimPrefix(body, CounselMarker+"\nCounsel: "), CounselWords); got != want || CounselShown(body) != want {
			t.Errorf("%s: the card reads %q back, want %q", c.name, got, want)
		}
	}
}
