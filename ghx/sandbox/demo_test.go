package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

// TestReadySnapshotsAreSelfConsistent reads each Ready snapshot from the
// ledger and recomputes its hash from its own Completion Goal.
func TestReadySnapshotsAreSelfConsistent(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	gh := client(t, base, "sandbox-reader")
	for _, story := range []string{"3", "5", "7", "9", "14"} {
		fc, _, _, err := gh.Repositories.GetContents(context.Background(), "acme", "benefits", "specs/"+story+"/ready.md", &github.RepositoryContentGetOptions{Ref: "ledger"})
		if err != nil {
			t.Fatalf("story %s: %v", story, err)
		}
		text, _ := fc.GetContent()
		ready, err := proof.ParseReady([]byte(text))
		if err != nil || !strings.HasPrefix(text, "# Ready: story "+story+" — ") || !ready.SelfConsistent() {
			t.Errorf("story %s snapshot is not self-consistent (%v):\n%s", story, err, text)
		}
	}
}

// TestDemoModuleTestsPass exports each PR head and dev from the sandbox's
// git storage and runs the Go module's tests, as aayu verify will.
func TestDemoModuleTestsPass(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test on the demo module")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	dir := t.TempDir()
	s, err := sandbox.New(sandbox.Options{ShareSeed: true, StateDir: dir, Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	for _, branch := range []string{"dev", "story/3-remaining-deductible", "story/5-copay", "story/7-plan-year-rollover"} {
		work := filepath.Join(t.TempDir(), "w")
		if err := os.MkdirAll(work, 0o755); err != nil {
			t.Fatal(err)
		}
		archive := exec.Command("sh", "-c", "git --git-dir \"$0\" archive \"$1\" | tar -x -C \"$2\"", s.GitDir(), branch, work)
		if out, err := archive.CombinedOutput(); err != nil {
			t.Skipf("git archive unavailable: %v %s", err, out)
		}
		cmd := exec.Command(goBin, "test", "./...")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go test on %s failed: %v\n%s", branch, err, out)
		}
	}
}

// TestPersistenceAndReset: state survives a restart; Reset seeds afresh.
func TestPersistenceAndReset(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, v, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: dir})
	_ = v
	gh := client(t, base, "sandbox-founder")
	if _, _, err := gh.Issues.CreateComment(context.Background(), "acme", "benefits", 2, &github.IssueComment{Body: github.String("kept")}); err != nil {
		t.Fatal(err)
	}
	ledger := s.BranchSHA("ledger")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, _, base2 := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: dir})
	gh2 := client(t, base2, "sandbox-founder")
	comments, _, err := gh2.Issues.ListComments(context.Background(), "acme", "benefits", 2, nil)
	if err != nil || len(comments) != 1 || again.BranchSHA("ledger") != ledger {
		t.Fatalf("after restart: %d comments, ledger %s (was %s), %v", len(comments), again.BranchSHA("ledger"), ledger, err)
	}
	if out, err := exec.Command("git", "--git-dir", again.GitDir(), "show", "ledger:specs/3/ready.md").CombinedOutput(); err == nil && !strings.HasPrefix(string(out), "# Ready: story 3") {
		t.Errorf("git show on the sandbox repository: %s", out)
	}
	if err := again.Reset(); err != nil {
		t.Fatal(err)
	}
	comments, _, _ = gh2.Issues.ListComments(context.Background(), "acme", "benefits", 2, nil)
	if len(comments) != 0 {
		t.Errorf("Reset kept %d comments", len(comments))
	}
}

// TestScaleSpreadsKinds: Scale adds items of every kind, validated.
func TestScaleSpreadsKinds(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, Scale: 40})
	gh := client(t, base, "sandbox-founder")
	all, _, err := gh.Issues.ListByRepo(context.Background(), "acme", "benefits", &github.IssueListByRepoOptions{State: "all", ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 15+40 {
		t.Errorf("%d items, want at least 55", len(all))
	}
	kinds := map[string]int{}
	for _, is := range all[:len(all)-15] {
		for _, l := range is.Labels {
			kinds[l.GetName()]++
		}
		if is.IsPullRequest() {
			kinds["pr"]++
		}
	}
	for _, k := range []string{"type:decision", "type:story", "type:bug", "aayu:audit", "pr"} {
		if kinds[k] == 0 {
			t.Errorf("no scaled item with %s: %v", k, kinds)
		}
	}
}
