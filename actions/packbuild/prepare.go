package packbuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/config"
)

// PrepareOptions say where the checkout comes from.
type PrepareOptions struct {
	Owner, Repo string
	Story       int
	// Checkout is the person's checkout of the pull request (normally the
	// current directory). Ignored when SandboxGitDir is set.
	Checkout string
	// SandboxGitDir is the sandbox's bare repository: the demo has no
	// checkout on disk, so a fresh clone is made under CacheDir.
	SandboxGitDir string
	CacheDir      string
	CI            bool
	Config        config.Sources
	Getenv        func(string) string
	// FromRaw is Request.FromRaw: build from the tests job's raw outputs.
	FromRaw string
	// PackOut is Request.PackOut: the folder the pack is written to.
	PackOut string
}

// Prepare reads the story's facts from GitHub (Resolve) and finds or makes
// the checkout, giving the Request a run needs. With a sandbox the demo is
// cloned and the pull request's head checked out; otherwise the checkout
// given is used as it is, and its base branch must have been fetched.
func Prepare(ctx context.Context, t Tools, gh *github.Client, o PrepareOptions) (Request, error) {
	target, err := Resolve(ctx, gh, o.Owner, o.Repo, o.Story)
	if err != nil {
		return Request{}, err
	}
	req := Request{
		Repo: o.Owner + "/" + o.Repo, Story: o.Story, PR: target.PR, Ready: target.Ready, Bug: target.Bug,
		CI: o.CI, Private: target.Private, Config: o.Config, Getenv: o.Getenv, Dir: o.Checkout, FromRaw: o.FromRaw,
		PackOut: o.PackOut,
	}
	if o.SandboxGitDir != "" {
		if target.HeadSHA == "" {
			return Request{}, fmt.Errorf("no pull request links story %d, so the sandbox has nothing to check out", o.Story)
		}
		req.Dir = SandboxCheckoutDir(o.CacheDir, req.Repo, o.Story)
		if err := t.CloneCheckout(ctx, o.SandboxGitDir, req.Dir, target.HeadSHA); err != nil {
			return Request{}, err
		}
	}
	if o.SandboxGitDir == "" {
		// Outside a clone the base branch is missing too, but "git fetch"
		// cannot fix that: say what the checkout is not, and how to get one.
		if err := t.notAClone(ctx, req.Dir, req.Repo, target.CloneURL, o.Story); err != nil {
			return Request{}, err
		}
	}
	req.BaseRef, err = t.baseRef(ctx, req.Dir, target.BaseBranch)
	if err != nil {
		return Request{}, err
	}
	return req, nil
}

// notAClone refuses a folder that is not inside a git working tree: the
// floors run the repository's tests there, so the person needs a clone of
// repo first. cloneURL is the repository's own (GitHub's clone_url), so
// the advice holds on GitHub Enterprise too; the github.com URL stands in
// when GitHub gave none.
func (t Tools) notAClone(ctx context.Context, dir, repo, cloneURL string, story int) error {
	inside, err := t.insideWorkTree(ctx, dir)
	if err != nil || inside {
		return err
	}
	if t.isBare(ctx, dir) {
		return nil // the gate's pack job: the run says what a bare repository is for (bare.go)
	}
	if cloneURL == "" {
		cloneURL = "https://github.com/" + repo + ".git"
	}
	name := strings.TrimSuffix(path.Base(cloneURL), ".git")
	return fmt.Errorf("%s is not in a clone of %s: aayu verify runs the story's tests in a clone of the repository. Get one and run it there: git clone %s && cd %s && aayu verify %d",
		dir, repo, cloneURL, name, story)
}

// insideWorkTree says whether dir is inside a git working tree. Only git
// itself missing (or dir missing) is an error: git's "not a git
// repository" is the answer no.
func (t Tools) insideWorkTree(ctx context.Context, dir string) (bool, error) {
	if _, err := os.Stat(dir); err != nil {
		return false, fmt.Errorf("the checkout folder: %w", err)
	}
	out, err := t.git(ctx, dir, "rev-parse", "--is-inside-work-tree")
	var exit *exec.ExitError
	switch {
	case err == nil:
		return strings.TrimSpace(string(out)) == "true", nil
	case errors.As(err, &exit):
		return false, nil
	}
	return false, fmt.Errorf("asking git whether %s is a clone: %w", dir, err)
}

// baseRef finds the base branch in the checkout: its remote-tracking
// branch first (what CI and a fresh clone have), else a local branch.
func (t Tools) baseRef(ctx context.Context, dir, branch string) (string, error) {
	if branch == "" {
		return "", fmt.Errorf("the base branch is not known")
	}
	for _, ref := range []string{"origin/" + branch, branch} {
		if _, err := t.git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err == nil {
			return ref, nil
		}
	}
	return "", fmt.Errorf("the checkout %s has no copy of the base branch %s; run git fetch origin %s and verify again", dir, branch, strings.TrimSpace(branch))
}
