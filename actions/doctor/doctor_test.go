package doctor_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

func client(t *testing.T, base, token string) *github.Client {
	c := github.NewClient(nil).WithAuthToken(token)
	c.BaseURL, _ = url.Parse(base + "/")
	return c
}

// TestDoctorRows: the demo is set up (only the token's workflow scope
// warns); fresh fails the rows that init and a ruleset fix, each with its
// next step.
func TestDoctorRows(t *testing.T) {
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	rep, err := doctor.Check(ctx, client(t, base, "sandbox-founder"), "acme", "benefits")
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]doctor.State{}
	for _, r := range rep.Rows {
		states[r.Name] = r.State
		if r.State != doctor.OK && r.Next == "" {
			t.Errorf("%s is %s with no next step", r.Name, r.State)
		}
	}
	want := map[string]doctor.State{
		"workflow .github/workflows/aayudha-merge-gate.yml": doctor.OK, "workflow .github/workflows/aayudha-protected-paths.yml": doctor.OK,
		"gate required on main": doctor.OK, "gate required on dev": doctor.OK, "presence check App (AAYUDHA_DEVICE_CLIENT_ID)": doctor.OK,
		"ledger branch": doctor.OK, "token scopes": doctor.Warn, "merge settings": doctor.OK, "ledger history": doctor.OK,
	}
	for name, st := range want {
		if states[name] != st {
			t.Errorf("benefits %s: %q, want %q", name, states[name], st)
		}
	}
	if rep.Failed() {
		t.Error("the demo is set up, but doctor failed it")
	}

	// fresh carries the gate's ruleset; without it the row fails.
	founder := client(t, base, "sandbox-founder")
	fresh, err := doctor.Check(ctx, founder, "acme", "fresh")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fresh.Rows {
		if r.Name == "gate required on main" && r.State != doctor.OK {
			t.Errorf("fresh's ruleset requires the gate, yet: %+v", r)
		}
	}
	if _, err := founder.Repositories.DeleteRuleset(ctx, "acme", "fresh", sandbox.RulesetID); err != nil {
		t.Fatal(err)
	}
	fresh, err = doctor.Check(ctx, founder, "acme", "fresh")
	if err != nil || !fresh.Failed() {
		t.Fatalf("fresh: %v %v", fresh, err)
	}
	var fails []string
	for _, r := range fresh.Rows {
		if r.State == doctor.Fail {
			fails = append(fails, r.Name+" → "+r.Next)
		}
	}
	got := strings.Join(fails, "\n")
	for _, want := range []string{"aayudha-merge-gate.yml → run aayu init", "gate required on main → require the status check aayudha/merge-gate on main", "AAYUDHA_DEVICE_CLIENT_ID) → run aayu init --identity"} {
		if !strings.Contains(got, want) {
			t.Errorf("fresh's failing rows lack %q:\n%s", want, got)
		}
	}
}

// TestDoctorMergeSettings: a repository whose squash merges are off fails
// the merge-settings row with the setting to change.
func TestDoctorMergeSettings(t *testing.T) {
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	founder := client(t, base, "sandbox-founder")
	if _, _, err := founder.Repositories.Edit(ctx, "acme", "benefits", &github.Repository{AllowMergeCommit: github.Bool(true), AllowSquashMerge: github.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	rep, err := doctor.Check(ctx, founder, "acme", "benefits")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Name == "merge settings" && (r.State != doctor.Fail || !strings.Contains(r.Next, "Allow squash merging")) {
			t.Errorf("squash off: %+v", r)
		}
	}
}

// TestDoctorNamesLedgerTampering: an ordinary commit by the agent that
// deletes autonomy/audit/15.json fails the ledger history row, naming the
// commit, its author and the path.
func TestDoctorNamesLedgerTampering(t *testing.T) {
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	sha, err := ghx.CommitFiles(ctx, client(t, base, "sandbox-agent-bot"), "acme", "benefits", "ledger", map[string][]byte{"autonomy/audit/15.json": nil}, "tidy", ghx.CommitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := doctor.Check(ctx, client(t, base, "sandbox-founder"), "acme", "benefits")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Name == "ledger history" {
			if r.State != doctor.Fail || !strings.Contains(r.Detail, "commit "+sha[:12]) || !strings.Contains(r.Detail, "agent") ||
				!strings.Contains(r.Detail, "deleted autonomy/audit/15.json") || r.Next == "" {
				t.Fatalf("the row does not name the tampering: %+v", r)
			}
			return
		}
	}
	t.Fatal("no ledger history row")
}
