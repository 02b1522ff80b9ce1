package doctor_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// todaysRuleset is the ruleset the earlier aayu init offered: the gate by
// name only, the admin role its bypass, nothing else.
const todaysRuleset = `{"name":"aayudha merge gate","target":"branch","enforcement":"active",` +
	`"conditions":{"ref_name":{"include":["refs/heads/main","refs/heads/dev"],"exclude":[]}},` +
	`"bypass_actors":[{"actor_id":5,"actor_type":"RepositoryRole","bypass_mode":"always"}],` +
	`"rules":[{"type":"required_status_checks","parameters":{"strict_required_status_checks_policy":false,"required_status_checks":[{"context":"aayudha/merge-gate"}]}}]}`

// postRuleset creates a ruleset through REST, as an admin would.
func postRuleset(t *testing.T, gh *github.Client, repo, body string) {
	t.Helper()
	req, err := gh.NewRequest(http.MethodPost, "repos/acme/"+repo+"/rulesets", json.RawMessage(body))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gh.Do(context.Background(), req, nil); err != nil {
		t.Fatalf("creating a ruleset: %v", err)
	}
}

// oldSetUp leaves the repository as the earlier init set it up: its seeded
// ruleset replaced by the one that init offered.
func oldSetUp(t *testing.T, gh *github.Client, repo string) {
	t.Helper()
	dropRulesets(t, gh, repo)
	postRuleset(t, gh, repo, todaysRuleset)
}

// dropRulesets deletes every ruleset of the repository: the demo carries
// the rules the current init sets, and a test stages its own.
func dropRulesets(t *testing.T, gh *github.Client, repo string) {
	t.Helper()
	ctx := context.Background()
	all, _, err := gh.Repositories.GetAllRulesets(ctx, "acme", repo, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range all {
		if _, err := gh.Repositories.DeleteRuleset(ctx, "acme", repo, rs.GetID()); err != nil {
			t.Fatal(err)
		}
	}
}

// newSetUp creates the rulesets the current init plans, and only those.
func newSetUp(t *testing.T, gh *github.Client, repo string) {
	t.Helper()
	ctx := context.Background()
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: repo, Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	p.Changes = nil
	if _, err := initrepo.Apply(ctx, gh, p); err != nil {
		t.Fatal(err)
	}
}

func rowsByName(rep doctor.Report) map[string]doctor.Row {
	out := map[string]doctor.Row{}
	for _, r := range rep.Rows {
		out[r.Name] = r
	}
	return out
}

// TestDoctorNamesEachRuleTodaysInitLeftOut: on a repository set up by the
// earlier init, doctor fails the gate required by name only on dev and
// main, and the missing force-push and deletion rules on dev, main and
// the ledger, each with aayu init and the exact setting as its next step.
func TestDoctorNamesEachRuleTodaysInitLeftOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	founder := client(t, base, "sandbox-founder")
	oldSetUp(t, founder, "benefits")
	rep, err := doctor.Check(ctx, founder, "acme", "benefits")
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsByName(rep)
	want := map[string]string{
		"gate required on dev":      "required by name only (no integration_id)",
		"gate required on main":     "required by name only (no integration_id)",
		"force-push blocked on dev": "nothing blocks a force-push to dev", "force-push blocked on main": "nothing blocks a force-push to main",
		"force-push blocked on ledger": "rewrite its records",
		"deletion blocked on dev":      "deleting dev", "deletion blocked on main": "deleting main", "deletion blocked on ledger": "deleting ledger",
	}
	for name, words := range want {
		r, ok := rows[name]
		if !ok || r.State != doctor.Fail || !strings.Contains(r.Detail, words) || !strings.Contains(r.Next, "run aayu init") || !strings.Contains(r.Next, "Settings, Rules, Rulesets") {
			t.Errorf("%s: %+v, want a failure naming %q", name, r, words)
		}
	}
	if _, ok := rows["review required on dev"]; ok {
		t.Error("solo mode was asked for a review rule the founder could never meet")
	}
}

// TestDoctorNamesAMergeGateCheckNotPinnedToActions: a required check
// pinned to another App is named as that App's to post.
func TestDoctorNamesAMergeGateCheckNotPinnedToActions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	founder := client(t, base, "sandbox-founder")
	newSetUp(t, founder, "fresh")
	all, _, _ := founder.Repositories.GetAllRulesets(ctx, "acme", "fresh", false)
	for _, rs := range all {
		if rs.GetID() == sandbox.RulesetID || strings.HasPrefix(rs.Name, initrepo.GateRulesetName) {
			if _, err := founder.Repositories.DeleteRuleset(ctx, "acme", "fresh", rs.GetID()); err != nil {
				t.Fatal(err)
			}
		}
	}
	postRuleset(t, founder, "fresh", strings.Replace(strings.Replace(todaysRuleset, `"context":"aayudha/merge-gate"`, `"context":"aayudha/merge-gate","integration_id":9001`, 1),
		`"rules":[`, `"rules":[{"type":"non_fast_forward"},{"type":"deletion"},`, 1))
	rep, err := doctor.Check(ctx, founder, "acme", "fresh")
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsByName(rep)
	if r := rows["gate required on main"]; r.State != doctor.Fail || !strings.Contains(r.Detail, "from the App 9001, not GitHub Actions (15368)") {
		t.Errorf("a gate pinned to another App: %+v", r)
	}
	if r := rows["force-push blocked on main"]; r.State != doctor.OK {
		t.Errorf("force-push on main: %+v", r)
	}
}

// TestDoctorNamesAnAgentInTheBypassList: a rule whose only ruleset lets an
// App (the agent's App is one) bypass it does not hold against the agent.
func TestDoctorNamesAnAgentInTheBypassList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	founder := client(t, base, "sandbox-founder")
	postRuleset(t, founder, "fresh", `{"name":"ledger with a bot","target":"branch","enforcement":"active",`+
		`"conditions":{"ref_name":{"include":["refs/heads/ledger"],"exclude":[]}},`+
		`"bypass_actors":[{"actor_id":9001,"actor_type":"Integration","bypass_mode":"always"}],"rules":[{"type":"non_fast_forward"},{"type":"deletion"}]}`)
	rep, err := doctor.Check(ctx, founder, "acme", "fresh")
	if err != nil {
		t.Fatal(err)
	}
	r := rowsByName(rep)["force-push blocked on ledger"]
	if r.State != doctor.Fail || !strings.Contains(r.Detail, "lets the App 9001 bypass it") {
		t.Errorf("an App in the ledger's bypass list: %+v", r)
	}
	// init's own ruleset, with no one in its bypass list, then holds.
	newSetUp(t, founder, "fresh")
	rep, _ = doctor.Check(ctx, founder, "acme", "fresh")
	if r := rowsByName(rep)["force-push blocked on ledger"]; r.State != doctor.OK {
		t.Errorf("after init: %+v", r)
	}
}

// TestDoctorNamesAMissingReviewRuleWithABotIdentity: with a bot identity,
// dev and main need a reviewed pull request; a weaker one is named by
// what it lacks, and the rule init writes passes.
func TestDoctorNamesAMissingReviewRuleWithABotIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{BotIdentity: true, BotApp: true})
	founder := client(t, base, "sandbox-founder")
	dropRulesets(t, founder, "benefits") // the demo's own rulesets hold the review rule init sets
	postRuleset(t, founder, "benefits", `{"name":"weak review","target":"branch","enforcement":"active",`+
		`"conditions":{"ref_name":{"include":["refs/heads/dev"],"exclude":[]}},"bypass_actors":[],`+
		`"rules":[{"type":"pull_request","parameters":{"required_approving_review_count":1,"dismiss_stale_reviews_on_push":false,"require_last_push_approval":false,"require_code_owner_review":false,"required_review_thread_resolution":false}}]}`)
	rep, err := doctor.Check(ctx, founder, "acme", "benefits")
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsByName(rep)
	if r := rows["review required on dev"]; r.State != doctor.Fail || !strings.Contains(r.Detail, "lacks dismissing stale approvals on push, approval of the last push") {
		t.Errorf("a weaker review rule: %+v", r)
	}
	if r := rows["review required on main"]; r.State != doctor.Fail || !strings.Contains(r.Detail, "merge its own pull request") {
		t.Errorf("no review rule: %+v", r)
	}
	newSetUp(t, founder, "benefits")
	rep, _ = doctor.Check(ctx, founder, "acme", "benefits")
	for _, name := range []string{"review required on dev", "review required on main"} {
		if r := rowsByName(rep)[name]; r.State != doctor.OK {
			t.Errorf("after init, %s: %+v", name, r)
		}
	}
}

// TestDoctorPassesWhatInitSetsUp: on the demo once init's rulesets are
// created, every row of the rules passes and doctor fails nothing, solo
// and with a bot identity (whose App has no workflows permission).
func TestDoctorPassesWhatInitSetsUp(t *testing.T) {
	t.Parallel()
	for _, opts := range []sandbox.Options{{}, {BotIdentity: true, BotApp: true}} {
		ctx := context.Background()
		_, _, base := conformance.StartSandbox(t, opts)
		founder := client(t, base, "sandbox-founder")
		oldSetUp(t, founder, "benefits")
		newSetUp(t, founder, "benefits")
		rep, err := doctor.Check(ctx, founder, "acme", "benefits")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Rows {
			if r.State == doctor.Fail {
				t.Errorf("bot identity %v: %s: %s — %s", opts.BotIdentity, r.Name, r.Detail, r.Next)
			}
		}
		rows := rowsByName(rep)
		if r, ok := rows["bot App agent-bot permissions"]; opts.BotIdentity && (!ok || r.State != doctor.OK) {
			t.Errorf("the bot App's row: %+v", r)
		}
	}
}

// TestDoctorNamesABotAppThatCanChangeWorkflows: a bot App created with
// the workflows permission (through GitHub's manifest flow) fails its
// row, naming the permission and where to remove it.
func TestDoctorNamesABotAppThatCanChangeWorkflows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// The manifest flow is a web page, not the API the validator knows.
	srv, err := sandbox.New(sandbox.Options{BotIdentity: true, ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	founder := client(t, base, "sandbox-founder")
	manifest, _ := json.Marshal(map[string]any{"name": "wf-bot", "redirect_url": "http://127.0.0.1:1/callback",
		"default_permissions": map[string]string{"contents": "write", "workflows": "write"}})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(base+"/organizations/acme/settings/apps/new", map[string][]string{"manifest": {string(manifest)}})
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("creating the App: %v %v", resp, err)
	}
	resp.Body.Close()
	cfg, _, _, err := founder.Repositories.GetContents(ctx, "acme", "benefits", ".aayudha/config.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := cfg.GetContent()
	commitOn(t, founder, "benefits", ".aayudha/config.toml", strings.Replace(text, `app_slug = "agent-bot"`, `app_slug = "wf-bot"`, 1))
	rep, err := doctor.Check(ctx, founder, "acme", "benefits")
	if err != nil {
		t.Fatal(err)
	}
	r := rowsByName(rep)["bot App wf-bot permissions"]
	if r.State != doctor.Fail || !strings.Contains(r.Detail, "workflows: write") || !strings.Contains(r.Next, "Workflows: No access") {
		t.Errorf("an App with workflows: %+v", r)
	}
}

// TestDoctorWarnsOfTheWorkflowScopeOnAnyTokenInReach: every token the
// session reaches whose scopes GitHub names include workflow is named by
// where it is; none, and the row passes.
func TestDoctorWarnsOfTheWorkflowScopeOnAnyTokenInReach(t *testing.T) {
	t.Parallel()
	creds := []doctor.Credential{
		{Source: "environment variable GH_TOKEN", Account: "founder", Scopes: []string{"repo", "workflow"}},
		{Source: "gh (hosts.yml) github.com", Account: "founder", Scopes: []string{"repo"}},
		{Source: "environment variable AAYU_BOT_TOKEN", App: true},
		{Source: doctor.OwnSource(ghx.NewToken("x", "the keyring")), Account: "founder", Scopes: []string{"workflow"}}, // the token scopes row's
	}
	r := doctor.WorkflowScopeRow(creds)
	if r.State != doctor.Warn || r.Detail != "the workflow scope, with which a token can change the gates' workflow files, is on: environment variable GH_TOKEN (founder)" || r.Next == "" {
		t.Errorf("one token with workflow: %+v", r)
	}
	if r := doctor.WorkflowScopeRow(creds[1:]); r.State != doctor.OK {
		t.Errorf("no token with workflow: %+v", r)
	}
}

// commitOn writes one file on a repository's main as the founder.
func commitOn(t *testing.T, gh *github.Client, repo, path, body string) {
	t.Helper()
	ctx := context.Background()
	ref, _, err := gh.Git.GetRef(ctx, "acme", repo, "heads/main")
	if err != nil {
		t.Fatal(err)
	}
	parent, _, _ := gh.Git.GetCommit(ctx, "acme", repo, ref.GetObject().GetSHA())
	tree, _, err := gh.Git.CreateTree(ctx, "acme", repo, parent.GetTree().GetSHA(), []*github.TreeEntry{{Path: github.String(path), Mode: github.String("100644"), Type: github.String("blob"), Content: github.String(body)}})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := gh.Git.CreateCommit(ctx, "acme", repo, &github.Commit{Message: github.String("write " + path), Tree: tree, Parents: []*github.Commit{{SHA: parent.SHA}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Git.UpdateRef(ctx, "acme", repo, &github.Reference{Ref: github.String("refs/heads/main"), Object: &github.GitObject{SHA: c.SHA}}, false); err != nil {
		t.Fatal(err)
	}
}
