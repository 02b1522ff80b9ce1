package doctor_test

import (
	"context"
	"net/http"
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

// TestDoctorRows: the demo with init's rulesets is set up (only the
// token's workflow scope warns); fresh fails the rows that init fixes,
// each with its next step.
func TestDoctorRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	newSetUp(t, client(t, base, "sandbox-founder"), "benefits")
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
		"ledger branch": doctor.OK, "token scopes": doctor.Warn, "merge settings": doctor.OK,
	}
	for name, st := range want {
		if states[name] != st {
			t.Errorf("benefits %s: %q, want %q", name, states[name], st)
		}
	}
	if rep.Failed() {
		t.Error("the demo is set up, but doctor failed it")
	}

	// fresh's ruleset requires the gate by name only; without it nothing
	// requires the gate.
	founder := client(t, base, "sandbox-founder")
	fresh, err := doctor.Check(ctx, founder, "acme", "fresh")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fresh.Rows {
		if r.Name == "gate required on main" && (r.State != doctor.Fail || !strings.Contains(r.Detail, "by name only")) {
			t.Errorf("fresh's ruleset requires the gate by name only, yet: %+v", r)
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
	for _, want := range []string{"aayudha-merge-gate.yml → run aayu init", "gate required on main → run aayu init with an admin's token", "AAYUDHA_DEVICE_CLIENT_ID) → run aayu init --identity"} {
		if !strings.Contains(got, want) {
			t.Errorf("fresh's failing rows lack %q:\n%s", want, got)
		}
	}
}

// TestDoctorMergeSettings: a repository whose squash merges are off fails
// the merge-settings row with the setting to change.
func TestDoctorMergeSettings(t *testing.T) {
	t.Parallel()
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

// presenceRow is doctor's presence-client row for owner/repo.
func presenceRow(t *testing.T, gh *github.Client, repo string) doctor.Row {
	t.Helper()
	rep, err := doctor.Check(context.Background(), gh, "acme", repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Name == "presence check App (AAYUDHA_DEVICE_CLIENT_ID)" {
			return r
		}
	}
	t.Fatalf("no presence row: %+v", rep.Rows)
	return doctor.Row{}
}

// TestDoctorFlagsAnOAuthAppPresenceClient: a presence client that is an
// OAuth App fails, saying why (a code an agent starts could mint a token
// that writes) and the one next step; the demo's App with no permissions,
// confirmed by GET /apps/{slug}, passes; an App ID doctor cannot read
// warns.
func TestDoctorFlagsAnOAuthAppPresenceClient(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	founder := client(t, base, "sandbox-founder")
	if r := presenceRow(t, founder, "benefits"); r.State != doctor.OK || !strings.Contains(r.Detail, "aayu-presence-acme-benefits, which holds no permissions") {
		t.Errorf("the demo's presence App: %+v", r)
	}
	if _, err := founder.Actions.UpdateRepoVariable(ctx, "acme", "benefits", &github.ActionsVariable{Name: "AAYUDHA_DEVICE_CLIENT_ID", Value: "Ov23liSomeOAuthApp"}); err != nil {
		t.Fatal(err)
	}
	r := presenceRow(t, founder, "benefits")
	if r.State != doctor.Fail || !strings.Contains(r.Detail, "OAuth App") || !strings.Contains(r.Detail, "a code an agent starts with the public client ID could mint a token that writes") ||
		!strings.HasPrefix(r.Next, "run aayu init --identity") {
		t.Errorf("an OAuth App presence client: %+v", r)
	}
	if _, err := founder.Actions.UpdateRepoVariable(ctx, "acme", "benefits", &github.ActionsVariable{Name: "AAYUDHA_DEVICE_CLIENT_ID", Value: "Iv23liSomeOtherApp"}); err != nil {
		t.Fatal(err)
	}
	if r := presenceRow(t, founder, "benefits"); r.State != doctor.Warn || !strings.Contains(r.Detail, "permissions were not read") {
		t.Errorf("an App doctor cannot read: %+v", r)
	}
}

// TestDoctorFlagsAPresenceAppWithPermissions: the App init --identity
// names for acme/fresh, read by GET /apps/{slug}, holds contents: write,
// so a code started with its client ID could mint a token that writes.
func TestDoctorFlagsAPresenceAppWithPermissions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	manifest := `{"name":"aayu presence (acme/fresh)","url":"https://example.com","redirect_url":"http://127.0.0.1:1/cb","default_permissions":{"contents":"write"}}`
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(base+"/organizations/acme/settings/apps/new", url.Values{"manifest": {manifest}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id, ok := srv.AppBySlug("aayu-presence-acme-fresh")
	if !ok {
		t.Fatalf("the manifest made no App (%s)", resp.Status)
	}
	founder := client(t, base, "sandbox-founder")
	if _, err := founder.Actions.CreateRepoVariable(ctx, "acme", "fresh", &github.ActionsVariable{Name: "AAYUDHA_DEVICE_CLIENT_ID", Value: id}); err != nil {
		t.Fatal(err)
	}
	r := presenceRow(t, founder, "fresh")
	if r.State != doctor.Fail || !strings.Contains(r.Detail, "holds permissions (contents: write)") || !strings.Contains(r.Detail, "could mint a token that writes") ||
		!strings.HasPrefix(r.Next, "run aayu init --identity") {
		t.Errorf("a presence App with contents: write: %+v", r)
	}
}

// TestDoctorNamesLedgerTampering: an ordinary commit by the agent that
// deletes autonomy/audit/15.json fails the ledger history row, naming the
// commit, its author and the path.
func TestDoctorNamesLedgerTampering(t *testing.T) {
	t.Parallel()
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
