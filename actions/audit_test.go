package actions

import (
	"context"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

func TestInboxAuditCorrection(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	out := f.exec.Execute(context.Background(), request(t, st, "2", ""))
	if !out.Done || out.Failure != nil || out.ByHand != "" {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	f.checkCorrection(st.Head)
	if recs := f.records(); len(recs) != 1 || recs[0].Command != "inbox: audit 15 --correction" || recs[0].Outcome != OutcomeDone {
		t.Errorf("log %+v", recs)
	}
}

// checkCorrection checks one correction sample, the labels, the audit
// entry gone, and exactly one revert pull request whose tree is dev's tip
// with every file the merge changed set back to its parent's version.
func (f *fixture) checkCorrection(merge string) {
	t := f.t
	t.Helper()
	samples := f.samples()
	if len(samples) != 1 || samples[0].PR != 15 || !samples[0].Correction || samples[0].MergeCommit != merge {
		t.Errorf("samples %+v, want one correction sample of #15", samples)
	}
	// The sample carries the rung ship merged #15 on (its audit entry's)
	// and its author, which decide whether a clean one counts toward a
	// streak (pass.SampleCounts).
	if author := f.issue(15).GetUser().GetLogin(); len(samples) == 1 && (samples[0].Rung != "A" || samples[0].Author != author) {
		t.Errorf("the sample has rung %q and author %q, want the audit entry's A and #15's @%s", samples[0].Rung, samples[0].Author, author)
	}
	labels := labelsOf(f.issue(15))
	if !labels[inbox.LabelCorrection] || labels[inbox.LabelAudit] {
		t.Errorf("labels of #15: %v", labels)
	}
	if _, ok := f.gitShow("ledger:" + inbox.AuditPath(15)); ok {
		t.Error("the audit entry is still on the ledger")
	}
	prs := f.revertPRs()
	if len(prs) != 1 || prs[0].GetBase().GetRef() != "dev" || prs[0].GetState() != "open" {
		t.Fatalf("revert pull requests %v, want one open into dev", prs)
	}
	// The merge gate gates the revert on the Story #15 linked (#14): its
	// branch names none, so its body does, as a Refs line.
	if got := inbox.LinkedIssues(prs[0].GetHead().GetRef(), prs[0].GetBody()); !slices.Equal(got, []int{14}) {
		t.Errorf("the revert pull request links %v, want the Story #15 linked, [14]:\n%s", got, prs[0].GetBody())
	}
	branch := RevertBranch(15)
	changed := strings.Fields(f.git("diff", "--name-only", merge+"^", merge))
	if len(changed) == 0 {
		t.Fatal("the merge of #15 changed nothing")
	}
	for _, p := range changed {
		if got, want := f.blob(branch+":"+p), f.blob(merge+"^:"+p); got != want {
			t.Errorf("%s on the revert branch is %q, its parent's version is %q", p, got, want)
		}
	}
	if diff := strings.Fields(f.git("diff", "--name-only", "dev", branch)); !slices.Equal(diff, changed) {
		t.Errorf("the revert branch differs from dev in %v, want only %v", diff, changed)
	}
}

func (f *fixture) revertPRs() []*github.PullRequest {
	f.t.Helper()
	prs, _, err := f.writer.PullRequests.List(context.Background(), owner, repo,
		&github.PullRequestListOptions{State: "all", Head: owner + ":" + RevertBranch(15)})
	if err != nil {
		f.t.Fatal(err)
	}
	return prs
}

func (f *fixture) git(args ...string) string {
	f.t.Helper()
	out, err := exec.Command("git", append([]string{"--git-dir", f.srv.GitDir()}, args...)...).Output()
	if err != nil {
		f.t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

// blob is a file's object id at rev, or "" when it is not there.
func (f *fixture) blob(rev string) string {
	out, err := exec.Command("git", "--git-dir", f.srv.GitDir(), "rev-parse", "--verify", "--quiet", rev).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func TestInboxCorrectionRetryReusesSampleAndPR(t *testing.T) {
	t.Parallel()
	fault := &faultOn{match: methodPath(http.MethodDelete, "/issues/15/labels/aayu:audit")}
	f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { fault.next = next; return fault })
	ctx := context.Background()
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	req := request(t, st, "2", "")

	first := f.exec.Execute(ctx, req)
	if fault.count() != 1 || first.Failure == nil || !first.Failure.Retryable || first.Done {
		t.Fatalf("first try: %+v, failure %+v", first, first.Failure)
	}
	t.Logf("the card says:\n%s\nbehind d:\n%s", strings.Join(first.Failure.Lines(), "\n"), strings.Join(first.Failure.Details, "\n"))
	wantChanged := "The correction sample was recorded; the label aayu:correction was added; the pull request #"
	if !strings.HasPrefix(first.Failure.Changed, wantChanged) || !strings.HasSuffix(first.Failure.Changed, "the label aayu:audit was not removed.") {
		t.Errorf("changed line %q", first.Failure.Changed)
	}

	// Enter again: the label stays, and so does the audit entry, which is
	// removed last; the retry finishes the rest.
	second := f.exec.Execute(ctx, req)
	if !second.Done || second.Failure != nil {
		t.Fatalf("retry: %+v, failure %+v", second, second.Failure)
	}
	f.checkCorrection(st.Head)
	if got := strings.Join(second.Wrote, "\n"); !strings.Contains(got, "was already recorded") || !strings.Contains(got, "was already there") {
		t.Errorf("the retry says %q; want the sample and the pull request reused", got)
	}
}

func TestInboxCorrectionAfterCleanSampleMarksIt(t *testing.T) {
	t.Parallel()
	// A looks-right that stopped after its sample (the ledger commit
	// removing the audit entry failed), then a correction: the same sample
	// is marked as a correction, never a second line.
	// CommitFiles rides out a single 502, so GitHub keeps failing the
	// second commit's every move of the ledger (fromNth).
	fault := &fromNth{n: 2, match: methodPath(http.MethodPatch, "/git/refs/heads/ledger")}
	f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { fault.next = next; return fault })
	ctx := context.Background()
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	right := f.exec.Execute(ctx, request(t, st, "1", ""))
	fault.stop()
	if right.Failure == nil || fault.count() == 0 {
		t.Fatalf("looks right: %+v", right)
	}
	if want := "The sample was recorded; the label aayu:audit was removed; the audit entry of #15 was not removed from the ledger."; right.Failure.Changed != want {
		t.Errorf("changed line %q, want %q", right.Failure.Changed, want)
	}
	if s := f.samples(); len(s) != 1 || s[0].Correction {
		t.Fatalf("samples %+v", s)
	}
	if out := f.exec.Execute(ctx, request(t, st, "2", "")); !out.Done {
		t.Fatalf("correction: %+v %+v", out, out.Failure)
	}
	f.checkCorrection(st.Head)
}

func TestInboxRevertPRThatMayHaveLandedIsFound(t *testing.T) {
	t.Parallel()
	fault := &faultOn{match: methodPath(http.MethodPost, "/repos/acme/benefits/pulls"), forward: true}
	f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { fault.next = next; return fault })
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	out := f.exec.Execute(context.Background(), request(t, st, "2", ""))
	if fault.count() != 1 || !out.Done || out.Failure != nil {
		t.Fatalf("outcome %+v, failure %+v (fault fired %d)", out, out.Failure, fault.count())
	}
	f.checkCorrection(st.Head)
}

func TestInboxRevertByHandWhenALaterCommitTouchedIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	// A later change lands on dev. dev's ruleset requires the merge gate's
	// status, which only the admin (the founder) bypasses: a writer's push
	// straight to dev is refused, as on GitHub.
	if _, err := ghx.CommitFiles(ctx, f.gh, owner, repo, "dev", map[string][]byte{
		"deductible/tiers.go": []byte("package deductible\n\n// Tiers moved on after #15.\n"),
	}, "deductible: a later change to tiers", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	out := f.exec.Execute(ctx, request(t, st, "2", ""))
	if !out.Done || out.Failure != nil {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	if !strings.Contains(out.ByHand, "Revert #15 by hand on dev") || !strings.Contains(out.ByHand, "deductible/tiers.go") {
		t.Errorf("by hand: %q", out.ByHand)
	}
	if prs := f.revertPRs(); len(prs) != 0 {
		t.Errorf("a revert pull request was opened: %v", prs)
	}
	if f.blob("refs/heads/"+RevertBranch(15)) != "" {
		t.Error("a revert branch was pushed")
	}
	if s := f.samples(); len(s) != 1 || !s[0].Correction {
		t.Errorf("samples %+v", s)
	}
	if recs := f.records(); len(recs) != 1 || !strings.Contains(recs[0].Detail, "by hand") {
		t.Errorf("log %+v", recs)
	}
}
