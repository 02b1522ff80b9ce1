package approve

import "github.com/aayudha/aayu/model/identity"

// ReplyPolicy is the default branch's say on the reply path (never the
// checkout's): the workflow that applies replies, the App that posts
// batches, the approvers who may reply and the doors kept on the device
// code. CheckReply judges a reply under it; Way decides under it, as a
// batch is posted, whether a reply is offered at all.
type ReplyPolicy struct {
	// WorkflowOnDefault: .github/workflows/aayudha-approve.yml is on the
	// default branch and the workflow is enabled.
	WorkflowOnDefault bool
	// AppLogin is the aayudha App's login ("<slug>[bot]"); "" for none.
	AppLogin  string
	Approvers []string
	DeviceFor []string
}

// replyRow is the first row of CheckReply's table that policy and poster
// alone decide, before any reply exists, that a batch rec posted by
// poster fails: its check name, or "" when a reply could apply it.
func (p ReplyPolicy) replyRow(poster string, rec Record) string {
	switch {
	case !p.WorkflowOnDefault:
		return CheckWorkflow
	case p.AppLogin == "":
		return CheckApp
	case len(p.Approvers) == 0:
		return CheckNotApprover // no reply's author can be an approver
	case !identity.SameLogin(poster, p.AppLogin):
		return CheckNotBot
	}
	if keep, _ := NeedsDevice(rec, p.DeviceFor); keep {
		return CheckDeviceFor
	}
	return ""
}

// Way is how batch rec, posted by poster, is approved (seed 001): by a
// reply only where one could apply it (replyRow) and the posting session
// reaches no approver's credential (reachesNoApprover, doctor's approvals
// row, asked only then: it reads GitHub); else by a device code when the
// lane holds the person's token (solo, the human fallback), which can
// ask for one that proves the person; else at the person's own terminal
// (WayTerminal: a lane holding only the bot's token cannot).
func Way(p ReplyPolicy, poster string, rec Record, solo bool, reachesNoApprover func() bool) string {
	if p.replyRow(poster, rec) == "" && reachesNoApprover() {
		return WayReply
	}
	if solo {
		return WayDevice
	}
	return WayTerminal
}
