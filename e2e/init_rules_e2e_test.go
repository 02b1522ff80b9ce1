package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// onSandbox runs f against the sandbox's saved state as the founder.
func onSandbox(t *testing.T, home string, f func(gh *github.Client)) {
	t.Helper()
	srv, err := newSandbox(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox")})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(base + "/")
	f(gh)
}

// TestInitCreatesTheRulesetsOnlyTheGateCanSatisfy: `aayu init --yes` on
// acme/fresh shows each ruleset's body before writing, creates the gate's
// ruleset (aayudha/merge-gate from GitHub Actions, integration_id 15368,
// no force-push, no deletion) and the ledger's (no force-push, no
// deletion, no bypass), read back through REST; once the set-up pull
// request is merged and the presence App named, no doctor row fails.
func TestInitCreatesTheRulesetsOnlyTheGateCanSatisfy(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	code, out := runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "init", "--yes")
	// fresh's earlier set-up holds a ruleset named "aayudha merge gate" (the
	// gate by name only); GitHub keeps names unique, so init's is "… 2".
	if code != tui.ExitOK || !strings.Contains(out, "created the ruleset aayudha merge gate 2.") || !strings.Contains(out, "created the ruleset aayudha ledger.") {
		t.Fatalf("init --yes exited %d:\n%s", code, out)
	}
	body := `  body: {"bypass_actors":[],"conditions":{"ref_name":{"exclude":[],"include":["refs/heads/ledger"]}},"enforcement":"active","name":"aayudha ledger","rules":[{"type":"non_fast_forward"},{"type":"deletion"}],"target":"branch"}`
	if i, j := strings.Index(out, body), strings.Index(out, "writing…"); i < 0 || j < i {
		t.Errorf("the ledger ruleset's body is not shown before the writes:\n%s", out)
	}
	if !strings.Contains(out, "  create .gitignore: the one line /.aayudha/proof/") {
		t.Errorf("the proposal does not show the .gitignore line:\n%s", out)
	}
	onSandbox(t, home, func(gh *github.Client) {
		ctx := context.Background()
		all, _, err := gh.Repositories.GetAllRulesets(ctx, "acme", "fresh", false)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]*github.Ruleset{}
		for _, rs := range all {
			full, _, err := gh.Repositories.GetRuleset(ctx, "acme", "fresh", rs.GetID(), false)
			if err != nil {
				t.Fatal(err)
			}
			got[full.Name] = full
		}
		gate, ledger := got["aayudha merge gate 2"], got["aayudha ledger"]
		if gate == nil || ledger == nil {
			t.Fatalf("the rulesets read back: %v", got)
		}
		var kinds []string
		for _, r := range gate.Rules {
			kinds = append(kinds, r.Type)
			if r.Type == "required_status_checks" && !strings.Contains(string(*r.Parameters), `{"context":"aayudha/merge-gate","integration_id":15368}`) {
				t.Errorf("the gate's check: %s", *r.Parameters)
			}
		}
		if strings.Join(kinds, " ") != "required_status_checks non_fast_forward deletion" || strings.Join(gate.Conditions.RefName.Include, " ") != "refs/heads/main" {
			t.Errorf("the gate's ruleset: %v on %v", kinds, gate.Conditions.RefName.Include)
		}
		if len(ledger.Rules) != 2 || ledger.Rules[0].Type != "non_fast_forward" || ledger.Rules[1].Type != "deletion" || len(ledger.BypassActors) != 0 {
			t.Errorf("the ledger's ruleset: %+v, bypass %v", ledger.Rules, ledger.BypassActors)
		}
	})

	mergeOnSandbox(t, home, "fresh", 1)
	// The presence check's App, as init --identity names it (its device
	// code is another test's).
	onSandbox(t, home, func(gh *github.Client) {
		if err := ghx.SetRepoVariable(context.Background(), gh, "acme", "fresh", ghx.DeviceClientVariable, "Iv23liSandboxFresh"); err != nil {
			t.Fatal(err)
		}
	})
	code, out = runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "doctor")
	if code != tui.ExitOK || strings.Contains(out, ": not set up — ") {
		t.Fatalf("doctor on the new set-up exited %d:\n%s", code, out)
	}
	t.Logf("doctor on the new set-up:\n%s", out)
	for _, row := range []string{"gate required on main: ok", "force-push blocked on main: ok", "deletion blocked on main: ok", "force-push blocked on ledger: ok", "deletion blocked on ledger: ok"} {
		if !strings.Contains(out, row) {
			t.Errorf("doctor lacks %q:\n%s", row, out)
		}
	}
	// A second init has nothing left to write.
	if code, out := runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "init", "--gates", "--yes"); code != tui.ExitOK || !strings.Contains(out, "Nothing to write") {
		t.Errorf("a second init exited %d:\n%s", code, out)
	}
}

// TestDoctorNamesEachRuleTheEarlierInitLeftOut: `aayu doctor` on the demo
// set up by the earlier init (its one ruleset requiring the gate by name,
// created here through REST) fails a row for each missing rule on dev,
// main and the ledger, with aayu init as the next step, and exits 4.
func TestDoctorNamesEachRuleTheEarlierInitLeftOut(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	// The sandbox's state is seeded by the first run.
	if code, out := runAs(vars, "", "--sandbox", "--repo", "acme/benefits", "doctor"); code == tui.ExitUsage {
		t.Fatalf("doctor exited %d:\n%s", code, out)
	}
	onSandbox(t, home, func(gh *github.Client) {
		ctx := context.Background()
		if _, err := gh.Repositories.DeleteRuleset(ctx, "acme", "benefits", sandbox.RulesetID); err != nil {
			t.Fatal(err)
		}
		all, _, _ := gh.Repositories.GetAllRulesets(ctx, "acme", "benefits", false)
		for _, rs := range all { // whatever the seed carries, only the earlier init's ruleset stays
			if _, err := gh.Repositories.DeleteRuleset(ctx, "acme", "benefits", rs.GetID()); err != nil {
				t.Fatal(err)
			}
		}
		old := `{"name":"aayudha merge gate","target":"branch","enforcement":"active",` +
			`"conditions":{"ref_name":{"include":["refs/heads/main","refs/heads/dev"],"exclude":[]}},` +
			`"bypass_actors":[{"actor_id":5,"actor_type":"RepositoryRole","bypass_mode":"always"}],` +
			`"rules":[{"type":"required_status_checks","parameters":{"strict_required_status_checks_policy":false,"required_status_checks":[{"context":"aayudha/merge-gate"}]}}]}`
		req, _ := gh.NewRequest("POST", "repos/acme/benefits/rulesets", json.RawMessage(old))
		if _, err := gh.Do(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
	})
	code, out := runAs(vars, "", "--sandbox", "--repo", "acme/benefits", "doctor")
	if code != tui.ExitRefused {
		t.Fatalf("doctor exited %d, want 4:\n%s", code, out)
	}
	for _, row := range []string{
		"gate required on dev: not set up — aayudha/merge-gate is required by name only (no integration_id)",
		"gate required on main: not set up — aayudha/merge-gate is required by name only (no integration_id)",
		"force-push blocked on dev: not set up", "force-push blocked on main: not set up", "force-push blocked on ledger: not set up",
		"deletion blocked on dev: not set up", "deletion blocked on main: not set up", "deletion blocked on ledger: not set up",
	} {
		if !strings.Contains(out, row) {
			t.Errorf("doctor lacks %q:\n%s", row, out)
		}
	}
	if n := strings.Count(out, "next: run aayu init with an admin's token: it creates the ruleset"); n != 8 {
		t.Errorf("%d rows point at aayu init, want 8:\n%s", n, out)
	}
}
