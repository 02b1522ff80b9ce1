package packbuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// bareOf fetches head and the base branch dev into a new bare repository,
// as the merge gate's pack job does (a fetch of the head's SHA, no working
// tree), with HEAD detached at head.
func bareOf(t *testing.T, d *demoRepo, story int) string {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "commits.git")
	head := d.srv.HeadSHA(demoStoryPRs[story])
	for _, args := range [][]string{
		{"init", "--bare", "-q", bare},
		{"--git-dir", bare, "fetch", "--no-tags", "-q", d.srv.GitDir(), head, "+refs/heads/dev:refs/remotes/origin/dev"},
		{"--git-dir", bare, "update-ref", "--no-deref", "HEAD", head},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return bare
}

// TestPackFromRawInABareRepository: the merge gate's pack job holds a
// signing permission, so it reads the pull request's commits from a bare
// repository with no working tree and writes the pack outside it
// (--pack-out, under runner.temp). The pack it builds gives the verdict a
// checkout's does, and nothing is written inside the repository.
func TestPackFromRawInABareRepository(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	raw := d.rawRun(t, sandbox.DemoBug)
	req := d.request(t, sandbox.DemoBug, beforeBlock)
	req.Dir = bareOf(t, d, sandbox.DemoBug)
	req.FromRaw = raw
	req.PackOut = filepath.Join(t.TempDir(), "aayudha-pack")
	out, err := Run(context.Background(), Tools{}, req, nil)
	if err != nil {
		t.Fatalf("Run from a bare repository: %v", err)
	}
	_, direct, _ := d.directRun(t, sandbox.DemoBug, beforeBlock)
	if out.ExitCode != ExitOK || direct.ExitCode != ExitOK {
		t.Fatalf("bare exit %d (refusal %q), direct exit %d; want both 0", out.ExitCode, out.Refusal, direct.ExitCode)
	}
	if out.Dir != req.PackOut {
		t.Errorf("the pack was written to %s, not --pack-out %s", out.Dir, req.PackOut)
	}
	if _, err := os.Stat(filepath.Join(req.PackOut, "pack.json")); err != nil {
		t.Errorf("no pack.json under --pack-out: %v", err)
	}
	if _, err := os.Stat(filepath.Join(req.Dir, ".aayudha")); err == nil {
		t.Error("the run wrote inside the bare repository")
	}
	for _, floor := range []string{"tests", "coverage", "vet"} {
		a, b := checkOf(t, out.Pack, floor), checkOf(t, direct.Pack, floor)
		if a.Result != b.Result || a.Detail != b.Detail {
			t.Errorf("%s from a bare repository: %s %q; from a checkout: %s %q", floor, a.Result, a.Detail, b.Result, b.Detail)
		}
	}
	if len(out.Pack.Criteria) != len(direct.Pack.Criteria) {
		t.Errorf("criteria from the bare repository's evidence map: %d, from the checkout's: %d", len(out.Pack.Criteria), len(direct.Pack.Criteria))
	}
}

// TestBareRepositoryServesOnlyThePackJob: a bare repository has no working
// tree to run tests in, so verify without --from-raw refuses it, and with
// --from-raw it needs --pack-out: each refusal says so and writes nothing.
func TestBareRepositoryServesOnlyThePackJob(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	req := d.request(t, 3, beforeBlock)
	req.Dir = bareOf(t, d, 3)
	out, err := Run(context.Background(), Tools{}, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != ExitRefused || !strings.Contains(out.Refusal, "is a bare repository, with no working tree to run the story's tests in") {
		t.Fatalf("exit %d refusal %q, want 4 naming the bare repository", out.ExitCode, out.Refusal)
	}
	req.FromRaw = filepath.Join(t.TempDir(), "raw")
	out, err = Run(context.Background(), Tools{}, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != ExitRefused || !strings.Contains(out.Refusal, "give --pack-out DIR") {
		t.Fatalf("exit %d refusal %q, want 4 asking for --pack-out", out.ExitCode, out.Refusal)
	}
	if _, err := os.Stat(filepath.Join(req.Dir, ".aayudha")); err == nil {
		t.Error("a refused run wrote inside the bare repository")
	}
}

// TestVerifyKeepsTheLocalPackOutOfTheIndex: in a checkout whose
// .gitignore does not name .aayudha/proof/ (aayu init has not run), the
// pack verify writes stays out of the index: git add -A then git status
// shows nothing under .aayudha/proof/.
func TestVerifyKeepsTheLocalPackOutOfTheIndex(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	req := d.request(t, 3, beforeBlock)
	if out, err := exec.Command("git", "-C", req.Dir, "rm", "-q", ".gitignore").CombinedOutput(); err != nil {
		t.Fatalf("git rm .gitignore: %v %s", err, out)
	}
	gitCommit(t, req.Dir)
	out, _ := run(t, req)
	if _, err := os.Stat(filepath.Join(out.Dir, "pack.json")); err != nil {
		t.Fatalf("verify wrote no pack (exit %d, refusal %q): %v", out.ExitCode, out.Refusal, err)
	}
	if b, err := exec.Command("git", "-C", req.Dir, "add", "-A").CombinedOutput(); err != nil {
		t.Fatalf("git add -A: %v %s", err, b)
	}
	status, err := exec.Command("git", "-C", req.Dir, "status", "--porcelain", "--untracked-files=all", "--ignored=no").Output()
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(status), "\n") {
		if strings.Contains(l, ".aayudha/proof") {
			t.Errorf("after verify and git add -A, the local pack is in the index: %q", l)
		}
	}
	// A .gitignore a person wrote there is left as it is.
	mine := []byte("# mine\n*\n")
	ignore := filepath.Join(req.Dir, ".aayudha", "proof", ".gitignore")
	if err := os.WriteFile(ignore, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, req)
	if got := readFile(t, ignore); string(got) != string(mine) {
		t.Errorf("verify replaced the folder's own .gitignore with %q", got)
	}
}
