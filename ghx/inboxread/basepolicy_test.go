package inboxread_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// approveChoice is the "approve its head" choice of pr's Needs review card.
func approveChoice(t *testing.T, snap inbox.Snapshot, pr int) inbox.Choice {
	t.Helper()
	for _, st := range inbox.Derive(snap) {
		if st.Kind == inbox.KindNeedsReview && st.Item.Number == pr {
			for _, c := range st.Choices {
				if strings.HasPrefix(c.Label, "approve its head") {
					return c
				}
			}
		}
	}
	t.Fatalf("no approve choice on #%d's Needs review card", pr)
	return inbox.Choice{}
}

// TestInboxJudgesAPullRequestByItsBaseBranchsPolicy: the pull requests
// into dev are judged by dev's .aayudha/config.toml, as ship judges them,
// when it differs from the default branch's: another approver, and a bot
// identity that ends solo mode.
func TestInboxJudgesAPullRequestByItsBaseBranchsPolicy(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	before := read(t, f.reader)
	if c := approveChoice(t, before, sandbox.DemoPRReview); c.Disabled != "" {
		t.Fatalf("with one policy the approver @founder may approve #%d: %q", sandbox.DemoPRReview, c.Disabled)
	}
	if len(before.BasePolicy) != 0 {
		t.Errorf("the bases' policies equal the default branch's, yet %v was kept", before.BasePolicy)
	}
	var base string
	for _, pr := range before.PullRequests {
		if pr.Number == sandbox.DemoPRReview {
			base = pr.BaseRef.Raw()
		}
	}
	if base == "" || base == "main" {
		t.Fatalf("#%d's base is %q; the test needs a base other than the default branch", sandbox.DemoPRReview, base)
	}

	cfg := "[autonomy]\napprover = \"dev\"\nintegration_branch = \"dev\"\n\n[identity]\napp_slug = \"aayu-agent\"\nbot_logins = [\"agent-bot\"]\n"
	if _, err := ghx.CommitFiles(context.Background(), clientFor(t, f.base, "founder", nil), owner, repo, base,
		map[string][]byte{inboxread.ConfigPath: []byte(cfg)}, "policy: dev approves its own", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	f.wire.take()
	snap := read(t, f.reader)
	_, _, paths := f.wire.take()

	if snap.Approver != "founder" || !snap.SoloMode {
		t.Errorf("the default branch's policy changed: approver %q solo %v", snap.Approver, snap.SoloMode)
	}
	p, ok := snap.BasePolicy[base]
	if !ok || p.Approver != "dev" || p.SoloMode || len(p.BotLogins) != 1 {
		t.Fatalf("%s's policy = %+v (kept %v)", base, p, ok)
	}
	c := approveChoice(t, snap, sandbox.DemoPRReview)
	if !strings.Contains(c.Disabled, "only the [autonomy] approver, @dev,") {
		t.Errorf("#%d into %s: approve is %q, want it refused for @dev, the approver there", sandbox.DemoPRReview, base, c.Disabled)
	}
	for _, st := range inbox.Derive(snap) {
		for _, ch := range st.Choices {
			if st.Item.IsPR && strings.Contains(ch.Label, "Solo-mode bypass") {
				t.Errorf("#%d into %s (not solo mode there) offers %q", st.Item.Number, base, ch.Label)
			}
		}
	}
	reads := 0
	for _, path := range paths {
		if strings.Contains(path, "/contents/.aayudha/config.toml") && strings.Contains(path, "ref="+base) {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("%s's policy read %d times in one Read, want once: %v", base, reads, paths)
	}
}

// TestRefreshJudgesAPullRequestIntoANewBaseByThatBase: a pull request
// opened into a base branch that no earlier read saw is judged by that
// base's policy at the refresh that first sees it, not by the default
// branch's until the next full read.
func TestRefreshJudgesAPullRequestIntoANewBaseByThatBase(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	ctx := context.Background()
	prev := read(t, f.reader)
	founder := clientFor(t, f.base, "founder", nil)
	head := f.srv.HeadSHA(sandbox.DemoPRReview)
	for branch, sha := range map[string]string{"release": f.srv.BranchSHA("dev"), "story/5-release-copay": head} {
		if _, _, err := founder.Git.CreateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/heads/" + branch), Object: &github.GitObject{SHA: github.String(sha)}}); err != nil {
			t.Fatalf("creating %s: %v", branch, err)
		}
	}
	cfg := "[autonomy]\napprover = \"dev\"\nintegration_branch = \"release\"\n"
	if _, err := ghx.CommitFiles(ctx, founder, owner, repo, "release",
		map[string][]byte{inboxread.ConfigPath: []byte(cfg)}, "policy: dev approves the release", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	pr, _, err := founder.PullRequests.Create(ctx, owner, repo, &github.NewPullRequest{Title: github.String("Copay for the release"),
		Head: github.String("story/5-release-copay"), Base: github.String("release"), Body: github.String("Refs #5")})
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := f.reader.Refresh(ctx, prev, since(f.reader))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := snap.BasePolicy["release"]; !ok || p.Approver != "dev" {
		t.Fatalf("the refresh did not read release's policy: %+v (kept %v)", p, ok)
	}
	c := approveChoice(t, snap, pr.GetNumber())
	if !strings.Contains(c.Disabled, "@dev") {
		t.Errorf("#%d into release: approve is %q, want it refused for @dev, the approver there", pr.GetNumber(), c.Disabled)
	}
}
