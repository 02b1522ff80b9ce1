package inboxread_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// TestApprovedHeadByRecordNotOfferedNextSession: the ledger's review record
// of a head at inspect's human rung (what "approve its head" writes beside
// the review) is read by the next session's reader, so with the approver's
// review on GitHub the card does not offer "approve its head" again; the
// review alone (the record not landed) or a record of another head keeps it.
func TestApprovedHeadByRecordNotOfferedNextSession(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	pr := sandbox.DemoPRReview
	// The approver is writer, not the solo demo's author of #6, so GitHub
	// takes their review.
	settings := &inboxread.Settings{Approver: "writer", IntegrationBranch: "dev"}
	session := func() *inboxread.Reader {
		return inboxread.New(clientFor(t, f.base, "writer", nil), owner, repo, inboxread.Options{Logf: t.Logf, Settings: settings})
	}
	listed := func() bool {
		t.Helper()
		_, ok := inbox.Find(inbox.Derive(read(t, session())), id(inbox.KindNeedsReview, pr))
		return ok
	}
	if !listed() {
		t.Fatalf("the demo has no needs-review card for #%d", pr)
	}
	head := f.srv.HeadSHA(pr)
	if _, _, err := writer(t, f.base).PullRequests.CreateReview(context.Background(), owner, repo, pr,
		&github.PullRequestReviewRequest{CommitID: github.String(head), Event: github.String("APPROVE"), Body: github.String("ran the tests")}); err != nil {
		t.Fatal(err)
	}
	if !listed() {
		t.Fatal("the review alone, its record not landed, took the card away: nothing would finish it")
	}
	put := func(path, body string) {
		t.Helper()
		if _, err := ghx.CommitFiles(context.Background(), clientFor(t, f.base, "writer", nil), owner, repo, inboxread.LedgerBranch,
			map[string][]byte{path: []byte(body)}, "review record", ghx.CommitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	other := "0123456789abcdef0123456789abcdef01234567"
	put(fmt.Sprintf("reviews/%d/%s.json", pr, other), fmt.Sprintf(`{"pr":%d,"login":"writer","head":%q}`, pr, other))
	if !listed() {
		t.Fatal("a review record of another head took the card away")
	}
	put(fmt.Sprintf("reviews/%d/%s.json", pr, head), fmt.Sprintf(`{"pr":%d,"login":"writer","head":%q,"checked":"ran the tests"}`, pr, head))
	snap := read(t, session())
	if rec := snap.ReviewRecords[pr]; rec.Head != head || rec.Login != "writer" {
		t.Fatalf("the review record was not read: %+v", snap.ReviewRecords)
	}
	if st, ok := inbox.Find(inbox.Derive(snap), id(inbox.KindNeedsReview, pr)); ok {
		t.Fatalf("the next session offers the approved head again: %+v", st.Choices)
	}
}
