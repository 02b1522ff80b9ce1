package actions

import (
	"testing"

	"github.com/aayudha/aayu/model/inbox"
)

// TestInboxCommandNamesEitherHeadApprovalAsInspectApprove: the actions log
// names "approve its head" by the seed's command whether the approval is a
// GitHub review or, in solo mode, the review record on the ledger.
func TestInboxCommandNamesEitherHeadApprovalAsInspectApprove(t *testing.T) {
	t.Parallel()
	st := inbox.Step{Kind: inbox.KindNeedsReview, Item: inbox.Item{Number: 6}}
	byReview := inbox.Choice{Key: "2", Writes: []inbox.Write{
		{Kind: inbox.WriteReview, Number: 6, CommitID: "abc"},
		{Kind: inbox.WriteLedgerPut, Number: 6, Path: "reviews/6/abc.json"},
	}}
	byRecord := inbox.Choice{Key: "2", Writes: []inbox.Write{
		{Kind: inbox.WriteLedgerPut, Number: 6, Path: "reviews/6/abc.json"},
		{Kind: inbox.WriteComment, Number: 6, Body: inbox.HumanReviewReply(6, "abc", "founder")},
	}}
	for name, c := range map[string]inbox.Choice{"a GitHub review": byReview, "a review record": byRecord} {
		if got := InboxCommand(st, c); got != "inbox: inspect 6 --approve" {
			t.Errorf("%s is logged as %q, want %q", name, got, "inbox: inspect 6 --approve")
		}
	}
	open := inbox.Choice{Key: "1", Writes: []inbox.Write{{Kind: inbox.WriteOpen, Number: 6}}}
	if got := InboxCommand(st, open); got == "inbox: inspect 6 --approve" {
		t.Errorf("opening the pull request is logged as an approval: %q", got)
	}
}
