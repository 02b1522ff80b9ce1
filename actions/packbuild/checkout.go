package packbuild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
)

// CloneCheckout makes a fresh checkout of head from the repository at
// source (a bare repository such as the sandbox's Server.GitDir) in dest,
// replacing whatever dest held: git clone --no-hardlinks, then a detached
// checkout of head. The base branch is then origin/BRANCH in dest. It is
// how aayu --sandbox verify gets a checkout of the demo, which has none on
// the person's disk.
func (t Tools) CloneCheckout(ctx context.Context, source, dest, head string) error {
	if head == "" {
		return fmt.Errorf("no head commit to check out")
	}
	if err := os.RemoveAll(dest); err != nil {
		return fmt.Errorf("clearing the old checkout %s: %w", dest, err)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	if _, err := t.git(ctx, filepath.Dir(dest), "clone", "--quiet", "--no-hardlinks", source, dest); err != nil {
		return fmt.Errorf("cloning the repository to verify: %w", err)
	}
	if _, err := t.git(ctx, dest, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", head); err != nil {
		return fmt.Errorf("checking out %s: %w", gitsha.Short(head), err)
	}
	return nil
}

// SandboxCheckoutDir is where aayu --sandbox verify keeps its checkout of
// the demo for one story: under the user's cache folder, outside any
// repository, replaced on every run so the pack's path stays the same.
func SandboxCheckoutDir(cacheDir, repo string, story int) string {
	return filepath.Join(cacheDir, "aayu", "verify", strings.ReplaceAll(repo, "/", "+"), strconv.Itoa(story))
}

// ParseStory reads the STORY argument: a number ("3", "#3") or a branch
// that names one (story/3-remaining-deductible, fix/11-applies-case), as
// the merge gate passes the pull request's head branch.
func ParseStory(arg string) (int, error) {
	s := strings.TrimPrefix(strings.TrimSpace(arg), "#")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
		if j := strings.IndexByte(s, '-'); j >= 0 {
			s = s[:j]
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q names no story: give its number (3) or its branch (story/3-…)", arg)
	}
	return n, nil
}

// RepoFromCheckout reads OWNER/NAME from the checkout's origin remote
// (https://github.com/OWNER/NAME.git, git@github.com:OWNER/NAME.git or
// ssh://git@host/OWNER/NAME), for when --repo is not given.
func (t Tools) RepoFromCheckout(ctx context.Context, dir string) (owner, name string, err error) {
	out, err := t.git(ctx, dir, "remote", "get-url", "origin")
	if err != nil {
		// Asked only now, so a clone (the usual case) costs one git run.
		if inside, werr := t.insideWorkTree(ctx, dir); werr == nil && !inside {
			return "", "", fmt.Errorf("%s is not in a clone of a repository: cd into your clone of it (git clone it first) and run this there, or give --repo OWNER/NAME", dir)
		}
		return "", "", fmt.Errorf("the checkout has no origin remote to name the repository; give --repo OWNER/NAME: %w", err)
	}
	return repoFromRemoteURL(strings.TrimSpace(string(out)))
}

func repoFromRemoteURL(u string) (owner, name string, err error) {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			rest = rest[j+1:]
		} else {
			rest = ""
		}
	} else if i := strings.IndexByte(rest, ':'); i >= 0 && !strings.Contains(rest[:i], "/") {
		rest = rest[i+1:]
	} else {
		rest = ""
	}
	parts := strings.Split(strings.TrimSuffix(strings.TrimSuffix(rest, "/"), ".git"), "/")
	if len(parts) < 2 || parts[len(parts)-2] == "" || parts[len(parts)-1] == "" {
		return "", "", fmt.Errorf("the origin remote %q does not name OWNER/NAME; give --repo OWNER/NAME", u)
	}
	return parts[len(parts)-2], parts[len(parts)-1], nil
}
