package inboxread_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// TestApprovedHeadByRecordNotOfferedNextSession: the ledger's review record
// of a head at inspect's human rung (what "approve its head" writes) is
// read by the next session's reader, so the card does not offer "approve
// its head" again; a record of another head approves nothing.
func TestApprovedHeadByRecordNotOfferedNextSession(t *testing.T) {
	f := start(t, sandbox.Options{}, "founder")
	pr := sandbox.DemoPRReview
	before := read(t, f.reader)
	if _, ok := inbox.Find(inbox.Derive(before), id(inbox.KindNeedsReview, pr)); !ok {
		t.Fatalf("the demo has no needs-review card for #%d", pr)
	}
	head := f.srv.HeadSHA(pr)
	put := func(path, body string) {
		t.Helper()
		if _, err := ghx.CommitFiles(context.Background(), clientFor(t, f.base, "founder", nil), owner, repo, inboxread.LedgerBranch,
			map[string][]byte{path: []byte(body)}, "review record", ghx.CommitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	other := "0123456789abcdef0123456789abcdef01234567"
	put(fmt.Sprintf("reviews/%d/%s.json", pr, other), fmt.Sprintf(`{"pr":%d,"login":"founder","head":%q}`, pr, other))
	if _, ok := inbox.Find(inbox.Derive(read(t, f.reader)), id(inbox.KindNeedsReview, pr)); !ok {
		t.Fatal("a review record of another head took the card away")
	}
	put(fmt.Sprintf("reviews/%d/%s.json", pr, head), fmt.Sprintf(`{"pr":%d,"login":"founder","head":%q,"checked":"read the diff"}`, pr, head))
	next := inboxread.New(clientFor(t, f.base, "founder", nil), owner, repo, inboxread.Options{Logf: t.Logf})
	snap := read(t, next)
	if rec := snap.ReviewRecords[pr]; rec.Head != head || rec.Login != "founder" {
		t.Fatalf("the review record was not read: %+v", snap.ReviewRecords)
	}
	if st, ok := inbox.Find(inbox.Derive(snap), id(inbox.KindNeedsReview, pr)); ok {
		t.Fatalf("the next session offers the approved head again: %+v", st.Choices)
	}
}
