package ship

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// TestBuildAndShip ships the demo's PR 4 with the approver's review of its
// head: it merges once, and the ledger holds the gate's pack, its data
// artifacts, ship.json and the actions log segment.
func TestBuildAndShip(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	head := f.srv.HeadSHA(sandbox.DemoPRReady)
	f.review("founder", sandbox.DemoPRReady, "APPROVE", head)

	res, events, err := f.ship(f.config("founder"), sandbox.DemoPRReady)
	if err != nil {
		t.Fatalf("ship failed: %v (refusals %q)", err, res.Refusals)
	}
	if res.ExitCode != ExitShipped || !res.Merged || !res.Shipped || len(res.Refusals) > 0 {
		t.Fatalf("ship did not ship: exit %d, merged %v, refusals %q", res.ExitCode, res.Merged, res.Refusals)
	}
	if n := f.squashCommits(sandbox.DemoPRReady); n != 1 {
		t.Errorf("dev holds %d squash commits for #4, want 1", n)
	}

	// Every run the gate passed over before the qualifying one, with its reason.
	wantPassed := map[string]string{
		sandbox.RunInProgress:  "still running",
		sandbox.RunPullRequest: "the pull request's own copy of the gate (pull_request)",
		sandbox.RunTampered:    "its artifact does not match pack.json",
		sandbox.RunFailed:      "failed",
		sandbox.RunExpired:     "its artifact expired",
	}
	if len(res.Passed) != len(wantPassed) {
		t.Errorf("passed over %d runs, want %d: %v", len(res.Passed), len(wantPassed), res.Passed)
	}
	for situation, words := range wantPassed {
		id := f.srv.RunID(situation)
		found := false
		for _, p := range res.Passed {
			if p.RunID == id {
				found = true
				if !strings.Contains(p.Reason, words) {
					t.Errorf("run %s passed over for %q, want %q", situation, p.Reason, words)
				}
			}
		}
		if !found {
			t.Errorf("run %s (%d) is not among the runs passed over", situation, id)
		}
	}

	// Each gate's line ends passed, the bypass skipped (a review passed).
	last := lastEvent(events)
	for _, g := range Gates() {
		want := Passed
		if g == GateBypass {
			want = Skipped
		}
		if last[g].State != want {
			t.Errorf("gate %q ended %s (%s), want %s", g.Title(), last[g].State, last[g].Words, want)
		}
	}

	// The record, read back through the API and through git.
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	dir := "proof/3/" + head + "/authoritative"
	if res.LedgerDir != dir {
		t.Errorf("ledger dir %q, want %q", res.LedgerDir, dir)
	}
	if rec.GateRun.RunID != f.srv.RunID(sandbox.RunQualifying) || rec.GateRun.Event != "pull_request_target" ||
		rec.GateRun.Workflow != GateWorkflowPath {
		t.Errorf("gate_run = %+v, want the qualifying run", rec.GateRun)
	}
	if rec.HumanPass.Kind != pass.KindReview || rec.HumanPass.Login != "founder" || rec.HumanPass.Commit != head || rec.HumanPass.ReviewURL == "" {
		t.Errorf("human_pass = %+v", rec.HumanPass)
	}
	if rec.MergeCommit != res.MergeCommit || rec.MergeCommit != f.srv.BranchSHA("dev") || rec.ShippedBy != "founder" || rec.Story != 3 || rec.PR != 4 {
		t.Errorf("ship.json = %+v", rec)
	}
	if len(rec.PackSHA256) != 64 || rec.Artifact.Name != PackArtifactName || len(rec.Artifact.SHA256) != 64 {
		t.Errorf("pack_sha256 %q, artifact %+v", rec.PackSHA256, rec.Artifact)
	}
	ctx := context.Background()
	gh := f.client("reader")
	packJSON, err := ghx.ReadFile(ctx, gh, owner, repo, "ledger", dir+"/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := proof.Decode(packJSON)
	if err != nil {
		t.Fatal(err)
	}
	if p.Authority.Kind != proof.AuthorityAuthoritative || p.Authority.Writer != "founder (aayu ship)" || p.Authority.RunID != rec.GateRun.RunID {
		t.Errorf("landed authority = %+v", p.Authority)
	}
	if rec.LedgerPackSHA256 != sha256Hex(packJSON) {
		t.Errorf("ledger_pack_sha256 does not match the landed pack.json")
	}
	for _, a := range p.Artifacts {
		out, err := f.git("show", "ledger:"+dir+"/artifacts/"+a.Path)
		if err != nil {
			t.Errorf("git show %s: %v %s", a.Path, err, out)
		} else if sha256Hex([]byte(out)) != a.SHA256 {
			t.Errorf("landed artifact %s does not match its hash", a.Path)
		}
	}
	if out, err := f.git("show", "ledger:"+dir+"/ship.json"); err != nil || !strings.Contains(out, `"pack_sha256": "`+rec.PackSHA256) {
		t.Errorf("git show ship.json: %v %s", err, out)
	}
	seg, err := f.git("show", "ledger:"+rec.ActionsSegment)
	if err != nil || !strings.Contains(seg, "squash-merged #4") || !strings.Contains(seg, "landed "+dir) {
		t.Errorf("actions segment %s: %v\n%s", rec.ActionsSegment, err, seg)
	}
	if msg, _ := f.git("log", "-1", "--format=%B", "ledger"); !strings.Contains(msg, "Aayudha-Identity: human (founder, aayu ship)") {
		t.Errorf("ledger commit lacks the identity trailer:\n%s", msg)
	}

	// A second ship finds the record and writes nothing.
	before := f.snapshot(sandbox.DemoPRReady)
	again, _, err := f.ship(f.config("founder"), sandbox.DemoPRReady)
	if err != nil || again.ExitCode != ExitShipped || !again.Shipped {
		t.Fatalf("second ship: exit %d, err %v, refusals %q", again.ExitCode, err, again.Refusals)
	}
	f.assertUnchanged(before, sandbox.DemoPRReady)
}
