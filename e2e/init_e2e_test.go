package e2e

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/tui"
)

// runAs runs aayu in-process without a terminal, as a script would, with
// the given variables.
func runAs(vars map[string]string, stdin string, args ...string) (int, string) {
	var out bytes.Buffer
	code := runCLI(context.Background(), vars, args, cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &out})
	return code, out.String()
}

// TestInitAndDoctorOnFresh: `aayu --sandbox --repo acme/fresh init --yes`
// opens the set-up pull request and leaves main untouched; doctor names
// what is missing before, points at that pull request after, and calls
// the workflows current once it is merged.
func TestInitAndDoctorOnFresh(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "fresh.git")

	code, out := runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "doctor")
	// Not set up: the five workflows, the presence check's App, and the
	// rules: fresh's ruleset requires the gate by name only, and nothing
	// blocks a force-push or a deletion of main or the ledger.
	if code != tui.ExitRefused || strings.Count(out, ": not set up — ") != 11 || !strings.Contains(out, "next: run aayu init: it proposes the current file") ||
		!strings.Contains(out, "gate required on main: not set up — aayudha/merge-gate is required by name only") {
		t.Fatalf("doctor before init exited %d:\n%s", code, out)
	}
	mainBefore, _ := runCmd("git", "--git-dir", git, "rev-parse", "main")

	code, out = runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "init", "--yes")
	if code != tui.ExitOK || !strings.Contains(out, "opened pull request #1 from aayudha/setup into main") {
		t.Fatalf("init --yes exited %d:\n%s", code, out)
	}
	// It said what it would write before writing.
	if i, j := strings.Index(out, "create .github/workflows/aayudha-merge-gate.yml"), strings.Index(out, "writing…"); i < 0 || j < i {
		t.Errorf("the proposal does not come before the writes:\n%s", out)
	}
	if mainAfter, _ := runCmd("git", "--git-dir", git, "rev-parse", "main"); mainAfter != mainBefore {
		t.Fatalf("main moved from %s to %s", mainBefore, mainAfter)
	}
	files, _ := runCmd("git", "--git-dir", git, "ls-tree", "-r", "--name-only", "aayudha/setup")
	for _, f := range []string{templates.MergeGatePath, templates.ProtectedPathsPath, templates.ApprovePath, ".aayudha/config.toml", "LAYERS.md", ".github/CODEOWNERS"} {
		if !strings.Contains(files, f) {
			t.Errorf("the set-up branch lacks %s:\n%s", f, files)
		}
	}

	code, out = runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "doctor")
	if code != tui.ExitRefused || !strings.Contains(out, "next: review and merge pull request #1") {
		t.Fatalf("doctor after init exited %d:\n%s", code, out)
	}

	// The person merges the pull request; the workflows are then current.
	mergeOnSandbox(t, home, "fresh", 1)
	code, out = runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "doctor")
	if strings.Count(out, ": ok — present on main and byte for byte") != 5 || code != tui.ExitRefused || !strings.Contains(out, "AAYUDHA_DEVICE_CLIENT_ID): not set up") {
		t.Fatalf("doctor after the merge exited %d:\n%s", code, out)
	}
}

// TestInitAsksBeforeWriting: without --yes, any answer but y writes
// nothing and exits 4; --dry-run writes nothing either.
func TestInitAsksBeforeWriting(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "fresh.git")
	code, out := runAs(vars, "n\n", "--sandbox", "--repo", "acme/fresh", "init")
	if code != tui.ExitRefused || !strings.Contains(out, "Write these? Type y") || !strings.Contains(out, "Nothing was written.") {
		t.Fatalf("init answered n exited %d:\n%s", code, out)
	}
	code, out = runAs(vars, "", "--sandbox", "--repo", "acme/fresh", "--dry-run", "init")
	if code != tui.ExitOK || !strings.Contains(out, "--dry-run: nothing was written.") {
		t.Fatalf("init --dry-run exited %d:\n%s", code, out)
	}
	if refs, _ := runCmd("git", "--git-dir", git, "for-each-ref", "--format=%(refname)"); strings.TrimSpace(refs) != "refs/heads/main" {
		t.Fatalf("a refused init left refs behind:\n%s", refs)
	}
	code, out = runAs(vars, "y\n", "--sandbox", "--repo", "acme/fresh", "init", "--gates")
	if code != tui.ExitOK || !strings.Contains(out, "opened pull request #1") || strings.Contains(out, "Enable Device Flow") {
		t.Fatalf("init --gates answered y exited %d:\n%s", code, out)
	}
}

// mergeOnSandbox squash-merges a pull request on the sandbox's saved state
// as the founder, as a person would on GitHub.
func mergeOnSandbox(t *testing.T, home, repo string, pr int) {
	t.Helper()
	onSandbox(t, home, func(gh *github.Client) {
		if _, _, err := gh.PullRequests.Merge(context.Background(), "acme", repo, pr, "", &github.PullRequestOptions{MergeMethod: "squash"}); err != nil {
			t.Fatalf("merging #%d: %v", pr, err)
		}
	})
}
