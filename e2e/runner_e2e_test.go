package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// TestAgentPushRunsTheGate: an agent clones the demo over smart HTTP as
// sandbox-agent-bot, pushes a story branch and opens a pull request "Refs
// #3" through the REST API; soon (within e2eWait) the sandbox's runner has a
// successful pull_request_target run of the base branch's merge gate bound
// to that head — its tests, pack and comment jobs each a check run on the
// base's tip — whose aayudha-pack (built from the tests job's aayudha-raw)
// names it, and github-actions[bot] set the head's status and wrote the
// gate's comment; aayu ship of that pull request then passes its pack gate.
func TestAgentPushRunsTheGate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the gate's go test")
	}
	dir := t.TempDir()
	_, base, logs := runnerSandbox(t, sandbox.Options{StateDir: filepath.Join(dir, "state"), Device: &sandbox.DeviceOptions{Interval: 0, Expiry: 5 * time.Minute}})

	work := filepath.Join(dir, "work")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "http.extraHeader=Authorization: Bearer sandbox-agent-bot"}, args...)...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agent", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=agent", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	_ = os.MkdirAll(work, 0o755)
	git("clone", "-q", base+"/acme/benefits.git", ".")
	git("checkout", "-q", "-b", "story/3-agent-note", "origin/story/3-remaining-deductible")
	if err := os.WriteFile(filepath.Join(work, "NOTES.md"), []byte("A note from the agent.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "NOTES.md")
	git("commit", "-q", "-m", "Add a note")
	head := git("rev-parse", "HEAD")
	git("push", "-q", "origin", "story/3-agent-note")

	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(base + "/")
	ctx := context.Background()
	agent := github.NewClient(nil).WithAuthToken("sandbox-agent-bot")
	agent.BaseURL = gh.BaseURL
	opened, _, err := agent.PullRequests.Create(ctx, "acme", "benefits", &github.NewPullRequest{
		Title: github.String("Remaining deductible, with a note"), Head: github.String("story/3-agent-note"),
		Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil {
		t.Fatal(err)
	}
	pr := opened.GetNumber()
	var run *github.WorkflowRun
	for deadline := time.Now().Add(e2eWait); run == nil && time.Now().Before(deadline); time.Sleep(time.Second) {
		runs, _, err := gh.Actions.ListWorkflowRunsByFileName(ctx, "acme", "benefits", sandbox.GateFile, &github.ListWorkflowRunsOptions{Event: "pull_request_target"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs.WorkflowRuns {
			if len(r.PullRequests) == 1 && r.PullRequests[0].GetHead().GetSHA() == head && r.GetStatus() == "completed" {
				run = r
			}
		}
	}
	if run == nil || run.GetConclusion() != "success" {
		t.Fatalf("no successful pull_request_target run for %s within e2eWait: %v\n%s", head, run, logs.String())
	}
	// The tests job kept the raw outputs; the pack job built the pack.
	arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, "acme", "benefits", run.GetID(), nil)
	byName := map[string]int64{}
	if err == nil {
		for _, a := range arts.Artifacts {
			byName[a.GetName()] = a.GetID()
		}
	}
	if err != nil || len(byName) != 3 || byName["aayudha-raw"] == 0 || byName["aayudha-pack"] == 0 || byName["aayudha-inspect"] == 0 {
		t.Fatalf("artifacts: %v %v", byName, err)
	}
	// Each job is a check run on the run's head_sha, the base's tip.
	checks, _, err := gh.Checks.ListCheckRunsForRef(ctx, "acme", "benefits", run.GetHeadSHA(), &github.ListCheckRunsOptions{Filter: github.String("all")})
	if err != nil {
		t.Fatal(err)
	}
	concluded := map[string]string{}
	for _, c := range checks.CheckRuns {
		if c.GetCheckSuite().GetID() == run.GetCheckSuiteID() {
			concluded[c.GetName()] = c.GetConclusion()
		}
	}
	if fmt.Sprint(concluded) != "map[aayudha/comment:success aayudha/inspect:success aayudha/pack:success aayudha/tests:success]" {
		t.Errorf("the run's check runs on %s: %v", run.GetHeadSHA(), concluded)
	}
	u, _, err := gh.Actions.DownloadArtifact(ctx, "acme", "benefits", byName["aayudha-pack"], 0)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	zb, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		t.Fatal(err)
	}
	var pack struct {
		PR   int    `json:"pr"`
		Head string `json:"pr_head_sha"`
	}
	for _, f := range zr.File {
		if f.Name == "pack.json" {
			rc, _ := f.Open()
			_ = json.NewDecoder(rc).Decode(&pack)
			rc.Close()
		}
	}
	if pack.PR != pr || pack.Head != head {
		t.Fatalf("the artifact's pack.json names #%d at %s, want #%d at %s", pack.PR, pack.Head, pr, head)
	}

	statuses, _, err := gh.Repositories.ListStatuses(ctx, "acme", "benefits", head, nil)
	if err != nil || len(statuses) == 0 || statuses[0].GetContext() != "aayudha/merge-gate" || statuses[0].GetState() != "success" ||
		statuses[0].GetCreator().GetLogin() != sandbox.ActionsBotLogin {
		t.Errorf("the head's status: %v %v", statuses, err)
	}
	// inspect's judgement, from the same run, before the gate's verdict.
	if len(statuses) < 2 || statuses[1].GetContext() != "aayudha/inspect" || statuses[1].GetState() != "pending" ||
		!strings.HasPrefix(statuses[1].GetDescription(), "human rung: ") || statuses[1].GetTargetURL() != statuses[0].GetTargetURL() {
		t.Errorf("no human-rung aayudha/inspect from the gate's run on the head: %v", statuses)
	}
	// The comment job posted the gate's one comment, naming pack.json's hash.
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "benefits", pr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gate string
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = c.GetBody()
		}
	}
	if !strings.Contains(gate, head[:7]) && !strings.Contains(gate, head) {
		t.Errorf("no gate comment for %s on #%d:\n%s\n%s", head, pr, gate, logs.String())
	}
	// It names the attestation that signs the pack, checked against the
	// sandbox's Sigstore before it says so: the pack job's attestation id
	// and URL came to the comment job as job outputs.
	if !attestedLine.MatchString(gate) || !strings.Contains(gate, "signed by `https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/dev` (`pull_request_target`") ||
		!strings.Contains(gate, "]("+base+"/acme/benefits/attestations/") {
		t.Errorf("the gate comment does not name the attestation of the pack:\n%s\n%s", gate, logs.String())
	}

	// The person's aayu trusts the sandbox's Sigstore root (written beside
	// its state), as it would their GitHub Enterprise's.
	trustSandboxSigstore(t, filepath.Join(dir, "home"), filepath.Join(dir, "state", sandbox.TrustedRootFile))
	a := startAayu(t, map[string]string{"HOME": filepath.Join(dir, "home"), "AAYU_GITHUB_TOKEN": "sandbox-founder"},
		"--api-url", base+"/", "--oauth-url", base, "--repo", "acme/benefits", "--plain", "ship", fmt.Sprint(pr), "--solo-bypass")
	// Every read-only gate first (the pack gate among them), then the
	// presence check, then the person's yes to the writes listed.
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`Type y and Enter`)
	a.send("y")
	a.waitFor(`result: exit \d`)
	out := a.out.String()
	if code := a.exit(); code != tui.ExitOK || !strings.Contains(out, "the pack verifies") {
		t.Fatalf("ship %d after the runner's run exited %d:\n%s", pr, code, out)
	}
	// The gate's pack job attested the pack (actions/attest on the runner),
	// and ship checked the certificate names the gate at the base branch.
	if !strings.Contains(out, "attested, signed by https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/") {
		t.Errorf("ship does not name the gate's attestation:\n%s", out)
	}
}

// attestedLine is the gate comment's line naming a verified attestation,
// with the pack job's attestation linked.
var attestedLine = regexp.MustCompile("(?m)^Attested: pack.json sha256:`[0-9a-f]{64}` signed by `[^`]+` \\(`pull_request_target`, transparency log index \\d+\\), attestation \\[\\d+\\]\\(http://127\\.0\\.0\\.1:\\d+/acme/[a-z]+/attestations/\\d+\\)\\.$")
