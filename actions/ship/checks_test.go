package ship

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// TestShipRefusesAFailingCheckRunOfAnotherWorkflow: the project's own
// tests, another workflow's check run on the head, failed; ship names it
// and asks nobody, though no ruleset requires it.
func TestShipRefusesAFailingCheckRunOfAnotherWorkflow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := sandbox.DemoPRReady
	if _, err := f.srv.ReportCheckRun(f.srv.HeadSHA(pr), "go test ./...", "failure"); err != nil {
		t.Fatal(err)
	}
	before := f.snapshot(pr)
	cfg := f.config("founder")
	cfg.SoloBypass = true
	asked := 0
	cfg.Confirm = func(context.Context, Plan) (bool, error) { asked++; return true, nil }
	res, events, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged {
		t.Fatalf("ship past a failing check run: err %v, exit %d, merged %v", err, res.ExitCode, res.Merged)
	}
	if !hasWords(res.Refusals, `the check run "go test ./..." of github-actions (failure) failed on head`) {
		t.Errorf("the refusal does not name the failing check run: %q", res.Refusals)
	}
	if e := lastEvent(events)[GatePR]; e.State != Refused {
		t.Errorf("the pull request's gate: %+v", e)
	}
	if asked != 0 {
		t.Error("a refused ship asked for a confirmation")
	}
	f.assertUnchanged(before, pr)
}

// TestShipRefusesAMissingRequiredCheck: the base's ruleset requires the
// merge gate; a head it never reported on is refused before anyone is
// asked, naming the rule.
func TestShipRefusesAMissingRequiredCheck(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-no-gate", map[string]string{"NOTE.md": "a note\n"})
	res, _, err := f.ship(f.config("founder"), pr)
	if err != nil || res.ExitCode != ExitRefused {
		t.Fatalf("err %v, exit %d", err, res.ExitCode)
	}
	if !hasWords(res.Refusals, `the check "aayudha/merge-gate", required on dev by a ruleset, has not reported on head`) {
		t.Errorf("refusals %q", res.Refusals)
	}
}

// TestShipSaysWhichRuleRefusedTheMerge: the merge gate turns red after
// ship checked it (a re-run failed); GitHub's 405 "Repository rule
// violations found" is shown in words naming the rule, nothing merged.
func TestShipSaysWhichRuleRefusedTheMerge(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	cfg := f.config("writer") // not a bypass actor of the ruleset
	f.review("founder", pr, "APPROVE", "")
	// The re-run reports as the gate's runs do, with its job's token
	// (GitHub Actions): the ruleset counts only that App's status.
	tok, endJob := f.srv.WorkflowToken(f.srv.RunID(sandbox.RunQualifying), map[string]string{"statuses": "write"})
	defer endJob()
	rerun, err := ghx.NewClient(ghx.ClientOptions{APIURL: f.base + "/", Token: ghx.NewToken(tok, "test")})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Confirm = func(ctx context.Context, p Plan) (bool, error) {
		_, _, err := rerun.Repositories.CreateStatus(ctx, owner, repo, head, &github.RepoStatus{
			State: github.String("failure"), Context: github.String(sandbox.GateCheck), Description: github.String("re-run: the pack does not verify")})
		return err == nil, err
	}
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.Merged || res.ExitCode != ExitRefused {
		t.Fatalf("err %v, merged %v, exit %d, refusals %q", err, res.Merged, res.ExitCode, res.Refusals)
	}
	if !hasWords(res.Refusals, `GitHub refused the merge: a ruleset on dev requires what head`) ||
		!hasWords(res.Refusals, `Required status check "aayudha/merge-gate" is failing.`) {
		t.Errorf("the 405 in words: %q", res.Refusals)
	}
}

// TestShipRefusesARepositoryWithoutSquashMerges: ship merges only by
// squash; a repository that turned squash off is refused before anyone is
// asked, with the setting to change.
func TestShipRefusesARepositoryWithoutSquashMerges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, _, err := f.client("founder").Repositories.Edit(context.Background(), owner, repo,
		&github.Repository{AllowMergeCommit: github.Bool(true), AllowSquashMerge: github.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	cfg := f.config("founder")
	cfg.SoloBypass = true
	res, _, err := f.ship(cfg, sandbox.DemoPRReady)
	if err != nil || res.ExitCode != ExitRefused || res.Merged {
		t.Fatalf("err %v, exit %d", err, res.ExitCode)
	}
	if !hasWords(res.Refusals, "does not allow squash merges (it allows merge commits)") || !hasWords(res.Refusals, "Allow squash merging") {
		t.Errorf("refusals %q", res.Refusals)
	}
}

// TestOnProofInspectNotFromTheGateGrantsNothing: an aayudha/inspect
// success posted by sandbox-writer replaces the gate's as the newest; merge
// on proof then grants nothing and names the status.
func TestOnProofInspectNotFromTheGateGrantsNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := sandbox.DemoPRReady
	f.baseConfig(`proof = false`, `proof = true`)
	if _, _, err := f.client("writer").Repositories.CreateStatus(context.Background(), owner, repo, f.srv.HeadSHA(pr), &github.RepoStatus{
		State: github.String("success"), Context: github.String(InspectContext), Description: github.String("rung A: looks fine")}); err != nil {
		t.Fatal(err)
	}
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged {
		t.Fatalf("writer's inspect merged on proof: err %v, exit %d", err, res.ExitCode)
	}
	e := lastEvent(events)[GateHumanPass]
	if !hasWords(e.Detail, `the status "aayudha/inspect" posted by @writer (success) grants nothing: merge on proof takes inspect's judgement only from the merge gate's own run`) {
		t.Errorf("the human pass does not name the status: %q", e.Detail)
	}
}

// TestFromGateRunBindsInspectToTheGatesRun: a status is inspect's judgement
// only from github-actions[bot] with the gate's run as target; a check run
// only from GitHub Actions in that run. Another workflow's run, or the
// gate's run for another pull request (another run id), grants nothing.
func TestFromGateRunBindsInspectToTheGatesRun(t *testing.T) {
	t.Parallel()
	const runPath = "/acme/benefits/actions/runs/4242"
	for _, tc := range []struct {
		name string
		c    checks.Check
		want bool
	}{
		{"the gate's status", checks.FromStatus(InspectContext, "success", actionsBot, "https://github.com/acme/benefits/actions/runs/4242"), true},
		{"the gate's check run", checks.FromCheckRun(InspectContext, "completed", "success", actionsApp, "https://github.com/acme/benefits/actions/runs/4242/job/7"), true},
		{"posted by sandbox-writer", checks.FromStatus(InspectContext, "success", "writer", "https://github.com/acme/benefits/actions/runs/4242"), false},
		{"another workflow's run", checks.FromStatus(InspectContext, "success", actionsBot, "https://github.com/acme/benefits/actions/runs/999"), false},
		{"the gate's run for another PR", checks.FromStatus(InspectContext, "success", actionsBot, "https://github.com/acme/benefits/actions/runs/42420"), false},
		{"another app's check run", checks.FromCheckRun(InspectContext, "completed", "success", "some-app", "https://github.com/acme/benefits/actions/runs/4242/job/7"), false},
		{"no target", checks.FromStatus(InspectContext, "success", actionsBot, ""), false},
	} {
		if got := checks.InspectFromGate(tc.c, runPath); got != tc.want {
			t.Errorf("%s: from the gate's run = %v, want %v", tc.name, got, tc.want)
		}
	}
	// With no run to bind to, nothing is the gate's: not even the
	// github-actions[bot] status that has no target either.
	if checks.InspectFromGate(checks.FromStatus(InspectContext, "success", actionsBot, ""), "") {
		t.Error("a status with no target counted as the gate's when no run path is known")
	}
}

// TestOnProofRefusesARedStatus: merge on proof needs the pack's floors
// holding, the head held to the one green rule (checks.Rule) as ship's
// first gate holds it (one red status refuses, so does a required check
// still running or never reported; a check nobody requires may still be
// running), and the gate's own inspect green at a rung in proof_rungs, the
// rung read as a whole word ("rung A:" or "rung A ", never "rung AB"); an
// inspect still running grants nothing, though no rule requires it. When
// GitHub does not answer which checks the base requires, nothing merges on
// proof: the error is returned, never judged as "none required".
func TestOnProofRefusesARedStatus(t *testing.T) {
	t.Parallel()
	const unreadable = "(the rules answer 500)"
	const inspectA = `{"context":"aayudha/inspect","state":"success","description":"rung A: converged","target_url":"https://github.com/acme/benefits/actions/runs/77","creator":{"login":"github-actions[bot]"}}`
	inspectAs := func(summary string) string { return strings.Replace(inspectA, "rung A: converged", summary, 1) }
	const lint = `{"context":"lint","state":"%s","creator":{"login":"writer"}}`
	for _, tc := range []struct {
		name       string
		statuses   []string
		required   string // the context dev's ruleset requires, "" for none, or unreadable
		floorsHold bool
		rungs      []string
		want       bool
		off        bool // [autonomy] proof = false
	}{
		{"the gate's inspect at an allowed rung", []string{inspectA}, "", true, []string{"A"}, true, false},
		{"a rung followed by a space", []string{inspectAs("rung A converged")}, "", true, []string{"A"}, true, false},
		{"one red status", []string{inspectA, fmt.Sprintf(lint, "failure")}, "", true, []string{"A"}, false, false},
		{"an errored status", []string{inspectA, fmt.Sprintf(lint, "error")}, "", true, []string{"A"}, false, false},
		{"a check nobody requires still running", []string{inspectA, fmt.Sprintf(lint, "pending")}, "", true, []string{"A"}, true, false},
		{"a required check still running", []string{inspectA, fmt.Sprintf(lint, "pending")}, "lint", true, []string{"A"}, false, false},
		{"a required check never reported", []string{inspectA}, "lint", true, []string{"A"}, false, false},
		{"a required check green", []string{inspectA, fmt.Sprintf(lint, "success")}, "lint", true, []string{"A"}, true, false},
		{"the floors do not hold", []string{inspectA}, "", false, []string{"A"}, false, false},
		{"inspect at a rung not allowed", []string{inspectA}, "", true, []string{"B"}, false, false},
		{"a rung only sharing the allowed one's first letter", []string{inspectAs("rung AB: converged")}, "", true, []string{"A"}, false, false},
		{"a rung word without its colon or space", []string{inspectAs("rung A")}, "", true, []string{"A"}, false, false},
		{"inspect not green", []string{strings.Replace(inspectA, `"state":"success"`, `"state":"failure"`, 1)}, "", true, []string{"A"}, false, false},
		{"inspect still running", []string{strings.Replace(inspectA, `"state":"success"`, `"state":"pending"`, 1)}, "", true, []string{"A"}, false, false},
		{"merge on proof turned off", []string{inspectA}, "", true, []string{"A"}, false, true},
		{"the required checks unreadable", []string{inspectA}, unreadable, true, []string{"A"}, false, false},
		{"no inspect at all", []string{fmt.Sprintf(lint, "success")}, "", true, []string{"A"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gh := func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasSuffix(r.URL.Path, "/status"):
					fmt.Fprintf(w, `{"state":"success","sha":"h","total_count":%d,"statuses":[%s]}`, len(tc.statuses), strings.Join(tc.statuses, ","))
				case strings.HasSuffix(r.URL.Path, "/check-runs"):
					fmt.Fprint(w, `{"total_count":0,"check_runs":[]}`)
				case strings.HasSuffix(r.URL.Path, "/rules/branches/dev") && tc.required == unreadable:
					w.WriteHeader(http.StatusInternalServerError)
					fmt.Fprint(w, `{"message":"no"}`)
				case strings.HasSuffix(r.URL.Path, "/rules/branches/dev") && tc.required != "":
					fmt.Fprintf(w, `[{"type":"required_status_checks","parameters":{"required_status_checks":[{"context":%q}]}}]`, tc.required)
				case strings.HasSuffix(r.URL.Path, "/rules/branches/dev"):
					fmt.Fprint(w, `[]`)
				default:
					http.NotFound(w, r)
				}
			}
			c := github.NewClient(nil)
			c.BaseURL = mustURL(t, startFake(t, http.HandlerFunc(gh))+"/")
			r := &run{ctx: context.Background(), cfg: Config{Client: c, Owner: owner, Repo: repo}, pr: 4, target: targetFacts{head: "h", baseRef: "dev"},
				evidence: evidenceFacts{base: &basePolicy{policy: pass.Policy{Proof: !tc.off, ProofRungs: tc.rungs}},
					pack: &gatePack{run: &github.WorkflowRun{ID: github.Int64(77), HTMLURL: github.String("https://github.com/acme/benefits/actions/runs/77")},
						report: &proof.Report{FloorsHold: tc.floorsHold}}}}
			ok, err := r.onProof()
			if tc.required == unreadable {
				if ok || err == nil || !strings.Contains(err.Error(), "reading the checks dev requires") {
					t.Errorf("on proof %v (%v) with the required checks unread; want an error, no merge", ok, err)
				}
				return
			}
			if err != nil || ok != tc.want {
				t.Errorf("on proof %v (%v), want %v", ok, err, tc.want)
			}
		})
	}
}

func startFake(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestShipPassesTheRulesetAsAWriter: the ruleset requiring the merge gate
// holds writer (no bypass), and ship merges PR 4, whose gate is green,
// through it.
func TestShipPassesTheRulesetAsAWriter(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	pr := sandbox.DemoPRReady
	f.review("founder", pr, "APPROVE", "")
	res, _, err := f.ship(f.config("writer"), pr)
	if err != nil || res.ExitCode != ExitShipped || !res.Merged {
		t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
}
