package ship

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/google/go-github/v66/github"
)

// founderPR opens a pull request as the founder, as an agent writing with
// the founder's token does in solo mode.
func (f *fixture) founderPR(branch string, files map[string]string) (int, string) {
	f.t.Helper()
	ctx := context.Background()
	gh := f.client("founder")
	if _, _, err := gh.Git.CreateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/heads/" + branch),
		Object: &github.GitObject{SHA: github.String(f.srv.BranchSHA("dev"))}}); err != nil {
		f.t.Fatal(err)
	}
	f.commit(branch, files)
	pr, _, err := gh.PullRequests.Create(ctx, owner, repo, &github.NewPullRequest{Title: github.String("An agent's change under the founder's token"),
		Head: github.String(branch), Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil {
		f.t.Fatal(err)
	}
	return pr.GetNumber(), f.srv.HeadSHA(pr.GetNumber())
}

// recordHead writes login's "approve its head" record of head on the ledger.
func (f *fixture) recordHead(pr int, head, login string) {
	f.t.Helper()
	b, _ := json.Marshal(actions.ReviewRecord{PR: pr, Login: login, Head: head, Time: time.Now().UTC(), Checked: "read the diff", Via: "aayu inbox"})
	if _, err := ghx.CommitFiles(context.Background(), f.client("founder"), owner, repo, LedgerBranch,
		map[string][]byte{ReviewRecordPath(pr, head): b}, "ledger: review", ghx.CommitOptions{}); err != nil {
		f.t.Fatal(err)
	}
}

// TestShipRefusesAHeadRecordByThePRsAuthor: in solo mode the person is the
// author of what agents write with their token; their recorded head
// approval is then an author's review, which never counts, so only the
// recorded bypass can pass it.
func TestShipRefusesAHeadRecordByThePRsAuthor(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr, head := f.founderPR("story/3-founder-token", map[string]string{"deductible/extra.go": "package deductible\n"})
	f.recordHead(pr, head, "founder")
	before := f.snapshot(pr)
	res, _, err := f.ship(f.config("founder"), pr)
	if err != nil || res.ExitCode == ExitShipped || res.Merged {
		t.Fatalf("the author's own head record passed: err %v, exit %d, merged %v", err, res.ExitCode, res.Merged)
	}
	if !hasWords(res.Refusals, "only your Solo-mode bypass could pass head") {
		t.Errorf("the refusal does not say only the bypass can pass it: %q", res.Refusals)
	}
	f.assertUnchanged(before, pr)
}

// TestShipWithABotIdentityTakesTheFoundersReviewAndRefusesTheBypass: with
// a bot identity configured, agents write as the bot, so the founder's
// review of the head is the pass and the bypass is never on offer.
func TestShipWithABotIdentityTakesTheFoundersReviewAndRefusesTheBypass(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	pr := sandbox.DemoPRReady
	cfg := f.config("founder")
	cfg.SoloBypass = true
	before := f.snapshot(pr)
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || !hasWords(res.Refusals, "the solo-mode bypass is not available: this repository has a bot identity") {
		t.Fatalf("the bypass with a bot identity: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	f.assertUnchanged(before, pr)
	if n := f.bypassComments(pr, before.head); n != 0 {
		t.Errorf("%d bypass comments with a bot identity", n)
	}

	f.review("founder", pr, "APPROVE", "")
	res, _, err = f.ship(f.config("founder"), pr)
	if err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("the founder's review with a bot identity: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.HumanPass.Kind != pass.KindReview || rec.HumanPass.Login != "founder" {
		t.Errorf("human_pass = %+v, want the founder's review", rec.HumanPass)
	}
}
