package sandbox_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestCheckRunsAreListedForTheHeadSHA: a check run recorded on a commit is
// listed by the Checks API for that commit (by sha or by branch), in a
// check suite of GitHub Actions, readable by id, and absent from other
// commits; the responses validate against GitHub's description.
func TestCheckRunsAreListedForTheHeadSHA(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-reader")
	dev := s.BranchSHA("dev")
	tests, err := s.ReportCheckRun(dev, "tests", "failure")
	if err != nil {
		t.Fatal(err)
	}
	lint, _ := s.ReportCheckRun("dev", "lint", "skipped")

	for _, ref := range []string{dev, "dev"} {
		list, _, err := gh.Checks.ListCheckRunsForRef(ctx, "acme", "benefits", ref, nil)
		if err != nil {
			t.Fatalf("listing check runs for %s: %v", ref, err)
		}
		if list.GetTotal() != 2 || len(list.CheckRuns) != 2 {
			t.Fatalf("check runs for %s: %d, want 2", ref, list.GetTotal())
		}
		byName := map[string]*github.CheckRun{}
		for _, cr := range list.CheckRuns {
			byName[cr.GetName()] = cr
		}
		cr := byName["tests"]
		if cr.GetID() != tests || cr.GetHeadSHA() != dev || cr.GetStatus() != "completed" || cr.GetConclusion() != "failure" ||
			cr.GetApp().GetSlug() != "github-actions" || cr.CompletedAt == nil || cr.GetCheckSuite().GetID() == 0 {
			t.Errorf("the failing check run reads %+v", cr)
		}
		if byName["lint"].GetID() != lint || byName["lint"].GetConclusion() != "skipped" {
			t.Errorf("the skipped check run reads %+v", byName["lint"])
		}
	}

	only, _, err := gh.Checks.ListCheckRunsForRef(ctx, "acme", "benefits", dev, &github.ListCheckRunsOptions{CheckName: github.String("lint")})
	if err != nil || only.GetTotal() != 1 || only.CheckRuns[0].GetName() != "lint" {
		t.Errorf("check_name=lint: %v, %+v", err, only)
	}
	other, _, err := gh.Checks.ListCheckRunsForRef(ctx, "acme", "benefits", s.HeadSHA(sandbox.DemoPRReady), nil)
	if err != nil || other.GetTotal() != 0 {
		t.Errorf("another commit lists %d check runs (%v), want none", other.GetTotal(), err)
	}

	one, _, err := gh.Checks.GetCheckRun(ctx, "acme", "benefits", tests)
	if err != nil || one.GetName() != "tests" || one.GetConclusion() != "failure" {
		t.Errorf("check-runs/%d: %v, %+v", tests, err, one)
	}
	if _, resp, err := gh.Checks.GetCheckRun(ctx, "acme", "benefits", 1); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown check run: %v, want 404", err)
	}

	// The seeded gate runs on dev's tip each report in a suite of their
	// own (the run's check_suite_id), besides the two staged here.
	runs, _, err := gh.Actions.ListRepositoryWorkflowRuns(ctx, "acme", "benefits", &github.ListWorkflowRunsOptions{HeadSHA: dev, ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	seeded := map[int64]bool{}
	for _, run := range runs.WorkflowRuns {
		seeded[run.GetCheckSuiteID()] = true
	}
	suites, _, err := gh.Checks.ListCheckSuitesForRef(ctx, "acme", "benefits", dev, &github.ListCheckSuiteOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil || suites.GetTotal() != 2+len(seeded) || len(seeded) == 0 {
		t.Fatalf("check suites on dev: %v, %d, want 2 and one per seeded workflow run (%d)", err, suites.GetTotal(), len(seeded))
	}
	for _, cs := range suites.CheckSuites {
		if cs.GetHeadSHA() != dev || cs.GetApp().GetSlug() != "github-actions" {
			t.Errorf("check suite %+v", cs)
		}
		delete(seeded, cs.GetID())
	}
	if len(seeded) != 0 {
		t.Errorf("seeded runs whose check suite is not listed: %v", seeded)
	}
	for _, cs := range suites.CheckSuites[:2] {
		if cs.GetStatus() != "completed" {
			t.Errorf("check suite %+v", cs)
		}
	}
	if got := suites.CheckSuites[0].GetConclusion(); got != "skipped" {
		t.Errorf("the newest suite (lint) concludes %q, want skipped", got)
	}
	named, _, _ := gh.Checks.ListCheckSuitesForRef(ctx, "acme", "benefits", dev, &github.ListCheckSuiteOptions{CheckName: github.String("tests")})
	if named.GetTotal() != 1 || named.CheckSuites[0].GetConclusion() != "failure" {
		t.Errorf("suites holding a check named tests: %+v", named)
	}
}

// TestStatusCheckRollupFailsOnAFailingCheckRun: GraphQL's rollup on a
// commit carries check runs beside statuses, and one failing check run
// makes it FAILURE even when every status is green; skipped counts green.
func TestStatusCheckRollupFailsOnAFailingCheckRun(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	dev := s.BranchSHA("dev")
	q := `query($sha: GitObjectID!) { repository(owner: "acme", name: "benefits") { object(oid: $sha) { ... on Commit {
	  statusCheckRollup { state contexts(first: 10) { totalCount checkRunCount statusContextCount nodes {
	    __typename
	    ... on CheckRun { name status conclusion checkSuite { app { slug } workflowRun { databaseId } } }
	    ... on StatusContext { context state } } } } } } } }`
	rollup := func() map[string]any {
		t.Helper()
		code, _, out := graphql(t, base, "sandbox-reader", q, map[string]any{"sha": dev})
		if code != http.StatusOK || out["errors"] != nil {
			t.Fatalf("status %d, errors %v", code, out["errors"])
		}
		r, _ := out["data"].(map[string]any)["repository"].(map[string]any)["object"].(map[string]any)["statusCheckRollup"].(map[string]any)
		return r
	}
	if r := rollup(); r != nil {
		t.Fatalf("a commit with no checks has a rollup: %v", r)
	}
	if _, err := s.ReportCheckRun(dev, "lint", "skipped"); err != nil {
		t.Fatal(err)
	}
	if r := rollup(); r["state"] != "SUCCESS" {
		t.Errorf("a skipped check alone rolls up to %v, want SUCCESS", r["state"])
	}
	if _, err := s.ReportCheckRun(dev, "tests", "failure"); err != nil {
		t.Fatal(err)
	}
	r := rollup()
	ctxs := r["contexts"].(map[string]any)
	if r["state"] != "FAILURE" || ctxs["checkRunCount"] != float64(2) || ctxs["totalCount"] != float64(2) {
		t.Errorf("rollup with a failing check run: %v", r)
	}
	var sawFailure bool
	for _, n := range ctxs["nodes"].([]any) {
		n := n.(map[string]any)
		if n["__typename"] != "CheckRun" {
			t.Errorf("a node of type %v where only check runs exist", n["__typename"])
			continue
		}
		if n["name"] == "tests" && n["conclusion"] == "FAILURE" && n["status"] == "COMPLETED" &&
			n["checkSuite"].(map[string]any)["app"].(map[string]any)["slug"] == "github-actions" {
			sawFailure = true
		}
	}
	if !sawFailure {
		t.Errorf("the failing check run is not among the rollup's contexts: %v", ctxs["nodes"])
	}
}
