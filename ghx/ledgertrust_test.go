package ghx_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// TestCheckLedgerNamesADeletedAuditEntryAndReadsOnlyNewCommits: the demo's
// ledger history holds no tampering; an ordinary commit deleting
// autonomy/audit/15.json is named (commit, author, path), and the run after
// it reads the history list and nothing else.
func TestCheckLedgerNamesADeletedAuditEntryAndReadsOnlyNewCommits(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	cache := t.TempDir()
	h, err := ghx.CheckLedger(ctx, env.client, owner, repo, "ledger", cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Findings) != 0 || h.Commits == 0 {
		t.Fatalf("the demo ledger: %d commits, findings %+v", h.Commits, h.Findings)
	}
	agent := env.newClient(t, "sandbox-agent-bot", nil)
	sha, err := ghx.CommitFiles(ctx, agent, owner, repo, "ledger", map[string][]byte{"autonomy/audit/15.json": nil}, "tidy", ghx.CommitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h, err = ghx.CheckLedger(ctx, env.client, owner, repo, "ledger", cache)
	if err != nil {
		t.Fatal(err)
	}
	f, ok := h.Tampered("autonomy/audit/15.json")
	if !ok || f.Commit != sha || f.What != "deleted" || !strings.Contains(f.Author, "agent") || f.Trusted == "" {
		t.Fatalf("findings %+v; want the deletion by commit %s", h.Findings, sha)
	}
	before := strings.Count(env.served.all(), "GET /repos/acme/benefits/commits/")
	if before == 0 {
		t.Fatal("the served log shows no commit read; the count below proves nothing")
	}
	if _, err := ghx.CheckLedger(ctx, env.client, owner, repo, "ledger", cache); err != nil {
		t.Fatal(err)
	}
	if after := strings.Count(env.served.all(), "GET /repos/acme/benefits/commits/"); after != before {
		t.Errorf("a run with nothing new read %d commits again", after-before)
	}
}

// TestCheckLedgerNamesAHistoryThatLostItsCheckedTip: a tip judged before
// that is no longer in the ledger's history (a force-push went over it) is
// a finding, kept on later runs, and the new history is judged afresh.
func TestCheckLedgerNamesAHistoryThatLostItsCheckedTip(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	cache := t.TempDir()
	gone := strings.Repeat("ab", 20)
	host := strings.NewReplacer(":", "_", "/", "_").Replace(env.client.BaseURL.Host)
	file := filepath.Join(cache, "ledger-trust", host, "acme_benefits.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"v":1,"tip":"`+gone+`","checked":{"`+gone+`":[]},"order":["`+gone+`"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		h, err := ghx.CheckLedger(ctx, env.client, owner, repo, "ledger", cache)
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Findings) != 1 || h.Findings[0].Commit != gone || !strings.Contains(h.Findings[0].Line(), "force-push") || h.Commits == 0 {
			t.Fatalf("findings %+v over %d commits; want the lost tip named once", h.Findings, h.Commits)
		}
	}
}

// TestCheckLedgerRechecksAReadySnapshotUntilItsCommentComes: aayu ready
// --again lands the snapshot before its comment on the Story; a run in
// between names it, and the run after the comment withdraws the finding
// (the judged commit is not kept as tampering for good).
func TestCheckLedgerRechecksAReadySnapshotUntilItsCommentComes(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	cache := t.TempDir()
	const path = "specs/3/ready.md"
	b, err := ghx.ReadFile(ctx, env.client, owner, repo, "ledger", path)
	if err != nil {
		t.Fatal(err)
	}
	var was string
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "completion_goal_hash: "); ok {
			was = v
		}
	}
	now := strings.Repeat("0", 64)
	if was == "" || was == now {
		t.Fatalf("no completion_goal_hash in %s:\n%s", path, b)
	}
	if _, err := ghx.CommitFiles(ctx, env.client, owner, repo, "ledger", map[string][]byte{path: []byte(strings.Replace(string(b), was, now, 1))}, "Ready: again", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	h, err := ghx.CheckLedger(ctx, env.client, owner, repo, "ledger", cache)
	if _, ok := h.Tampered(path); err != nil || !ok {
		t.Fatalf("before its comment the re-freeze is not named: %v %+v", err, h.Findings)
	}
	body := "The Completion Goal of this story changed and was frozen again with `aayu ready 3 --again`.\n\n- new completion_goal_hash: `" + now +
		"`\n- old completion_goal_hash: `" + was + "` (its snapshot stays in the history)\n"
	if _, _, err := env.client.Issues.CreateComment(ctx, owner, repo, 3, &github.IssueComment{Body: &body}); err != nil {
		t.Fatal(err)
	}
	if h, err = ghx.CheckLedger(ctx, env.client, owner, repo, "ledger", cache); err != nil || len(h.Findings) != 0 {
		t.Fatalf("the re-freeze is still named after its comment: %v %+v", err, h.Findings)
	}
}
