package sandbox_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

type demoPack struct {
	PR        int    `json:"pr"`
	PRHeadSHA string `json:"pr_head_sha"`
	Goal      string `json:"completion_goal_hash"`
	Criteria  []struct {
		ID       int      `json:"id"`
		Evidence []string `json:"evidence"`
	} `json:"criteria"`
	Artifacts []struct {
		Path   string `json:"path"`
		SHA256 string `json:"sha256"`
		Size   int    `json:"size"`
	} `json:"artifacts"`
}

// packProblems checks a pack folder the way verify does for the parts the
// sandbox stages: bytes against hashes and every criterion with evidence.
func packProblems(files map[string][]byte) (demoPack, []string) {
	var p demoPack
	var problems []string
	if err := json.Unmarshal(files["pack.json"], &p); err != nil {
		return p, []string{"pack.json: " + err.Error()}
	}
	for _, a := range p.Artifacts {
		b, ok := files["artifacts/"+a.Path]
		sum := sha256.Sum256(b)
		if !ok || hex.EncodeToString(sum[:]) != a.SHA256 || len(b) != a.Size {
			problems = append(problems, "artifact "+a.Path+" does not match")
		}
	}
	for _, c := range p.Criteria {
		if len(c.Evidence) == 0 {
			problems = append(problems, "criterion without evidence")
		}
	}
	return p, problems
}

func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		out[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return out
}

// TestMergeGateRuns checks every staged run kind, the 302 download of a
// signed zip, the 410 of an expired one, and the tampered artifact.
func TestMergeGateRuns(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	ctx := context.Background()
	gh := client(t, base, "sandbox-founder")
	runs, _, err := gh.Actions.ListWorkflowRunsByFileName(ctx, "acme", "benefits", sandbox.GateFile, &github.ListWorkflowRunsOptions{Event: "pull_request_target", Status: "success"})
	if err != nil {
		t.Fatal(err)
	}
	// PR 4's qualifying, older-head, expired and tampered runs, PRs 6, 8
	// and 15's, and PR 20's, whose pack holds the screenshot.
	if runs.GetTotalCount() != 8 {
		t.Errorf("successful pull_request_target runs: %d, want 8", runs.GetTotalCount())
	}
	for i := 1; i < len(runs.WorkflowRuns); i++ {
		if runs.WorkflowRuns[i].GetCreatedAt().After(runs.WorkflowRuns[i-1].GetCreatedAt().Time) {
			t.Errorf("runs are not newest first")
		}
	}
	run, _, err := gh.Actions.GetWorkflowRunByID(ctx, "acme", "benefits", s.RunID(sandbox.RunQualifying))
	if err != nil {
		t.Fatal(err)
	}
	if run.GetHeadSHA() != s.BranchSHA("dev") || run.GetHeadBranch() != "dev" {
		t.Errorf("a pull_request_target run carries the base's tip: head_sha %s, dev %s", run.GetHeadSHA(), s.BranchSHA("dev"))
	}
	if len(run.PullRequests) != 1 || run.PullRequests[0].GetNumber() != 4 || run.PullRequests[0].GetHead().GetSHA() != s.HeadSHA(4) {
		t.Errorf("pull_requests[] should name PR 4 at its head: %+v", run.PullRequests)
	}
	own, _, _ := gh.Actions.GetWorkflowRunByID(ctx, "acme", "benefits", s.RunID(sandbox.RunPullRequest))
	if own.GetEvent() != "pull_request" || own.GetHeadSHA() != s.HeadSHA(4) {
		t.Errorf("the PR's own run: event %s head %s", own.GetEvent(), own.GetHeadSHA())
	}
	running, _, _ := gh.Actions.GetWorkflowRunByID(ctx, "acme", "benefits", s.RunID(sandbox.RunInProgress))
	if running.GetStatus() != "in_progress" || running.Conclusion != nil {
		t.Errorf("running run: %s %v", running.GetStatus(), running.Conclusion)
	}

	download := func(situation string) (map[string][]byte, int) {
		arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, "acme", "benefits", s.RunID(situation), nil)
		if err != nil || len(arts.Artifacts) != 1 {
			t.Fatalf("%s artifacts: %v", situation, err)
		}
		one, _, err := gh.Actions.GetArtifact(ctx, "acme", "benefits", arts.Artifacts[0].GetID())
		if err != nil || one.GetName() != arts.Artifacts[0].GetName() || one.GetExpired() != arts.Artifacts[0].GetExpired() {
			t.Errorf("%s: get-artifact disagrees with the run's list: %v, %v", situation, one, err)
		}
		u, resp, err := gh.Actions.DownloadArtifact(ctx, "acme", "benefits", arts.Artifacts[0].GetID(), 1)
		if err != nil {
			return nil, resp.StatusCode
		}
		r, err := http.Get(u.String())
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != 200 {
			t.Fatalf("signed download: %d %s", r.StatusCode, b)
		}
		return unzip(t, b), 302
	}
	files, _ := download(sandbox.RunQualifying)
	p, problems := packProblems(files)
	if len(problems) != 0 || p.PR != 4 || p.PRHeadSHA != s.HeadSHA(4) {
		t.Errorf("qualifying pack: pr %d head %s problems %v", p.PR, p.PRHeadSHA, problems)
	}
	if files, _ := download(sandbox.RunTampered); len(files) > 0 {
		if _, problems := packProblems(files); len(problems) == 0 {
			t.Errorf("the tampered artifact verified")
		}
	}
	if _, status := download(sandbox.RunExpired); status != http.StatusGone {
		t.Errorf("expired artifact download: %d, want 410", status)
	}
	if files, _ := download(sandbox.RunUnverifiedPR); len(files) > 0 {
		if _, problems := packProblems(files); len(problems) == 0 {
			t.Errorf("PR 8's pack verified")
		}
	}
	if resp, err := gh.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "benefits", sandbox.GateFile, github.CreateWorkflowDispatchEventRequest{Ref: "dev"}); err != nil || resp.StatusCode != 204 {
		t.Errorf("dispatch: %v", err)
	}
	if _, err := gh.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "benefits", sandbox.GateFile, github.CreateWorkflowDispatchEventRequest{Ref: "nope"}); statusOf(err) != 422 {
		t.Errorf("dispatch on a missing ref: %v, want 422", err)
	}
	if _, _, err := gh.Actions.ListWorkflowRunsByFileName(ctx, "acme", "benefits", "other.yml", nil); statusOf(err) != 404 {
		t.Errorf("unknown workflow: %v, want 404", err)
	}
}

// TestSignedURLRefusesTokens: the blob URL must be fetched without the
// GitHub token, so a leak shows up in tests.
func TestSignedURLRefusesTokens(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	gh := client(t, base, "sandbox-founder")
	arts, _, _ := gh.Actions.ListWorkflowRunArtifacts(context.Background(), "acme", "benefits", s.RunID(sandbox.RunQualifying), nil)
	u, _, err := gh.Actions.DownloadArtifact(context.Background(), "acme", "benefits", arts.Artifacts[0].GetID(), 1)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", u.String(), nil)
	req.Header.Set("Authorization", "Bearer sandbox-founder")
	resp, _ := http.DefaultClient.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("signed URL with a token: %d, want 400", resp.StatusCode)
	}
	bad := strings.Replace(u.String(), "sig=", "sig=0", 1)
	resp, _ = http.Get(bad)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("tampered signature: %d, want 403", resp.StatusCode)
	}
}
