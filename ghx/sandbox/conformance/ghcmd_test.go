package conformance_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// ghJSON runs a gh command with --json fields and decodes its answer.
func (g *ghEnv) ghJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, err := g.gh("founder", nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("gh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGHCommandsReadTheSandbox drives gh's own commands, which read
// through both REST (gh run list) and GraphQL (gh pr view, pr list, issue
// list, issue view, pr checks), and asserts what they show of the demo. Every REST
// response they caused is then validated against GitHub's full
// description.
func TestGHCommandsReadTheSandbox(t *testing.T) {
	// With a bot identity, so gh shows a Bot author as GitHub's GraphQL
	// gives it (the solo demo's pull requests are the founder's).
	g := startGHWith(t, true)
	head4 := g.srv.HeadSHA(sandbox.DemoPRReady)
	dev := g.srv.BranchSHA("dev")

	t.Run("run list", func(t *testing.T) {
		type run struct {
			DatabaseID   int64
			HeadSha      string
			HeadBranch   string
			Status       string
			Conclusion   string
			Event        string
			WorkflowName string
		}
		var runs []run
		g.ghJSON(t, &runs, "run", "list", "-R", "acme/benefits", "--limit", "100", "--json", "databaseId,headSha,headBranch,status,conclusion,event,workflowName")
		byID := map[int64]run{}
		for _, r := range runs {
			byID[r.DatabaseID] = r
		}
		// A pull_request_target run runs on the base: its head is dev's.
		want := map[string]run{
			sandbox.RunQualifying:  {HeadSha: dev, HeadBranch: "dev", Status: "completed", Conclusion: "success", Event: "pull_request_target", WorkflowName: "aayudha merge gate"},
			sandbox.RunFailed:      {HeadSha: dev, HeadBranch: "dev", Status: "completed", Conclusion: "failure", Event: "pull_request_target", WorkflowName: "aayudha merge gate"},
			sandbox.RunInProgress:  {HeadSha: dev, HeadBranch: "dev", Status: "in_progress", Event: "pull_request_target", WorkflowName: "aayudha merge gate"},
			sandbox.RunPullRequest: {HeadSha: head4, HeadBranch: "story/3-remaining-deductible", Status: "completed", Conclusion: "success", Event: "pull_request", WorkflowName: "aayudha merge gate"},
		}
		for situation, w := range want {
			id := g.srv.RunID(situation)
			got, ok := byID[id]
			w.DatabaseID = id
			if !ok || got != w {
				t.Errorf("%s (run %d): gh shows %+v, want %+v", situation, id, got, w)
			}
		}

		var gate []run
		g.ghJSON(t, &gate, "run", "list", "-R", "acme/benefits", "--workflow", sandbox.GateFile, "--limit", "3", "--json", "databaseId,workflowName")
		if len(gate) != 3 {
			t.Errorf("--workflow %s --limit 3: %d runs", sandbox.GateFile, len(gate))
		}
	})

	t.Run("pr view", func(t *testing.T) {
		var pr struct {
			Number      int
			Title       string
			State       string
			HeadRefName string
			HeadRefOid  string
			BaseRefName string
			IsDraft     bool
			Author      struct{ Login string }
			Labels      []struct{ Name string }
		}
		g.ghJSON(t, &pr, "pr", "view", "4", "-R", "acme/benefits", "--json", "number,title,state,headRefName,headRefOid,baseRefName,isDraft,author,labels")
		if pr.Number != 4 || pr.State != "OPEN" || pr.HeadRefOid != head4 || pr.BaseRefName != "dev" ||
			pr.HeadRefName != "story/3-remaining-deductible" || pr.IsDraft || pr.Title != "Show the remaining deductible" {
			t.Errorf("gh pr view 4: %+v", pr)
		}
		// gh names a GitHub App's bot app/NAME, as github.com's GraphQL
		// gives the Bot's login without [bot].
		if pr.Author.Login != "app/"+strings.TrimSuffix(sandbox.BotLogin, "[bot]") {
			t.Errorf("gh pr view 4: author %q", pr.Author.Login)
		}

		var merged struct {
			State       string
			MergedAt    string
			MergeCommit struct{ Oid string }
			Labels      []struct{ Name string }
		}
		g.ghJSON(t, &merged, "pr", "view", strconv.Itoa(sandbox.DemoPRAudit), "-R", "acme/benefits", "--json", "state,mergedAt,mergeCommit,labels")
		if merged.State != "MERGED" || merged.MergedAt == "" || len(merged.MergeCommit.Oid) != 40 || len(merged.Labels) != 1 || merged.Labels[0].Name != "aayu:audit" {
			t.Errorf("gh pr view %d: %+v", sandbox.DemoPRAudit, merged)
		}
	})

	t.Run("pr list", func(t *testing.T) {
		var prs []struct {
			Number      int
			State       string
			BaseRefName string
		}
		g.ghJSON(t, &prs, "pr", "list", "-R", "acme/benefits", "--state", "all", "--json", "number,state,baseRefName")
		got := map[int]string{}
		for _, p := range prs {
			got[p.Number] = p.State + " into " + p.BaseRefName
		}
		want := map[int]string{4: "OPEN into dev", 6: "OPEN into dev", 8: "OPEN into dev", 10: "MERGED into dev", 12: "MERGED into dev", 15: "MERGED into dev", 18: "OPEN into dev", 20: "OPEN into dev"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("gh pr list --state all: %v, want %v", got, want)
		}
	})

	t.Run("issue list", func(t *testing.T) {
		var issues []struct {
			Number int
			State  string
			Labels []struct{ Name, Color string }
		}
		g.ghJSON(t, &issues, "issue", "list", "-R", "acme/benefits", "--state", "all", "--limit", "100", "--json", "number,state,labels")
		got := map[int]string{}
		for _, is := range issues {
			var names []string
			for _, l := range is.Labels {
				if l.Color == "" {
					t.Errorf("issue %d: label %s has no color", is.Number, l.Name)
				}
				names = append(names, l.Name)
			}
			got[is.Number] = is.State + " " + strings.Join(names, ",")
		}
		for n, w := range map[int]string{3: "OPEN type:story,status:building,aayu:lease", 11: "OPEN type:bug", 14: "CLOSED type:story,status:merged"} {
			if got[n] != w {
				t.Errorf("gh issue list: #%d is %q, want %q", n, got[n], w)
			}
		}
		if _, ok := got[4]; ok {
			t.Error("gh issue list shows pull request #4 as an issue")
		}
	})

	t.Run("issue view", func(t *testing.T) {
		var is struct {
			Number int
			State  string
			Title  string
			Author struct{ Login, Name string }
			Labels []struct{ Name string }
		}
		g.ghJSON(t, &is, "issue", "view", strconv.Itoa(sandbox.DemoStoryReady), "-R", "acme/benefits", "--json", "number,state,title,author,labels")
		if is.Number != sandbox.DemoStoryReady || is.State != "OPEN" || is.Title != "Story: show the remaining deductible" ||
			is.Author.Login != "founder" || is.Author.Name != "Demo Founder" || len(is.Labels) == 0 || is.Labels[0].Name != "type:story" {
			t.Errorf("gh issue view %d: %+v", sandbox.DemoStoryReady, is)
		}
	})

	t.Run("pr checks", func(t *testing.T) {
		// Another workflow's job failed on PR 4's head: gh shows it beside
		// the gate's statuses and fails, and --required keeps only what the
		// base's ruleset requires (aayudha/merge-gate).
		if _, err := g.srv.ReportCheckRun(head4, "tests", "failure"); err != nil {
			t.Fatal(err)
		}
		out, err := g.gh("founder", nil, "pr", "checks", "4", "-R", "acme/benefits")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("gh pr checks 4 with a failing check: %v, want exit code 1", err)
		}
		// Not a terminal: one line a check, NAME\tSTATE\tELAPSED\tURL.
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			f := strings.Split(line, "\t")
			if len(f) >= 2 {
				got[f[0]] = f[1]
			}
		}
		want := map[string]string{"aayudha/inspect": "pass", "aayudha/merge-gate": "pass", "tests": "fail"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("gh pr checks 4 shows %v, want %v\n%s", got, want, out)
		}

		req, err := g.gh("founder", nil, "pr", "checks", "4", "-R", "acme/benefits", "--required")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(req, "aayudha/merge-gate\tpass") || strings.Count(strings.TrimSpace(req), "\n") != 0 {
			t.Errorf("gh pr checks 4 --required shows:\n%s", req)
		}
	})

	validateFull(t, g.rec.all())
}
