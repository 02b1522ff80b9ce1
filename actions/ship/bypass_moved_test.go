package ship

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/auditread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/model/identity"
	"github.com/google/go-github/v66/github"
)

// founderComments are the founder's comments on pr, as GitHub has them.
func (f *fixture) founderComments(pr int) []*github.IssueComment {
	f.t.Helper()
	list, _, err := f.client("reader").Issues.ListComments(context.Background(), owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []*github.IssueComment
	for _, c := range list {
		if c.GetUser().GetLogin() == "founder" {
			out = append(out, c)
		}
	}
	return out
}

// TestShipRefusesToPostABypassForAHeadThatMoved: the head moves between
// the person's yes and the bypass gate; ship reads it again before
// posting, so no Solo-mode bypass: comment names a head that is gone.
func TestShipRefusesToPostABypassForAHeadThatMoved(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	cfg := f.config("founder")
	cfg.SoloBypass = true
	cfg.AfterStep = func(g GateID) error {
		if g == GateConfirm {
			f.commit("story/3-remaining-deductible", map[string]string{"deductible/late.go": "package deductible\n"})
		}
		return nil
	}
	old := f.srv.HeadSHA(pr)
	dev := f.srv.BranchSHA("dev")
	before := len(f.founderComments(pr))
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !hasWords(res.Refusals, "no Solo-mode bypass: comment was posted") {
		t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	if n := len(f.founderComments(pr)) - before; n != 0 {
		t.Errorf("ship posted %d comments for head %s, which had moved", n, old)
	}
	if f.srv.BranchSHA("dev") != dev {
		t.Error("a refused ship merged")
	}
}

// TestShipMarksTheBypassUnusedWhenTheMergeIsRefused: the head moves after
// the comment is posted; GitHub refuses the merge, and ship edits the
// comment to say it was not used, so it grants nothing later, and aayu
// audit lists it.
func TestShipMarksTheBypassUnusedWhenTheMergeIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	cfg := f.config("founder")
	cfg.SoloBypass = true
	cfg.AfterStep = func(g GateID) error {
		if g == GateBypass {
			f.commit("story/3-remaining-deductible", map[string]string{"deductible/late.go": "package deductible\n"})
		}
		return nil
	}
	old := f.srv.HeadSHA(pr)
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !hasWords(res.Refusals, "now says it was not used") {
		t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	var marked []*github.IssueComment
	for _, c := range f.founderComments(pr) {
		if strings.Contains(c.GetBody(), old) && strings.Contains(c.GetBody(), "Solo-mode bypass:") {
			marked = append(marked, c)
		}
	}
	if len(marked) != 1 || !strings.HasPrefix(marked[0].GetBody(), identity.UnusedSoloBypassPrefix) || !strings.Contains(marked[0].GetBody(), f.srv.HeadSHA(pr)) {
		t.Fatalf("want one comment for head %s marked unused, naming the new head; got %d: %q", old, len(marked), bodies(marked))
	}
	if n := f.bypassComments(pr, old); n != 0 {
		t.Errorf("%d comments still read as the bypass for the old head", n)
	}
	facts, err := auditread.Read(context.Background(), f.client("founder"), owner, repo, LedgerBranch)
	if err != nil {
		t.Fatal(err)
	}
	rep := audit.Reconcile(facts)
	if len(rep.Unused) != 1 || rep.Unused[0].PR != pr || rep.Unused[0].Comment.ID != marked[0].GetID() {
		t.Errorf("aayu audit lists %+v as unused, want the comment on #%d", rep.Unused, pr)
	}
}

func bodies(cs []*github.IssueComment) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.GetBody())
	}
	return out
}

// TestShipRefusesABypassCommentThatIsNoLongerTheOldest: between the
// bypass gate and the merge the comment ship stands on is deleted and the
// person's new one posted; the re-read just before the merge finds it is
// no longer the oldest for the head, and nothing merges.
func TestShipRefusesABypassCommentThatIsNoLongerTheOldest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	cfg := f.config("founder")
	cfg.SoloBypass = true
	gh := f.client("founder")
	cfg.AfterStep = func(g GateID) error {
		if g != GateBypass {
			return nil
		}
		for _, c := range f.founderComments(pr) {
			if strings.HasPrefix(c.GetBody(), identity.SoloBypassPrefix) {
				if _, err := gh.Issues.DeleteComment(context.Background(), owner, repo, c.GetID()); err != nil {
					t.Fatal(err)
				}
			}
		}
		body := identity.SoloBypassComment(head, "posted again by hand")
		if _, _, err := gh.Issues.CreateComment(context.Background(), owner, repo, pr, &github.IssueComment{Body: github.String(body)}); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	dev := f.srv.BranchSHA("dev")
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !hasWords(res.Refusals, "is no longer the one for head") {
		t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	if f.srv.BranchSHA("dev") != dev {
		t.Error("ship merged on a bypass comment that was no longer there")
	}
}
