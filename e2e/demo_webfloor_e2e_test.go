package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// demoPRHead seeds the demo under home (as aayu --sandbox keeps it) and
// returns pull request pr's head.
func demoPRHead(t *testing.T, home string, pr int) string {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox")})
	if err != nil {
		t.Fatal(err)
	}
	head := srv.HeadSHA(pr)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if head == "" {
		t.Fatalf("the demo has no pull request #%d", pr)
	}
	return head
}

// downloadPackZip downloads a run's aayudha-pack artifact and unzips it
// into dir.
func downloadPackZip(t *testing.T, gh *github.Client, runID int64, dir string) {
	t.Helper()
	ctx := context.Background()
	arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, "acme", "benefits", runID, nil)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	for _, a := range arts.Artifacts {
		if a.GetName() == "aayudha-pack" {
			id = a.GetID()
		}
	}
	if id == 0 {
		t.Fatalf("run %d has no aayudha-pack artifact", runID)
	}
	u, _, err := gh.Actions.DownloadArtifact(ctx, "acme", "benefits", id, 0)
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
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// demoShotListed is the plain pack viewer's line for the demo's capture
// (27,850 bytes), its hash checked.
var demoShotListed = regexp.MustCompile(`media screens/1\.png: screenshot, 27\.2 KiB, hash checked`)

// TestDemoScreenshotStoryShipsItsScreen: the demo's Story 19 is proved by
// a screenshot of the app's summary page. Its gate run's pack verifies as
// downloaded (aayu pack DIR, against the ledger's Ready snapshot) and
// holds screens/1.png, the page as chromium captured it; with one byte of
// the capture flipped the pack does not verify, naming screens/1.png.
// aayu ship 20 --solo-bypass merges it, the authoritative pack on the
// ledger keeps screens/1.png as a screenshot by hash (store none), and the
// pack viewer of Story 19 lists the capture with its kind and size.
func TestDemoScreenshotStoryShipsItsScreen(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	head := demoPRHead(t, home, sandbox.DemoPRScreenshot)

	// The run's pack, as downloaded, verifies; tampered, it does not.
	gh := sandboxState(t, home)
	ctx := context.Background()
	runs, _, err := gh.Actions.ListWorkflowRunsByFileName(ctx, "acme", "benefits", sandbox.GateFile, &github.ListWorkflowRunsOptions{Event: "pull_request_target"})
	if err != nil {
		t.Fatal(err)
	}
	var runID int64
	for _, r := range runs.WorkflowRuns {
		if len(r.PullRequests) == 1 && r.PullRequests[0].GetHead().GetSHA() == head {
			runID = r.GetID()
		}
	}
	if runID == 0 {
		t.Fatalf("the demo has no merge-gate run of #%d's head %s", sandbox.DemoPRScreenshot, head)
	}
	dir := filepath.Join(t.TempDir(), "pack")
	downloadPackZip(t, gh, runID, dir)
	fc, _, _, err := gh.Repositories.GetContents(ctx, "acme", "benefits", fmt.Sprintf("specs/%d/ready.md", sandbox.DemoStoryScreenshot), &github.RepositoryContentGetOptions{Ref: "ledger"})
	if err != nil {
		t.Fatal(err)
	}
	ready, _ := fc.GetContent()
	readyPath := filepath.Join(t.TempDir(), "ready.md")
	if err := os.WriteFile(readyPath, []byte(ready), 0o644); err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	shot := filepath.Join(dir, "artifacts", "screens", "1.png")
	if b, err := os.ReadFile(shot); err != nil || !bytes.Equal(b, sandbox.DemoScreenshot) {
		t.Fatalf("the run's pack does not hold the capture as screens/1.png (%v)", err)
	}
	code, out, errOut := runAayuEnv(t, map[string]string{}, "--plain", "pack", dir, "--ready", readyPath, "--head", head)
	if code != tui.ExitOK || !demoShotListed.MatchString(out) {
		t.Fatalf("aayu pack of the run's pack exited %d, want it verified with the capture listed:\n%s%s", code, out, errOut)
	}
	b, _ := os.ReadFile(shot)
	b[len(b)/2] ^= 0x01
	if err := os.WriteFile(shot, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runAayuEnv(t, map[string]string{}, "--plain", "pack", dir, "--ready", readyPath, "--head", head)
	if code != tui.ExitRefused || !strings.Contains(out, `Artifact "screens/1.png" has SHA-256`) || !strings.Contains(out, "its bytes were changed") {
		t.Fatalf("aayu pack of the pack with a tampered screenshot exited %d, want %d naming screens/1.png:\n%s%s", code, tui.ExitRefused, out, errOut)
	}

	// ship merges it; the ledger keeps the capture by hash.
	code, out = shipWithoutTerminal(t, home, "founder", "y", itoa(sandbox.DemoPRScreenshot), "--solo-bypass")
	if code != tui.ExitOK {
		t.Fatalf("aayu ship %d --solo-bypass exited %d:\n%s", sandbox.DemoPRScreenshot, code, out)
	}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
	raw, err := runCmd("git", "--git-dir", git, "show", fmt.Sprintf("ledger:proof/%d/%s/authoritative/pack.json", sandbox.DemoStoryScreenshot, head))
	if err != nil {
		t.Fatalf("no authoritative pack for #%d's head: %v\n%s", sandbox.DemoPRScreenshot, err, raw)
	}
	var pack struct {
		Artifacts []struct{ Path, Kind, Store, SHA256 string }
		Criteria  []struct{ Evidence []string }
	}
	if err := json.Unmarshal([]byte(raw), &pack); err != nil {
		t.Fatalf("the authoritative pack.json: %v\n%s", err, raw)
	}
	found := false
	for _, a := range pack.Artifacts {
		if a.Path == "screens/1.png" {
			found = a.Kind == "screenshot" && a.Store == "none" && len(a.SHA256) == 64
		}
	}
	if !found || len(pack.Criteria) != 1 || !strings.Contains(strings.Join(pack.Criteria[0].Evidence, " "), "screens/1.png") {
		t.Fatalf("the authoritative pack does not hold screens/1.png as a screenshot kept by hash, cited by criterion 1:\n%s", raw)
	}

	// The pack viewer of the Story lists the capture.
	code, out, errOut = runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "--plain", "pack", itoa(sandbox.DemoStoryScreenshot))
	if code != tui.ExitOK || !regexp.MustCompile(`media screens/1\.png: screenshot, 27\.2 KiB`).MatchString(out) {
		t.Fatalf("aayu pack %d exited %d, want the capture listed:\n%s%s", sandbox.DemoStoryScreenshot, code, out, errOut)
	}
}

// TestDemoScreenshotStoryGateCapturesThePage: on the demo with the
// sandbox's runner, an agent pushes a new head to PR 20 (Story 19, whose
// criterion names a screenshot of /summary showing #remaining); the merge
// gate's run, the base policy's [verify] app started in the tests job and
// the page opened in headless chromium, succeeds, its pack holds
// screens/1.png (a PNG capture) cited by criterion 1,
// and the gate's comment lists screens/1.png and the web floor holding.
func TestDemoScreenshotStoryGateCapturesThePage(t *testing.T) {
	t.Parallel()
	needChromium(t)
	r := startGateRig(t)
	r.git("checkout", "-q", "-b", "story/19-summary-page", "origin/story/19-summary-page")
	p := filepath.Join(r.work, "web", "summary.go")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte("// summary is the plan summary page"), []byte("// summary is the plan summary page (members' first stop)"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git("commit", "-q", "-am", fmt.Sprintf("web: say what the summary page is for\n\nRefs #%d", sandbox.DemoStoryScreenshot))
	head := r.git("rev-parse", "HEAD")
	r.git("push", "-q", "origin", "story/19-summary-page")

	run := r.completedRun(head)
	var gate string
	comments, _, err := r.person.Issues.ListComments(context.Background(), "acme", "benefits", sandbox.DemoPRScreenshot, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = c.GetBody()
		}
	}
	if run.GetConclusion() != "success" {
		t.Fatalf("the merge gate's run on %s concluded %s:\n%s\n%s", head, run.GetConclusion(), gate, r.logs.String())
	}
	for _, want := range []string{"`screens/1.png`", "| web | pass |", `1 of 1 page captured; criterion 1: /summary showing "\#remaining", 1280×`} {
		if !strings.Contains(gate, want) {
			t.Errorf("the gate's comment on #%d lacks %q:\n%s", sandbox.DemoPRScreenshot, want, gate)
		}
	}
	dir := filepath.Join(t.TempDir(), "pack")
	downloadPackZip(t, r.person, run.GetID(), dir)
	raw, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pack struct {
		Head      string `json:"pr_head_sha"`
		Artifacts []struct{ Path, Kind, Store string }
		Criteria  []struct{ Evidence []string }
	}
	if err := json.Unmarshal(raw, &pack); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range pack.Artifacts {
		found = found || (a.Path == "screens/1.png" && a.Kind == "screenshot" && a.Store == "none")
	}
	if pack.Head != head || !found || len(pack.Criteria) != 1 || !strings.Contains(strings.Join(pack.Criteria[0].Evidence, " "), "screens/1.png") {
		t.Fatalf("the run's pack does not prove %s with screens/1.png cited by criterion 1:\n%s", head, raw)
	}
	png, err := os.ReadFile(filepath.Join(dir, "artifacts", "screens", "1.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the run's pack holds no PNG capture as screens/1.png (%v)", err)
	}
}
