package actions

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

func TestInboxAcceptDecisionOption(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	st := f.step(inbox.KindDecision, sandbox.DemoDecision)
	req := request(t, st, "1", "")
	out := f.exec.Execute(ctx, req)
	if !out.Done || out.Failure != nil || out.Changed {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	want := "Accepted option 1 (Keep them in Go code, reviewed like any change) by @founder"
	if got := f.commentsBy(sandbox.DemoDecision, "founder"); !slices.Equal(got, []string{want}) {
		t.Errorf("founder's comments %q, want exactly %q", got, want)
	}
	is := f.issue(sandbox.DemoDecision)
	if !labelsOf(is)[inbox.LabelAccepted] || labelsOf(is)["status:proposed"] || is.GetState() != "closed" || is.GetStateReason() != "completed" {
		t.Errorf("#1: labels %v, state %s (%s); want status:accepted in place of status:proposed, closed as completed", labelsOf(is), is.GetState(), is.GetStateReason())
	}
	if len(out.Wrote) != 4 {
		t.Errorf("wrote %q, want four writes in words (the comment, status:proposed out, status:accepted in, the close)", out.Wrote)
	}
	// The result decide offers to copy: the link to the comment it posted.
	if want := "/acme/benefits/issues/1#issuecomment-"; !strings.Contains(out.CommentURL, want) || !strings.HasPrefix(out.CommentURL, "http") {
		t.Errorf("the outcome's comment link is %q, want a link to the comment on #1", out.CommentURL)
	}

	// Enter again: the Decision no longer waits, so nothing is doubled.
	again := f.exec.Execute(ctx, req)
	if !again.Changed || again.Now != nil || again.Done {
		t.Errorf("second accept: %+v, want changed with the card gone", again)
	}
	if got := f.commentsBy(sandbox.DemoDecision, "founder"); len(got) != 1 {
		t.Errorf("%d comments after a second accept, want 1", len(got))
	}
	recs := f.records()
	if len(recs) != 2 || recs[0].Command != "inbox: decide 1 --accept 1" || recs[0].Outcome != OutcomeDone ||
		recs[0].Who != "founder" || recs[0].Repo != "acme/benefits" || recs[0].Item != "#1" || len(recs[0].Writes) != 4 ||
		recs[1].Outcome != OutcomeChanged {
		t.Errorf("log %+v", recs)
	}
}

func TestInboxAcceptHousekeeping(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		kind      inbox.Kind
		item      int
		comment   string
		added     string
		removed   string
		closedAs  string // "" stays open
		wantState string
	}{
		{"merged without ship", inbox.KindMergedWithoutShip, sandbox.DemoStoryMergedNoShip,
			"Merged in #10 without aayu ship, so no proof pack covers it; it stays uncovered.", inbox.LabelMerged, inbox.LabelLease, "", "open"},
		{"bug fixed", inbox.KindBugFixMerged, sandbox.DemoBug, "Fixed in #12", inbox.LabelDone, "", "completed", "closed"},
		{"replaced", inbox.KindReplaced, sandbox.DemoReplaced, "Replaced by #14", inbox.LabelCancelled, "", "not_planned", "closed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			out := f.exec.Execute(context.Background(), request(t, f.step(tc.kind, tc.item), "enter", ""))
			if !out.Done || out.Failure != nil {
				t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
			}
			if got := f.commentsBy(tc.item, "founder"); !slices.Equal(got, []string{tc.comment}) {
				t.Errorf("comments %q, want %q", got, tc.comment)
			}
			is := f.issue(tc.item)
			labels := labelsOf(is)
			if !labels[tc.added] || (tc.removed != "" && labels[tc.removed]) {
				t.Errorf("labels %v: want %s added and %q removed", labels, tc.added, tc.removed)
			}
			if is.GetState() != tc.wantState || (tc.closedAs != "" && is.GetStateReason() != tc.closedAs) {
				t.Errorf("state %s (%s), want %s %s", is.GetState(), is.GetStateReason(), tc.wantState, tc.closedAs)
			}
		})
	}
}

func TestInboxAuditLooksRight(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	out := f.exec.Execute(context.Background(), request(t, st, "1", ""))
	if !out.Done || out.Failure != nil {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	samples := f.samples()
	if len(samples) != 1 || samples[0].PR != 15 || samples[0].Correction || samples[0].By != "founder" ||
		samples[0].MergeCommit != st.Head || samples[0].At.IsZero() || len(samples[0].Layers) == 0 {
		t.Errorf("samples %+v, want one clean sample of #15 at merge %s, naming its layers", samples, st.Head)
	}
	if _, ok := f.gitShow("ledger:" + inbox.AuditPath(15)); ok {
		t.Error("the audit entry is still on the ledger")
	}
	if labelsOf(f.issue(15))[inbox.LabelAudit] {
		t.Error("aayu:audit is still on #15")
	}
	if recs := f.records(); len(recs) != 1 || recs[0].Command != "inbox: audit 15 --looks-right" {
		t.Errorf("log %+v", recs)
	}
}

// TestInboxApproveHead: with a bot identity the founder is not the author
// of #6, so "approve its head" is GitHub's review of the head and its
// record on the ledger.
func TestInboxApproveHead(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	ctx := context.Background()
	st := f.step(inbox.KindNeedsReview, sandbox.DemoPRReview)
	head := f.srv.HeadSHA(sandbox.DemoPRReview)
	if st.Head != head {
		t.Fatalf("card head %s, sandbox head %s", st.Head, head)
	}

	// Without the one line on what was checked, nothing is read or written.
	noNote := f.exec.Execute(ctx, request(t, st, "2", "  "))
	if noNote.Failure == nil || !noNote.Failure.Retryable || noNote.Done {
		t.Fatalf("no note: %+v", noNote)
	}

	out := f.exec.Execute(ctx, request(t, st, "2", "Read the copay table\nand its tests"))
	if !out.Done || out.Failure != nil {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	reviews, _, err := f.writer.PullRequests.ListReviews(ctx, owner, repo, sandbox.DemoPRReview, nil)
	if err != nil {
		t.Fatal(err)
	}
	approvals := 0
	for _, r := range reviews {
		if r.GetUser().GetLogin() == "founder" && r.GetState() == "APPROVED" && r.GetCommitID() == head {
			approvals++
		}
	}
	if approvals != 1 {
		t.Errorf("%d approvals by founder at %s, want 1", approvals, head)
	}
	raw, ok := f.gitShow("ledger:reviews/6/" + head + ".json")
	if !ok {
		t.Fatal("no review record on the ledger")
	}
	var rec ReviewRecord
	if err := json.Unmarshal([]byte(raw), &rec); err != nil || rec.Login != "founder" || rec.Head != head || rec.PR != 6 ||
		rec.Checked != "Read the copay table and its tests" || rec.Time.IsZero() {
		t.Errorf("review record %q: %+v %v", raw, rec, err)
	}
	if recs := f.records(); len(recs) != 2 || recs[0].Outcome != OutcomeRefused || recs[1].Command != "inbox: inspect 6 --approve" {
		t.Errorf("log %+v", recs)
	}
}

// TestInboxApproveHeadInTheSoloDemoWritesNoReview: in the solo demo agents
// wrote #6 under the founder's token, and GitHub refuses an author's own
// review, so "approve its head" writes only the ledger record and the
// "Human review:" reply inspect reads: no review, which ship could never
// count for the author anyway.
func TestInboxApproveHeadInTheSoloDemoWritesNoReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	st := f.step(inbox.KindNeedsReview, sandbox.DemoPRReview)
	head := f.srv.HeadSHA(sandbox.DemoPRReview)
	out := f.exec.Execute(ctx, request(t, st, "2", "Read the copay table"))
	if !out.Done || out.Failure != nil {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	reviews, _, err := f.writer.PullRequests.ListReviews(ctx, owner, repo, sandbox.DemoPRReview, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reviews {
		if r.GetUser().GetLogin() == "founder" {
			t.Errorf("the author reviewed their own pull request: %s at %s", r.GetState(), r.GetCommitID())
		}
	}
	raw, ok := f.gitShow("ledger:reviews/6/" + head + ".json")
	var rec ReviewRecord
	if !ok || json.Unmarshal([]byte(raw), &rec) != nil || rec.Login != "founder" || rec.Head != head {
		t.Errorf("review record %q: %+v", raw, rec)
	}
	comments, _, err := f.writer.Issues.ListComments(ctx, owner, repo, sandbox.DemoPRReview, nil)
	if err != nil {
		t.Fatal(err)
	}
	replies := 0
	for _, c := range comments {
		if c.GetUser().GetLogin() == "founder" && strings.HasPrefix(c.GetBody(), inbox.HumanReviewPrefix) && strings.Contains(c.GetBody(), head) {
			replies++
		}
	}
	if replies != 1 {
		t.Errorf("%d Human review: replies naming head %s, want 1", replies, head)
	}
}

func TestInboxRereadRefusesChangedItem(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	st := f.step(inbox.KindDecision, sandbox.DemoDecision)
	title := "Decision: deductible tables, second thoughts"
	if _, _, err := f.writer.Issues.Edit(ctx, owner, repo, sandbox.DemoDecision, &github.IssueRequest{Title: &title}); err != nil {
		t.Fatal(err)
	}
	out := f.exec.Execute(ctx, request(t, st, "1", ""))
	if !out.Changed || out.Done || out.Now == nil || out.Now.Item.Title.Raw() != title || !strings.Contains(out.ChangedWhat, "title") {
		t.Fatalf("outcome %+v", out)
	}
	if len(out.Wrote) != 0 || len(f.commentsBy(1, "founder")) != 0 {
		t.Error("something was written after the card changed")
	}
	is := f.issue(1)
	if is.GetState() != "open" || labelsOf(is)[inbox.LabelAccepted] {
		t.Errorf("#1 changed: %s %v", is.GetState(), labelsOf(is))
	}
	if recs := f.records(); len(recs) != 1 || recs[0].Outcome != OutcomeChanged || !strings.Contains(recs[0].Detail, "title") {
		t.Errorf("log %+v", recs)
	}
}

func TestInboxDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	st := f.step(inbox.KindReplaced, sandbox.DemoReplaced)
	e, err := NewExecutor(ExecutorConfig{Client: f.gh, Owner: owner, Repo: repo, Viewer: "founder", Log: OpenLog(f.logDir, nil),
		Reread: func(context.Context, inbox.Step) (inbox.Step, bool, error) {
			t.Error("a dry run re-read the item")
			return inbox.Step{}, false, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	req := request(t, st, "1", "")
	req.DryRun = true
	out := e.Execute(context.Background(), req)
	if !out.DryRun || out.Done || len(out.Wrote) != 3 || !strings.Contains(out.Wrote[1], "Replaced by #14") {
		t.Fatalf("dry run %+v", out)
	}
	if is := f.issue(13); is.GetState() != "open" || len(f.commentsBy(13, "founder")) != 0 {
		t.Error("the dry run wrote to #13")
	}
	// Skip writes nothing either: Done at once, unread and unlogged.
	if skip := e.Execute(context.Background(), request(t, st, inbox.SkipKey, "")); !skip.Done || len(skip.Wrote) != 0 {
		t.Errorf("skip: %+v", skip)
	}
	if recs := f.records(); len(recs) != 0 {
		t.Errorf("the dry run or the skip was logged: %+v", recs)
	}
}
