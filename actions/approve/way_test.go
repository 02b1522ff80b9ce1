package approve

import (
	"slices"
	"testing"
)

// TestWayOffersAReplyOnlyWhereCheckReplyWouldApplyIt: the way a batch is
// approved and the reply's checks are one rule. Under a policy a reply
// passes (CheckReply applies the valid reply), Way offers the reply; each
// change that makes CheckReply refuse the reply on a policy or poster row
// makes Way offer a device code (solo) or the person's terminal instead,
// and names that same row.
func TestWayOffersAReplyOnlyWhereCheckReplyWouldApplyIt(t *testing.T) {
	yes := func() bool { return true }
	policy := func(f ReplyFacts) ReplyPolicy {
		return ReplyPolicy{WorkflowOnDefault: f.WorkflowOnDefault, AppLogin: f.AppLogin, Approvers: f.Approvers, DeviceFor: f.DeviceFor}
	}
	f := valid()
	if got := Way(policy(f), app, f.Stored.Record, false, yes); got != WayReply || CheckReply(f) != nil {
		t.Fatalf("a batch every row passes: way %q, CheckReply %v; want a reply, applied", got, CheckReply(f))
	}
	if got := Way(policy(f), app, f.Stored.Record, true, func() bool { return false }); got != WayDevice {
		t.Errorf("a session that reaches an approver's credential: way %q, want the device code", got)
	}
	for name, c := range map[string]struct {
		change func(f *ReplyFacts)
		row    string
	}{
		"workflow off":     {func(f *ReplyFacts) { f.WorkflowOnDefault = false }, CheckWorkflow},
		"no App":           {func(f *ReplyFacts) { f.AppLogin = "" }, CheckApp},
		"no approver":      {func(f *ReplyFacts) { f.Approvers = nil }, CheckNotApprover},
		"posted by no App": {func(f *ReplyFacts) { f.Stored.Record.PostedBy, f.Batch.Author.Login = "founder", "founder" }, CheckNotBot},
		"device_for all":   {func(f *ReplyFacts) { f.DeviceFor = []string{"all"} }, CheckDeviceFor},
	} {
		f := valid()
		c.change(&f)
		poster := f.Stored.Record.PostedBy
		if r := CheckReply(f); r == nil || r.Check != c.row {
			t.Errorf("%s: CheckReply = %v, want the row %q", name, r, c.row)
		}
		if row := policy(f).replyRow(poster, f.Stored.Record); row != c.row {
			t.Errorf("%s: Way's row = %q, want %q", name, row, c.row)
		}
		for solo, want := range map[bool]string{true: WayDevice, false: WayTerminal} {
			if got := Way(policy(f), poster, f.Stored.Record, solo, yes); got != want {
				t.Errorf("%s (solo %v): way %q, want %q", name, solo, got, want)
			}
		}
	}
	if !slices.Contains([]string{WayDevice, WayTerminal}, Way(ReplyPolicy{}, app, Record{}, false, func() bool {
		t.Error("reachesNoApprover was asked although no reply could apply the batch")
		return true
	})) {
		t.Error("an empty policy offered a reply")
	}
}
