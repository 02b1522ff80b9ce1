package e2e

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

// agentLedgerCommit makes an ordinary commit on the ledger as a hostile
// agent would: the real git client clones the ledger branch over the
// sandbox's smart HTTP with the agent bot's token, edit changes the
// checkout, and the commit is pushed as a fast forward on the tip. It
// returns the commit's SHA. The token travels in a header git never
// prints.
func agentLedgerCommit(t *testing.T, url, msg string, edit func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	auth := "http.extraHeader=Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:sandbox-agent-bot"))
	git := func(args ...string) string {
		t.Helper()
		out, err := runCmd("git", append([]string{"-C", dir, "-c", auth, "-c", "user.name=aayudha agent", "-c", "user.email=agent@example.com"}, args...)...)
		if err != nil {
			t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
		return strings.TrimSpace(out)
	}
	git("clone", "--quiet", "--branch", "ledger", "--single-branch", url+"/acme/benefits.git", ".")
	edit(dir)
	git("add", "-A")
	git("commit", "--quiet", "-m", msg)
	git("push", "--quiet", "origin", "HEAD:ledger")
	return git("rev-parse", "HEAD")
}

// TestLedgerWidenedPlanReviewIsNotTrusted: the founder reviews the plan of
// a Story touching never layer L04; the agent then widens
// specs/N/plan-review.json to L04, L07, L09 by an ordinary commit. aayu
// plan N neither reports nor trusts the widened review: it names the
// tampering (commit, author, path) and writes nothing.
func TestLedgerWidenedPlanReviewIsNotTrusted(t *testing.T) {
	t.Parallel()
	_, url := startBotSandbox(t)
	story, hash, _, _ := agentPlanBatch(t, url)
	a := approveAtTerminal(t, url, hash, "founder")
	if c := a.exit(); c != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", c, a.out.String())
	}
	founder := clientAt(t, url, "founder")
	if rec := planRecordOf(t, founder, story); rec == nil || strings.Join(rec.Layers, ",") != "L04" {
		t.Fatalf("no review of L04 to widen: %+v", rec)
	}
	path := pass.PlanRecordPath(story)
	sha := agentLedgerCommit(t, url, "plan review: fix layers", func(dir string) {
		f := filepath.Join(dir, filepath.FromSlash(path))
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		wide := strings.Replace(string(b), `"L04"`, `"L04", "L07", "L09"`, 1)
		if wide == string(b) {
			t.Fatalf("no layers to widen in %s", b)
		}
		if err := os.WriteFile(f, []byte(wide), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if rec := planRecordOf(t, founder, story); strings.Join(rec.Layers, ",") != "L04,L07,L09" {
		t.Fatalf("the widening did not land: %+v", rec)
	}
	home := t.TempDir()
	for range 2 { // the second run reads the judged history from the cache
		code, out, errOut := runAayuEnv(t, map[string]string{"HOME": home, "AAYU_GITHUB_TOKEN": "sandbox-founder"}, append(agentAt(url), "plan", itoa(story))...)
		all := out + errOut
		if code == tui.ExitOK || strings.Contains(all, "L07") || strings.Contains(all, "L09") {
			t.Fatalf("aayu plan %d exited %d and reported the widened review:\n%s", story, code, all)
		}
		for _, want := range []string{"Ledger tampering: commit " + sha[:12], "aayudha agent", "rewrote " + path, "not trusted"} {
			if !strings.Contains(all, want) {
				t.Errorf("aayu plan %d does not say %q:\n%s", story, want, all)
			}
		}
	}
}

// TestLedgerDeletedAuditEntryIsNamedAsTampering: the agent deletes
// autonomy/audit/15.json by an ordinary commit on the ledger. The "Merged
// unreviewed, to audit #15" card still shows, and it names the commit, its
// author and the path.
func TestLedgerDeletedAuditEntryIsNamedAsTampering(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	sha := agentLedgerCommit(t, url, "ledger: tidy", func(dir string) {
		if err := os.Remove(filepath.Join(dir, "autonomy", "audit", "15.json")); err != nil {
			t.Fatal(err)
		}
	})
	home := t.TempDir()
	for range 2 { // the second run reads the judged history from the cache
		out := listInbox(t, home, url)
		if !strings.Contains(out, "Merged unreviewed, to audit #15") {
			t.Fatalf("the audit card of #15 vanished with its deleted entry:\n%s", out)
		}
		want := "Ledger tampering: commit " + sha[:12] + " by aayudha agent <agent@example.com> deleted autonomy/audit/15.json"
		if !strings.Contains(out, want) {
			t.Fatalf("the inbox does not say %q:\n%s", want, out)
		}
	}
	// The person audits the restored card: the look lands its sample and
	// the card leaves (the entry is already gone, so nothing is removed).
	if !auditRound(t, home, url) {
		t.Fatal("the restored audit card of #15 was never reached")
	}
	if out := listInbox(t, home, url); strings.Contains(out, "to audit #15") {
		t.Errorf("the audited card stayed:\n%s", out)
	}
	if kept, _ := filepath.Glob(filepath.Join(home, ".cache", "aayu", "*", "ledger-trust", "*", "acme_benefits.json")); len(kept) != 1 {
		out, _ := runCmd("find", home)
		t.Errorf("the judged history is not kept in the user's cache: %v\n%s", kept, out)
	}
}

// TestLedgerAayusOwnUpdatesAreNoTampering: aayu's own documented updates
// raise no alarm: the inbox's audit look on #15 (a sample appended to
// autonomy/samples.jsonl, then the entry removed) leaves no tampering
// named, and the card leaves.
func TestLedgerAayusOwnUpdatesAreNoTampering(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	home := t.TempDir()
	if !auditRound(t, home, url) {
		t.Fatal("the audit card of #15 was never reached")
	}
	out := listInbox(t, home, url)
	if strings.Contains(out, "Ledger tampering") || strings.Contains(out, "to audit #15") {
		t.Fatalf("aayu's own audit look was named as tampering, or its card stayed:\n%s", out)
	}
	h, err := ghx.CheckLedger(context.Background(), clientAt(t, url, "founder"), "acme", "benefits", "ledger", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Findings) != 0 {
		t.Fatalf("aayu's own updates named as tampering: %+v", h.Findings)
	}
}

// TestLedgerReadyAgainIsNoTampering: a Ready snapshot re-frozen with
// `aayu ready N --again` (its comment on the Story naming both hashes) is
// aayu's own documented update, not tampering; the same change pushed by
// the agent with no such comment is named.
func TestLedgerReadyAgainIsNoTampering(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	story, _ := freezeOnce(t, home)
	editStoryBody(t, home, story, changedGoalBody)
	if code, out := readyWithoutTerminal(t, home, "y", itoa(story), "--again"); code != tui.ExitOK {
		t.Fatalf("ready --again: exit %d:\n%s", code, out)
	}
	c := sandboxState(t, home)
	h, err := ghx.CheckLedger(context.Background(), c, "acme", "benefits", "ledger", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Findings) != 0 {
		t.Fatalf("ready --again was named as tampering: %+v", h.Findings)
	}
	// The agent changes the snapshot's goal with no comment on the Story.
	path := "specs/" + itoa(story) + "/ready.md"
	b, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", "ledger", path)
	if err != nil {
		t.Fatal(err)
	}
	agent := sandboxAs(t, home, "agent-bot")
	sha, err := ghx.CommitFiles(context.Background(), agent, "acme", "benefits", "ledger",
		map[string][]byte{path: []byte(strings.Replace(string(b), "within a minute", "within a day", 1))}, "ledger: typo", ghx.CommitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h, err = ghx.CheckLedger(context.Background(), c, "acme", "benefits", "ledger", "")
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := h.Tampered(path); !ok || f.Commit != sha || len(h.Findings) != 1 {
		t.Fatalf("the agent's rewrite of %s is not the one finding: %+v", path, h.Findings)
	}
}

// TestAuditNamesLedgerTampering: aayu audit lists, in its own section, the
// agent's ordinary ledger commit that deleted autonomy/audit/15.json, by
// commit, author and path; in plain and in CI.
func TestAuditNamesLedgerTampering(t *testing.T) {
	t.Parallel()
	a := newAuditSandbox(t)
	sha := agentLedgerCommit(t, a.url, "ledger: tidy", func(dir string) {
		if err := os.Remove(filepath.Join(dir, "autonomy", "audit", "15.json")); err != nil {
			t.Fatal(err)
		}
	})
	for _, mode := range [][]string{{"--plain"}, {"--ci"}} {
		code, out := a.audit(mode...)
		want := "tampering: Ledger tampering: commit " + sha[:12] + " by aayudha agent <agent@example.com> deleted autonomy/audit/15.json"
		if code != tui.ExitOK || !strings.Contains(out, "Ledger tampering: 1") || !strings.Contains(out, want) {
			t.Errorf("%v: exit %d; audit does not say %q:\n%s", mode, code, want, out)
		}
	}
}
