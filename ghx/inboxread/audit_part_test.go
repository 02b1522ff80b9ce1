package inboxread_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// TestReadKeepsAnAuditWhoseLabelIsGone: a look that removed aayu:audit and
// stopped before removing the ledger entry is still read as an audit, in a
// new run, so its card stays for Enter to finish.
func TestReadKeepsAnAuditWhoseLabelIsGone(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	if _, err := writer(t, f.base).Issues.RemoveLabelForIssue(context.Background(), owner, repo, sandbox.DemoPRAudit, inbox.LabelAudit); err != nil {
		t.Fatal(err)
	}
	snap := read(t, f.reader)
	if got := stepsByKind(inbox.Derive(snap))[inbox.KindAudit]; !reflect.DeepEqual(got, []int{sandbox.DemoPRAudit}) {
		t.Errorf("audit steps %v, want #%d: its ledger entry is still there", got, sandbox.DemoPRAudit)
	}
}
