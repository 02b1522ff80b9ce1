package ship

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
)

// TestHumanPass checks the pass as ship reads it from GitHub: each
// reviewer's latest decisive review, a comment replacing nothing, the
// autonomous streak from the ledger's samples, and merge on proof.
func TestHumanPass(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	t.Run("latest decisive review per reviewer", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.baseConfig(`approver = "founder"`, `approver = "writer"`)
		f.review("writer", pr, "APPROVE", "")
		f.review("writer", pr, "REQUEST_CHANGES", "")
		res, _, err := f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitRefused || !hasWords(res.Refusals, "@writer requested changes") {
			t.Fatalf("after changes requested: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		f.review("writer", pr, "APPROVE", "")
		f.review("writer", pr, "COMMENT", "")
		res, _, err = f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitShipped {
			t.Fatalf("approved again, then a comment: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
	})
	t.Run("an autonomous streak", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.baseConfig(`streak = 10`, `streak = 2`)
		f.commit("ledger", map[string]string{SamplesPath: `{"pr":15,"correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n" +
			`{"pr":16,"correction":true,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n" + `{"pr":17,"correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n"})
		res, _, err := f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitRefused {
			t.Fatalf("a streak of 1 after a correction shipped: err %v, exit %d", err, res.ExitCode)
		}
		f.commit("ledger", map[string]string{SamplesPath: `{"pr":15,"correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n" +
			`{"pr":17,"correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n"})
		res, _, err = f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitShipped {
			t.Fatalf("a streak of 2: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		f.assertAudited(t, res, pass.KindAutonomous)
		if rec := shipRecordOf(t, res); rec.Proof != nil {
			t.Errorf("an autonomous merge's ship.json has a proof record: %+v", rec.Proof)
		}
	})
	t.Run("a streak that a rung C merge or a person's own pull request would complete", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.baseConfig(`streak = 10`, `streak = 2`)
		first := `{"pr":15,"correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n"
		for _, second := range []string{
			`{"pr":17,"correction":false,"layers":["L05"],"rung":"C","author":"agent-bot[bot]"}`,
			`{"pr":17,"correction":false,"layers":["L05"],"rung":"A","author":"founder"}`,
		} {
			f.commit("ledger", map[string]string{SamplesPath: first + second + "\n"})
			res, _, err := f.ship(f.config("founder"), pr)
			if err != nil || res.ExitCode != ExitRefused {
				t.Fatalf("a streak of 2 counting %s shipped: err %v, exit %d", second, err, res.ExitCode)
			}
		}
	})
	t.Run("merge on proof", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.baseConfig(`proof = false`, `proof = true`, `proof_rungs = ["A", "B", "C"]`, `proof_rungs = ["A"]`)
		res, _, err := f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitRefused {
			t.Fatalf("inspect at rung B with proof_rungs [A] shipped: err %v, exit %d", err, res.ExitCode)
		}
		f.baseConfig(`proof_rungs = ["A"]`, `proof_rungs = ["A", "B"]`)
		res, _, err = f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitShipped {
			t.Fatalf("on proof: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		f.assertAudited(t, res, pass.KindProof)
		// Seed 001: "ship records the merge as proof, with the checks, the
		// rung, and any CODEOWNERS paths it merged"; the audit entry keeps
		// the rung and the author, for the sample that decides the streak.
		var rec ShipRecord
		if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Proof == nil || rec.Proof.Rung != "B" || rec.Proof.Codeowners == nil {
			t.Fatalf("ship.json's proof is %+v, want rung B, the checks and the CODEOWNERS paths", rec.Proof)
		}
		inspect := false
		for _, c := range rec.Proof.Checks {
			inspect = inspect || (c.Name == InspectContext && c.Result == "green")
		}
		if !inspect {
			t.Errorf("ship.json's proof checks lack a green %s: %+v", InspectContext, rec.Proof.Checks)
		}
		p, _, err := f.client("reader").PullRequests.Get(context.Background(), owner, repo, pr)
		if err != nil {
			t.Fatal(err)
		}
		entry, err := f.git("show", "ledger:autonomy/audit/4.json")
		if err != nil || !strings.Contains(entry, `"rung": "B"`) || !strings.Contains(entry, `"author": "`+p.GetUser().GetLogin()+`"`) {
			t.Errorf("the audit entry lacks the rung B or the author @%s: %v %s", p.GetUser().GetLogin(), err, entry)
		}
	})
}

func shipRecordOf(t *testing.T, res Result) ShipRecord {
	t.Helper()
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// assertAudited checks an unreviewed merge: the aayu:audit label and the
// audit entry on the ledger, and the kind in ship.json.
func (f *fixture) assertAudited(t *testing.T, res Result, kind string) {
	t.Helper()
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.HumanPass.Kind != kind {
		t.Errorf("human_pass.kind = %q, want %q", rec.HumanPass.Kind, kind)
	}
	issue, _, err := f.client("reader").Issues.Get(context.Background(), owner, repo, rec.PR)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range issue.Labels {
		found = found || l.GetName() == AuditLabel
	}
	if !found {
		t.Errorf("an unreviewed merge lacks the %s label", AuditLabel)
	}
	if out, err := f.git("show", "ledger:autonomy/audit/4.json"); err != nil || !strings.Contains(out, `"kind": "`+kind+`"`) {
		t.Errorf("audit entry: %v %s", err, out)
	}
}

// TestProtectedPathsGate: a never-layer path passes only with an approval
// of the head from one of its CODEOWNERS (and a plan review), and a
// CODEOWNERS rule ship cannot evaluate fails closed.
func TestProtectedPathsGate(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	passLine := func(t *testing.T, f *fixture) Event {
		t.Helper()
		_, events, err := f.ship(f.config("founder"), pr)
		if err != nil {
			t.Fatal(err)
		}
		return lastEvent(events)[GateHumanPass]
	}
	stage := func(f *fixture, approver string) {
		f.baseConfig(`approver = "founder"`, `approver = "`+approver+`"`)
		f.commit("story/3-remaining-deductible", map[string]string{"policy/limits.go": "package policy\n"})
		f.planReviewed("writer", sandbox.DemoStoryReady, "L04")
	}
	t.Run("a CODEOWNER's approval passes it", func(t *testing.T) {
		t.Parallel()
		f := newBotFixture(t)
		stage(f, "founder")
		f.review("founder", pr, "APPROVE", "")
		if e := passLine(t, f); e.State != Passed {
			t.Errorf("human pass %s: %s %q", e.State, e.Words, e.Detail)
		}
	})
	t.Run("another approver's does not", func(t *testing.T) {
		t.Parallel()
		f := newBotFixture(t)
		stage(f, "writer")
		f.review("writer", pr, "APPROVE", "")
		e := passLine(t, f)
		if e.State != Refused || !hasWords(e.Detail, "policy/limits.go is in never layer L04 and needs a pass") || !hasWords(e.Detail, "@founder") {
			t.Errorf("human pass %s: %q", e.State, e.Detail)
		}
	})
	t.Run("an unknown CODEOWNERS pattern fails closed", func(t *testing.T) {
		t.Parallel()
		f := newBotFixture(t)
		f.commit("dev", map[string]string{"CODEOWNERS": "* @founder\n/policy/[a-z]*.go @founder\n"})
		f.review("founder", pr, "APPROVE", "")
		res, _, err := f.ship(f.config("founder"), pr)
		if err != nil || res.ExitCode != ExitRefused || !hasWords(res.Refusals, "CODEOWNERS has a rule aayu cannot evaluate") {
			t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
	})
}
