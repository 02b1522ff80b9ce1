package e2e

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// Seeding the demo writes several hundred git objects one loose file at a
// time (a temporary file, a rename and a folder each) and signs its packs:
// most of a sandbox's start, paid again by nearly every test of this
// package. A sandbox given a new state folder instead starts from a copy
// of one seeded once per test process, which it loads as `aayu sandbox`
// loads the state it saved last time: the same demo, the same numbers.

// seedKey is what makes one seeded demo differ from another: the options
// seeding reads. A sandbox with a clock of its own (Now) or more items
// (Scale) seeds for itself.
type seedKey struct{ botIdentity, botApp bool }

// seededMaxAge bounds how old a seeded folder may be when copied: seeded
// dates are relative to the moment of seeding (the latest, a running gate
// run, 54 minutes before it), so a copy is never more than this older
// than a demo seeded by the test itself.
const seededMaxAge = 5 * time.Minute

type seededState struct {
	dir string
	at  time.Time
}

var seeded struct {
	mu    sync.Mutex
	root  string // removed by TestMain
	dirs  map[seedKey]seededState
	count int
}

// seedable says whether opts' sandbox can start from a seeded copy: it
// keeps its state in a folder that does not exist yet or is empty, and
// seeds with the clock and size every copy was seeded with.
func seedable(opts sandbox.Options) bool {
	if opts.StateDir == "" || opts.Now != nil || opts.Scale != 0 {
		return false
	}
	entries, err := os.ReadDir(opts.StateDir)
	return errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0)
}

// newSandbox is sandbox.New, its state folder first filled with a copy of
// the demo seeded once when seedable says it may be.
func newSandbox(opts sandbox.Options) (*sandbox.Server, error) {
	if seedable(opts) {
		if err := copySeeded(seedKey{botIdentity: opts.BotIdentity, botApp: opts.BotApp}, opts.StateDir); err != nil {
			return nil, err
		}
	}
	// One kept in memory seeds from a copy of the process's first seeding.
	opts.ShareSeed = true
	return sandbox.New(opts)
}

// copySeeded fills dir with a copy of the demo seeded for key, seeding it
// first when there is none younger than seededMaxAge. The copy is made
// beside dir and renamed into place, so dir is either the whole copy or
// as it was.
func copySeeded(key seedKey, dir string) error {
	src, err := seededFolder(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".seeded-*")
	if err != nil {
		return err
	}
	if err := copyState(src, tmp); err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("copying the seeded demo: %w", err)
	}
	// dir may be an empty folder (t.TempDir gives one), which os.Rename
	// does not replace.
	if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("copying the seeded demo: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("copying the seeded demo: %w", err)
	}
	return nil
}

// seedSandboxCache gives `aayu --sandbox` under home the copy of the demo
// it would otherwise seed on its first run, in the state folder it keeps
// in home's cache (cli's startSandbox). The binary's own first-run seeding
// is what the tmux tests run; a failed copy leaves the folder as it was,
// for aayu to seed.
func seedSandboxCache(vars map[string]string, args []string) {
	if vars["HOME"] == "" || vars["XDG_CACHE_HOME"] != "" || !slices.Contains(args, "--sandbox") {
		return
	}
	dir := filepath.Join(vars["HOME"], ".cache", "aayu", "sandbox")
	if seedable(sandbox.Options{StateDir: dir}) {
		_ = copySeeded(seedKey{}, dir)
	}
}

func seededFolder(key seedKey) (string, error) {
	seeded.mu.Lock()
	defer seeded.mu.Unlock()
	if s, ok := seeded.dirs[key]; ok && time.Since(s.at) < seededMaxAge {
		return s.dir, nil
	}
	if seeded.root == "" {
		root, err := os.MkdirTemp("", "aayu-test-seeded-")
		if err != nil {
			return "", err
		}
		seeded.root, seeded.dirs = root, map[seedKey]seededState{}
	}
	seeded.count++
	dir := filepath.Join(seeded.root, fmt.Sprint(seeded.count))
	at := time.Now()
	srv, err := sandbox.New(sandbox.Options{StateDir: dir, BotIdentity: key.botIdentity, BotApp: key.botApp})
	if err != nil {
		return "", fmt.Errorf("seeding the demo once: %w", err)
	}
	if err := srv.Close(); err != nil {
		return "", fmt.Errorf("saving the demo seeded once: %w", err)
	}
	// One pack of whole objects per repository: a copy links two files
	// instead of a folder and a file per object.
	for _, repo := range []string{"benefits.git", "fresh.git"} {
		if out, err := exec.Command("git", "-C", filepath.Join(dir, repo), "repack", "-a", "-d", "-q", "--window=0").CombinedOutput(); err != nil {
			return "", fmt.Errorf("packing the demo seeded once: %w\n%s", err, out)
		}
	}
	seeded.dirs[key] = seededState{dir: dir, at: at}
	return dir, nil
}

// copyState copies the state folder src into dst. A git object file or
// pack is linked, not copied: git never changes one in place (a new object
// is a new file renamed into place; the same content is the same name), so
// the copies share them as clones of one repository on one disk may.
// Every other file (state.json, refs, the Sigstore root) is copied, since
// the sandbox rewrites those.
func copyState(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("copying the seeded demo: %s is not a regular file", p)
		}
		if parent := filepath.Base(filepath.Dir(p)); filepath.Base(filepath.Dir(filepath.Dir(p))) == "objects" && (parent == "pack" || len(parent) == 2) {
			if err := os.Link(p, to); err == nil {
				return nil
			}
		}
		return copyFile(p, to, info.Mode().Perm())
	})
}

func copyFile(from, to string, mode fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
