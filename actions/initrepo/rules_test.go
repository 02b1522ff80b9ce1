package initrepo_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// rulesetNamed is the plan's ruleset of that name (or, where a ruleset
// already holds the name, the free name beside it: "NAME 2"), or fails
// the test.
func rulesetNamed(t *testing.T, p initrepo.Plan, name string) initrepo.RulesetWrite {
	t.Helper()
	for _, w := range p.Rulesets {
		if w.Name == name || strings.HasPrefix(w.Name, name+" ") {
			return w
		}
	}
	t.Fatalf("the plan has no ruleset %q: %+v", name, p.Rulesets)
	return initrepo.RulesetWrite{}
}

// TestInitPlansTheMergeGatePinnedToActions: on acme/fresh, whose ruleset
// requires aayudha/merge-gate by name only (today's init's ruleset), the
// plan names that weakness and creates a ruleset requiring the check from
// GitHub Actions (integration_id 15368), with no force-push and no
// deletion, the admin role its one bypass through pull requests only.
func TestInitPlansTheMergeGatePinnedToActions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	// fresh's earlier set-up holds "aayudha merge gate" (the gate by name
	// only); GitHub keeps ruleset names unique, so this one is "… 2".
	gate := rulesetNamed(t, p, initrepo.GateRulesetName)
	want := `{"bypass_actors":[{"actor_id":5,"actor_type":"RepositoryRole","bypass_mode":"pull_request"}],` +
		`"conditions":{"ref_name":{"exclude":[],"include":["refs/heads/main"]}},"enforcement":"active","name":"aayudha merge gate 2",` +
		`"rules":[{"parameters":{"required_status_checks":[{"context":"aayudha/merge-gate","integration_id":15368}],"strict_required_status_checks_policy":false},"type":"required_status_checks"},` +
		`{"type":"non_fast_forward"},{"type":"deletion"}],"target":"branch"}`
	if gate.Body != want {
		t.Errorf("the gate's ruleset:\n%s\nwant\n%s", gate.Body, want)
	}
	fixes := map[string]string{}
	for _, c := range gate.Fixes {
		fixes[c.Rule] = c.Detail
	}
	if !strings.Contains(fixes[initrepo.RuleGate], "by name only (no integration_id)") || fixes[initrepo.RuleNoForce] == "" || fixes[initrepo.RuleNoDelete] == "" {
		t.Errorf("what the gate's ruleset sets: %v", fixes)
	}
	if _, ok := fixes[initrepo.RuleReview]; ok || strings.Contains(gate.Body, `"type":"pull_request"`) {
		t.Error("solo mode was given a pull request rule: the founder cannot approve their own pull request")
	}
}

// TestInitPlansTheLedgerRuleset: the ledger gets no force-push and no
// deletion, and no one in its bypass list (aayu only appends to it).
func TestInitPlansTheLedgerRuleset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	ledger := rulesetNamed(t, p, initrepo.LedgerRulesetName)
	want := `{"bypass_actors":[],"conditions":{"ref_name":{"exclude":[],"include":["refs/heads/ledger"]}},"enforcement":"active","name":"aayudha ledger",` +
		`"rules":[{"type":"non_fast_forward"},{"type":"deletion"}],"target":"branch"}`
	if ledger.Body != want {
		t.Errorf("the ledger's ruleset:\n%s\nwant\n%s", ledger.Body, want)
	}
	if len(ledger.Fixes) != 2 || !strings.Contains(ledger.Fixes[0].Detail, "rewrite its records") {
		t.Errorf("what the ledger's ruleset sets: %+v", ledger.Fixes)
	}
}

// TestInitAddsTheReviewRuleWithABotIdentity: with [identity] naming the
// bot App, the integration and default branches also need a pull request
// with one approving review, stale approvals dismissed on push and the
// last push approved by someone else.
func TestInitAddsTheReviewRuleWithABotIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{BotIdentity: true})
	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(base + "/")
	// The demo already carries these rules: start from a repository
	// without them.
	for _, id := range []int64{sandbox.RulesetID, sandbox.LedgerRulesetID} {
		if _, err := gh.Repositories.DeleteRuleset(ctx, "acme", "benefits", id); err != nil {
			t.Fatal(err)
		}
	}
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "benefits", Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	gate := rulesetNamed(t, p, initrepo.GateRulesetName)
	var body struct {
		Conditions struct {
			RefName struct{ Include []string } `json:"ref_name"`
		}
		Rules []struct {
			Type       string
			Parameters github.PullRequestRuleParameters
		}
	}
	if err := json.Unmarshal([]byte(gate.Body), &body); err != nil {
		t.Fatal(err)
	}
	if strings.Join(body.Conditions.RefName.Include, " ") != "refs/heads/dev refs/heads/main" {
		t.Errorf("the gate's ruleset covers %v, want dev and main", body.Conditions.RefName.Include)
	}
	var review *github.PullRequestRuleParameters
	for _, r := range body.Rules {
		if r.Type == initrepo.RuleReview {
			review = &r.Parameters
		}
	}
	if review == nil || review.RequiredApprovingReviewCount != 1 || !review.DismissStaleReviewsOnPush || !review.RequireLastPushApproval {
		t.Errorf("the pull request rule: %+v in %s", review, gate.Body)
	}
}

// TestInitCreatesItsRulesetsOnce: an admin's init creates the rulesets
// exactly as shown (read back through REST), after which every rule holds
// and a second init offers none; a writer's plan shows them for an admin
// and Apply writes none.
func TestInitCreatesItsRulesetsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	o := initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder", Gates: true}
	writer := github.NewClient(nil).WithAuthToken("sandbox-writer")
	writer.BaseURL = gh.BaseURL
	wp, err := initrepo.Read(ctx, initrepo.Options{Client: writer, Owner: "acme", Repo: "fresh", Login: "writer", Gates: true})
	if err != nil || len(wp.Rulesets) != 2 || wp.CreatesRulesets() {
		t.Fatalf("a writer's plan: %d rulesets, creates %v, %v", len(wp.Rulesets), wp.CreatesRulesets(), err)
	}
	p, err := initrepo.Read(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := initrepo.Apply(ctx, gh, p)
	// fresh's earlier set-up holds a ruleset named "aayudha merge gate"
	// (the gate by name only): GitHub keeps names unique, so the new one
	// takes the free name beside it.
	if err != nil || strings.Join(res.Rulesets, ",") != "aayudha merge gate 2,aayudha ledger" {
		t.Fatalf("apply: %+v %v", res, err)
	}
	all, _, err := gh.Repositories.GetAllRulesets(ctx, "acme", "fresh", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Rulesets {
		var id int64
		for _, rs := range all {
			if rs.Name == w.Name {
				id = rs.GetID()
			}
		}
		req, _ := gh.NewRequest(http.MethodGet, "repos/acme/fresh/rulesets/"+itoa(id), nil)
		var got map[string]any
		if _, err := gh.Do(ctx, req, &got); err != nil {
			t.Fatalf("reading %s back: %v", w.Name, err)
		}
		var sent map[string]any
		_ = json.Unmarshal([]byte(w.Body), &sent)
		for _, k := range []string{"name", "rules", "conditions", "bypass_actors", "enforcement"} {
			if a, b := mustJSON(got[k]), mustJSON(sent[k]); a != b {
				t.Errorf("%s's %s reads back %s, sent %s", w.Name, k, a, b)
			}
		}
	}
	again, err := initrepo.Read(ctx, o)
	if err != nil || len(again.Rulesets) != 0 {
		t.Fatalf("a second init offers %+v, %v", again.Rulesets, err)
	}
	for _, c := range again.Rules {
		if c.Verdict != initrepo.Holds {
			t.Errorf("%s: %s, %s", c.Name(), c.Verdict, c.Detail)
		}
	}
}

// TestInitIgnoresLocalPacks: init adds /.aayudha/proof/ to .gitignore,
// creating the file or appending the line to what is there, and once the
// line is there it keeps the file as it is: the line is written once.
func TestInitIgnoresLocalPacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	o := initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder", Gates: true}
	commitFile(t, gh, ".gitignore", "bin/\n*.out")
	p, err := initrepo.Read(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	c := changeOf(t, p, ".gitignore")
	if c.Action != initrepo.Update || c.Body != "bin/\n*.out\n\n# Local proof packs: never committed (added by aayu init).\n/.aayudha/proof/\n" {
		t.Fatalf(".gitignore: %s\n%s", c.Action, c.Body)
	}
	commitFile(t, gh, ".gitignore", c.Body) // as merging the set-up pull request would
	again, err := initrepo.Read(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if c := changeOf(t, again, ".gitignore"); c.Action != initrepo.Keep {
		t.Errorf("a second init changes .gitignore again: %s\n%s", c.Action, c.Body)
	}
	got, _ := ghx.ReadFile(ctx, gh, "acme", "fresh", "main", ".gitignore")
	if strings.Count(string(got), initrepo.ProofIgnore) != 1 {
		t.Errorf(".gitignore:\n%s", got)
	}
}

func changeOf(t *testing.T, p initrepo.Plan, path string) initrepo.Change {
	t.Helper()
	for _, c := range p.Changes {
		if c.Path == path {
			return c
		}
	}
	t.Fatalf("the plan does not look at %s: %+v", path, p.Changes)
	return initrepo.Change{}
}

// commitFile writes one file on fresh's main as the founder.
func commitFile(t *testing.T, gh *github.Client, path, body string) {
	t.Helper()
	ctx := context.Background()
	ref, _, err := gh.Git.GetRef(ctx, "acme", "fresh", "heads/main")
	if err != nil {
		t.Fatal(err)
	}
	parent, _, _ := gh.Git.GetCommit(ctx, "acme", "fresh", ref.GetObject().GetSHA())
	tree, _, err := gh.Git.CreateTree(ctx, "acme", "fresh", parent.GetTree().GetSHA(), []*github.TreeEntry{{Path: github.String(path), Mode: github.String("100644"), Type: github.String("blob"), Content: github.String(body)}})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := gh.Git.CreateCommit(ctx, "acme", "fresh", &github.Commit{Message: github.String("write " + path), Tree: tree, Parents: []*github.Commit{{SHA: parent.SHA}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Git.UpdateRef(ctx, "acme", "fresh", &github.Reference{Ref: github.String("refs/heads/main"), Object: &github.GitObject{SHA: c.SHA}}, false); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
