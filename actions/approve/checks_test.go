package approve

import (
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/model/identity"
)

const app = "aayudha[bot]"

var t0 = time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)

func twoWayRecord() Record {
	return Record{Version: 1, Repo: "acme/benefits", Issue: 324, For: "founder", PostedBy: app, Way: WayReply, Created: t0,
		Items: []Item{
			{Command: "aayu decide 324 --accept 1", Decision: 324, Option: 1, Door: DoorTwoWay, Title: "Production Engineer seat", Body: "body 324",
				Options: []Option{{1, "Add the seat", true}, {2, "Wait a quarter", false}}},
			{Command: "aayu decide 283 --accept 2", Decision: 283, Option: 2, Door: DoorTwoWay, Title: "Queue", Body: "body 283",
				Options: []Option{{1, "Keep it", true}, {2, "Drop it", false}}},
		}}
}

// valid is a reply every row of the seed's table passes.
func valid() ReplyFacts {
	rec := twoWayRecord()
	hash := rec.Hash()
	rendered := Render(rec)
	return ReplyFacts{
		WorkflowOnDefault: true, AppLogin: app, Approvers: []string{"founder"}, BotLogins: []string{app}, DeviceFor: []string{"one-way"},
		Batch: &Comment{ID: 10, Author: identity.Account{Login: app, Bot: true}, Body: rendered, CreatedAt: t0, UpdatedAt: t0},
		Reply: Comment{ID: 11, Author: identity.Account{Login: "founder", Permission: "admin"}, Body: "Approve batch " + hash,
			CreatedAt: t0.Add(time.Minute), UpdatedAt: t0.Add(time.Minute)},
		Stored: &Stored{Hash: hash, Record: rec, Rendered: rendered},
		Decisions: map[int]DecisionNow{
			324: {Number: 324, Title: "Production Engineer seat", Body: "body 324", Found: true},
			283: {Number: 283, Title: "Queue", Body: "body 283", Found: true},
		},
	}
}

func TestReplyEveryCheckPassesApplies(t *testing.T) {
	if r := CheckReply(valid()); r != nil {
		t.Fatalf("a reply passing every check was refused: %s (%s)", r.Check, r.Reason)
	}
}

func refusedAs(t *testing.T, f ReplyFacts, check string) *Refusal {
	t.Helper()
	r := CheckReply(f)
	if r == nil {
		t.Fatalf("applied; want the refusal %q", check)
	}
	if r.Check != check {
		t.Fatalf("refused as %q (%s); want %q", r.Check, r.Reason, check)
	}
	if r.Reason == "" || r.Next == "" {
		t.Fatalf("refusal %q has no reason or no next step: %+v", check, r)
	}
	return r
}

func TestReplyRefusedEditedReply(t *testing.T) {
	f := valid()
	f.Reply.UpdatedAt = f.Reply.CreatedAt.Add(time.Second)
	refusedAs(t, f, CheckEditedReply)
}

func TestReplyRefusedReplyBeforeTheBatch(t *testing.T) {
	f := valid()
	f.Reply.ID, f.Reply.CreatedAt, f.Reply.UpdatedAt = 9, t0.Add(-time.Minute), t0.Add(-time.Minute)
	refusedAs(t, f, CheckReplyBefore)
	// Either fact alone refuses: an earlier time whatever the id says.
	f = valid()
	f.Reply.CreatedAt, f.Reply.UpdatedAt = t0.Add(-time.Minute), t0.Add(-time.Minute)
	refusedAs(t, f, CheckReplyBefore)
}

func TestReplyRefusedABotReplying(t *testing.T) {
	for _, who := range []identity.Account{
		{Login: app, Bot: true, Permission: "write"},
		{Login: "machine-user", Permission: "write"},
		{Login: "other[bot]", Permission: "write"},
	} {
		f := valid()
		f.BotLogins = append(f.BotLogins, "machine-user")
		f.Approvers = append(f.Approvers, who.Login) // even named as an approver
		f.Reply.Author = who
		refusedAs(t, f, CheckBotReply)
	}
}

func TestReplyRefusedANonApproverReplying(t *testing.T) {
	f := valid()
	f.Reply.Author = identity.Account{Login: "writer", Permission: "write"}
	refusedAs(t, f, CheckNotApprover)
	f = valid()
	f.Approvers = nil // no approvers recorded: no reply approves anything
	refusedAs(t, f, CheckNotApprover)
}

func TestReplyRefusedAnApproverWithoutWriteAccess(t *testing.T) {
	// triage is the level just below write; read and none are below it.
	for _, permission := range []string{"triage", "read", ""} {
		f := valid()
		f.Reply.Author.Permission = permission
		refusedAs(t, f, CheckNoWrite)
	}
}

func TestReplyRefusedAnEditedBatch(t *testing.T) {
	f := valid()
	f.Batch.UpdatedAt = f.Batch.CreatedAt.Add(time.Second)
	refusedAs(t, f, CheckEditedBatch)
}

func TestReplyRefusedABatchNotPostedByTheBot(t *testing.T) {
	f := valid()
	f.Batch.Author = identity.Account{Login: "founder"}
	if r := refusedAs(t, f, CheckNotBot); !strings.Contains(r.Reason, "was posted by @founder, not by the aayudha App @"+app) {
		t.Errorf("the refusal does not name the comment's poster and the App: %s", r.Reason)
	}
}

// TestReplyRefusedABatchWhoseRecordNamesAnotherPoster: the comment is the
// App's, but the ledger's record of the batch says a person posted it: a
// reply does not apply it, and the refusal names the record's poster.
func TestReplyRefusedABatchWhoseRecordNamesAnotherPoster(t *testing.T) {
	f := valid()
	f.Stored.Record.PostedBy = "founder"
	r := refusedAs(t, f, CheckNotBot)
	if !strings.Contains(r.Reason, "record of batch "+f.Stored.Hash+" names @founder as its poster, not the aayudha App @"+app) {
		t.Errorf("the refusal does not name the record's poster: %s", r.Reason)
	}
}

func TestReplyRefusedABatchWhoseTextIsNotWhatAayuRenders(t *testing.T) {
	f := valid()
	f.Batch.Body = strings.Replace(f.Batch.Body, "Accepts option 2 (Drop it)", "Accepts option 1 (Keep it)", 1)
	refusedAs(t, f, CheckRendered)
}

func TestReplyRefusedARecordThatDoesNotHashToItsName(t *testing.T) {
	f := valid()
	f.Stored.Record.Items[1].Option = 1 // the ledger's record changed under its name
	refusedAs(t, f, CheckHash)
}

func TestReplyRefusedABatchAlreadyApplied(t *testing.T) {
	f := valid()
	f.Applied = &Applied{Outcome: "applied", By: "founder"}
	refusedAs(t, f, CheckClosed)
}

func TestReplyRefusedADecisionEditedAfterTheBatch(t *testing.T) {
	for name, edit := range map[string]func(*DecisionNow){
		"title":  func(d *DecisionNow) { d.Title += "!" },
		"body":   func(d *DecisionNow) { d.Body = "Door: one-way" },
		"parent": func(d *DecisionNow) { d.Parent = 7 },
		"gone":   func(d *DecisionNow) { d.Found = false },
	} {
		f := valid()
		d := f.Decisions[283]
		edit(&d)
		f.Decisions[283] = d
		if r := refusedAs(t, f, CheckDecisionEdit); !strings.Contains(r.Reason, "#283") {
			t.Errorf("%s: the refusal does not name the Decision: %s", name, r.Reason)
		}
	}
}

func TestReplyRefusedAOneWayDoorUnderDeviceFor(t *testing.T) {
	rec := twoWayRecord()
	rec.Items[1].Door = DoorOneWay
	f := valid()
	f.Stored = &Stored{Hash: rec.Hash(), Record: rec, Rendered: Render(rec)}
	f.Batch.Body, f.Reply.Body = Render(rec), "Approve batch "+rec.Hash()
	refusedAs(t, f, CheckDeviceFor)
	f.DeviceFor = nil // device_for = [] lets a reply apply a one-way door
	if r := CheckReply(f); r != nil {
		t.Fatalf("device_for = [] still refused: %+v", r)
	}
	f = valid()
	f.DeviceFor = []string{"all"}
	refusedAs(t, f, CheckDeviceFor)
}

func TestReplyRefusedTheWorkflowNotOnTheDefaultBranch(t *testing.T) {
	f := valid()
	f.WorkflowOnDefault = false
	refusedAs(t, f, CheckWorkflow)
}

func TestReplyRefusedNoAppConfigured(t *testing.T) {
	f := valid()
	f.AppLogin = ""
	refusedAs(t, f, CheckApp)
}

func TestReplyRefusedNotExactlyApproveBatchHash(t *testing.T) {
	for _, body := range []string{"approve batch " + valid().Stored.Hash, "Approve batch", "LGTM", "> Approve batch " + valid().Stored.Hash} {
		f := valid()
		f.Reply.Body = body
		refusedAs(t, f, CheckNotReply)
	}
	f := valid()
	f.Reply.Body = "Approve batch 000000000000"
	refusedAs(t, f, CheckNoBatch)
}

// TestRenderUntrustedTitleCannotForgeLines: a Decision title carrying line
// breaks, a marker, an HTML comment or escape sequences stays on its own
// item's line, and the batch's only marker is aayu's.
func TestRenderUntrustedTitleCannotForgeLines(t *testing.T) {
	rec := twoWayRecord()
	rec.Items[0].Title = "Seat\n\n<!-- aayu-batch 0123456789ab -->\n3. Accepts option 9\x1b]52;c;aGk=\x07 <!--"
	rec.Items[0].Options[0].Title = "Add\r\nApprove batch 0123456789ab"
	out := Render(rec)
	lines := strings.Split(out, "\n")
	if len(lines) != len(strings.Split(Render(twoWayRecord()), "\n")) {
		t.Fatalf("the hostile title changed the number of lines:\n%s", out)
	}
	if got := MarkerIn(out); got != rec.Hash() {
		t.Fatalf("MarkerIn = %q, want the batch's own %q", got, rec.Hash())
	}
	for _, bad := range []string{"\x1b", "<!-- aayu-batch 0123", "<!--\n", "\r"} {
		if strings.Contains(out, bad) {
			t.Errorf("rendered batch holds %q:\n%s", bad, out)
		}
	}
	if !strings.HasPrefix(out, "@founder 2 human-only steps wait for your approval (batch "+rec.Hash()+").\n") {
		t.Errorf("first line is not the seed's: %q", lines[0])
	}
}

func TestRenderSaysWhatApprovingDoesDoorOptionsAndRecommendation(t *testing.T) {
	rec := twoWayRecord()
	rec.Items[1].Door, rec.Way = DoorOneWay, WayDevice
	out := Render(rec)
	for _, want := range []string{
		"1. Accepts option 1 (Add the seat) of Decision #324: Production Engineer seat. Two-way door: a later Decision can change it.",
		"   Options: 1. Add the seat (recommended) / 2. Wait a quarter\n   Recommendation: option 1 (Add the seat).",
		"2. Accepts option 2 (Drop it) of Decision #283: Queue. This is not the recommendation. One-way door: it cannot be undone later.",
		"approve the device code below on any device",
		Marker(rec.Hash()),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered batch lacks %q:\n%s", want, out)
		}
	}
	rec.Way = WayReply
	if out := Render(rec); !strings.Contains(out, "`Approve batch "+rec.Hash()+"`") {
		t.Errorf("a reply batch does not say how to reply:\n%s", out)
	}
}

func TestHashIsTwelveHexAndChangesWithTheRecord(t *testing.T) {
	a, b := twoWayRecord(), twoWayRecord()
	if a.Hash() != b.Hash() || !ValidHash(a.Hash()) {
		t.Fatalf("hash %q not stable or not 12 hex", a.Hash())
	}
	b.Items[0].Body += " "
	if a.Hash() == b.Hash() {
		t.Fatal("a changed Decision body kept the hash")
	}
}

// TestReplyInTheBatchsSecondIsAfterIt: GitHub's times are whole seconds;
// a reply posted in the same second as the batch is after it by its id,
// and one with a lower id is before it whatever its time says.
func TestReplyInTheBatchsSecondIsAfterIt(t *testing.T) {
	f := valid()
	f.Reply.CreatedAt, f.Reply.UpdatedAt = t0, t0
	if r := CheckReply(f); r != nil {
		t.Fatalf("a reply in the batch's second was refused: %+v", r)
	}
	f.Reply.ID = 10
	refusedAs(t, f, CheckReplyBefore)
}

// TestReplyRefusedAShipBatchUnderDeviceFor: a ship step is a one-way door,
// so a reply — even one passing every other row — never applies its
// batch under the default device_for; the batch says so in its own words.
func TestReplyRefusedAShipBatchUnderDeviceFor(t *testing.T) {
	t.Parallel()
	rec, err := NewRecordOf("acme/benefits", []Item{NewShipItem(4, "main", "0123456789abcdef", "Leave balance", "pr body", false)}, "founder", app, WayReply, t0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Issue != 4 {
		t.Fatalf("the batch goes on #%d, want the pull request #4", rec.Issue)
	}
	rendered := Render(rec)
	for _, want := range []string{"1. `aayu ship 4`: Merges PR #4 (Leave balance) at head 0123456 into main", "One-way door: it cannot be undone later.",
		"Options: 1. Approve: merge it (recommended) / 2. Leave it: nothing is merged"} {
		if !strings.Contains(rendered, want) {
			t.Errorf("the ship batch lacks %q:\n%s", want, rendered)
		}
	}
	if keep, why := NeedsDevice(rec, []string{"one-way"}); !keep || !strings.Contains(why, "aayu ship 4") {
		t.Fatalf("device_for = [\"one-way\"] does not keep a ship batch on the device code: %v %q", keep, why)
	}
	f := valid()
	f.Stored = &Stored{Hash: rec.Hash(), Record: rec, Rendered: rendered}
	f.Batch.Body, f.Reply.Body = rendered, "Approve batch "+rec.Hash()
	f.Decisions = map[int]DecisionNow{4: {Number: 4, Title: "Leave balance", Body: "pr body", Found: true}}
	refusedAs(t, f, CheckDeviceFor)
	f.DeviceFor = nil // with device_for = [] every other row holds
	if r := CheckReply(f); r != nil {
		t.Fatalf("device_for = [] refused the ship batch's reply: %s (%s)", r.Check, r.Reason)
	}
}

// TestReplyRefusedAStoryEditedAfterAReadyBatch: a ready step records the
// Story as it was; an edit afterwards voids a reply's approval, as a
// Decision's edit does.
func TestReplyRefusedAStoryEditedAfterAReadyBatch(t *testing.T) {
	t.Parallel()
	it := Item{Kind: KindReady, Command: "aayu ready 7", Story: 7, Does: "Freezes the Completion Goal of Story #7", Option: 1, Door: DoorTwoWay,
		Title: "Story", Body: "goal", GoalHash: "ab", Options: []Option{{1, "Approve: freeze the goal", true}, {2, "Leave it: nothing is written", false}}}
	rec, err := NewRecordOf("acme/benefits", []Item{it}, "founder", app, WayReply, t0)
	if err != nil {
		t.Fatal(err)
	}
	f := valid()
	f.Stored = &Stored{Hash: rec.Hash(), Record: rec, Rendered: Render(rec)}
	f.Batch.Body, f.Reply.Body = Render(rec), "Approve batch "+rec.Hash()
	f.Decisions = map[int]DecisionNow{7: {Number: 7, Title: "Story", Body: "goal", Found: true}}
	if r := CheckReply(f); r != nil {
		t.Fatalf("a reply to an unchanged ready batch was refused: %s (%s)", r.Check, r.Reason)
	}
	f.Decisions[7] = DecisionNow{Number: 7, Title: "Story", Body: "goal, edited", Found: true}
	refusedAs(t, f, CheckDecisionEdit)
}
