package sandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestRulesetRoundTripsItsRules: a ruleset created through REST reads
// back with every rule and parameter it was given (integration_id under
// required_status_checks, non_fast_forward, deletion, bypass_actors), and
// GET rules/branches/{branch} lists its rules on the branches it names.
func TestRulesetRoundTripsItsRules(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()})
	gh := client(t, base, sandbox.TokenPrefix+"founder")
	ctx := context.Background()
	body := json.RawMessage(`{"name":"a ledger rule set by hand","target":"branch","enforcement":"active","bypass_actors":[],` +
		`"conditions":{"ref_name":{"include":["refs/heads/ledger"],"exclude":[]}},` +
		`"rules":[{"type":"non_fast_forward"},{"type":"deletion"},{"type":"required_status_checks","parameters":{"strict_required_status_checks_policy":false,"required_status_checks":[{"context":"aayudha/merge-gate","integration_id":15368}]}}]}`)
	req, _ := gh.NewRequest(http.MethodPost, "repos/acme/benefits/rulesets", body)
	var created map[string]any
	if _, err := gh.Do(ctx, req, &created); err != nil {
		t.Fatal(err)
	}
	rs, _, err := gh.Repositories.GetRuleset(ctx, "acme", "benefits", int64(created["id"].(float64)), false)
	if err != nil {
		t.Fatal(err)
	}
	if rs.BypassActors == nil || len(rs.Rules) != 3 || rs.Rules[0].Type != "non_fast_forward" || !strings.Contains(string(*rs.Rules[2].Parameters), `"integration_id":15368`) {
		t.Errorf("read back: %+v", rs)
	}
	// The demo's own ledger ruleset adds its two rules beside these three.
	rules, _, err := gh.Repositories.GetRulesForBranch(ctx, "acme", "benefits", "ledger")
	fromNew := 0
	for _, r := range rules {
		if r.RulesetID == int64(created["id"].(float64)) {
			fromNew++
		}
	}
	if err != nil || fromNew != 3 {
		t.Errorf("ledger's rules: %d from the new ruleset of %+v, %v", fromNew, rules, err)
	}
	if rules, _, _ := gh.Repositories.GetRulesForBranch(ctx, "acme", "benefits", "feature"); len(rules) != 0 {
		t.Errorf("a branch the ruleset does not name has its rules: %+v", rules)
	}
	writer := client(t, base, sandbox.TokenPrefix+"writer")
	req, _ = writer.NewRequest(http.MethodPost, "repos/acme/benefits/rulesets", body)
	if resp, err := writer.Do(ctx, req, nil); err == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a writer created a ruleset: %v", err)
	}
	// GitHub shows who may bypass a ruleset only to those who may edit it.
	for _, id := range []int64{int64(created["id"].(float64)), sandbox.RulesetID} {
		if rs, _, err := writer.Repositories.GetRuleset(ctx, "acme", "benefits", id, false); err != nil || rs.BypassActors != nil {
			t.Errorf("a writer reads ruleset %d's bypass actors: %+v, %v", id, rs, err)
		}
	}
	all, _, err := gh.Repositories.GetAllRulesets(ctx, "acme", "benefits", false)
	if err != nil || len(all) != 3 { // the demo's gate and ledger rulesets, and this one
		t.Errorf("the rulesets listed: %d, %v", len(all), err)
	}
}

// TestAppBySlugShowsItsPermissions: GET /apps/{app_slug} answers a token
// with the App's permissions, and 404 for an App that does not exist.
func TestAppBySlugShowsItsPermissions(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir(), BotApp: true})
	gh := client(t, base, sandbox.TokenPrefix+"founder")
	app, _, err := gh.Apps.Get(context.Background(), sandbox.BotAppSlug)
	if err != nil || app.GetPermissions().GetContents() != "write" {
		t.Fatalf("the bot App: %+v, %v", app, err)
	}
	if _, resp, err := gh.Apps.Get(context.Background(), "no-such-app"); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown App: %v", err)
	}
}
