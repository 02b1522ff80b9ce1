package packbuild

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The merge gate's pack job holds id-token: write and attestations: write,
// so it never has a working tree of the pull request: every file and
// symlink in one is the pull request's choice, and a pack written, attested
// and uploaded from a path inside it could be swapped for one the pull
// request planted. It fetches the head's commits into a bare repository
// (no working tree), reads them with git alone, and writes the pack under
// runner.temp (Request.PackOut). A bare repository serves only that job:
// the tests it builds from ran in the tests job (Request.FromRaw).

// isBare says whether dir is a bare repository: git's answer, so a folder
// git cannot read is not one.
func (t Tools) isBare(ctx context.Context, dir string) bool {
	out, err := t.git(ctx, dir, "rev-parse", "--is-bare-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// bareRefusal says why a run cannot use a bare repository as it was asked,
// or "".
func bareRefusal(req Request) string {
	switch {
	case req.FromRaw == "":
		return fmt.Sprintf("%s is a bare repository, with no working tree to run the story's tests in. Run aayu verify in a clone; only the merge gate's pack job builds from a bare repository's commits (--from-raw with --pack-out). Nothing was built.", req.Dir)
	case req.PackOut == "":
		return fmt.Sprintf("%s is a bare repository: give --pack-out DIR, the folder outside it to write the pack in. Nothing was built.", req.Dir)
	}
	return ""
}

// readCommitted reads path as the commit rev holds it, refusing more than
// max bytes before reading them; a path the commit lacks is os.ErrNotExist.
func (r *runner) readCommitted(ctx context.Context, rev, path string, max int64) ([]byte, error) {
	obj := rev + ":" + filepath.ToSlash(path)
	size, err := r.t.git(ctx, r.req.Dir, "cat-file", "-s", obj)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", filepath.ToSlash(path), rev, os.ErrNotExist)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(size)), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git cat-file -s %s said %q", obj, strings.TrimSpace(string(size)))
	}
	if n > max {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d aayu reads", filepath.ToSlash(path), n, max)
	}
	return r.t.git(ctx, r.req.Dir, "cat-file", "blob", obj)
}

// packDir is where this run writes the pack: --pack-out, else the
// checkout's .aayudha/proof/STORY.
func (r Request) packDir() string {
	if r.PackOut != "" {
		return r.PackOut
	}
	return PackDir(r.Dir, r.Story)
}

// localIgnore is the .gitignore verify writes in a checkout's
// .aayudha/proof/: everything in the folder, itself included, is ignored.
const localIgnore = "# Written by aayu verify: local proof packs are never committed.\n*\n"

// keepOutOfIndex writes proofDir/.gitignore ignoring the whole folder, when
// there is none, so a pack verify writes in a checkout where aayu init has
// not run (no /.aayudha/proof/ line in the root .gitignore) stays out of a
// git add -A. A .gitignore already there is left as it is.
func keepOutOfIndex(proofDir string) error {
	if err := os.MkdirAll(proofDir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", proofDir, err)
	}
	f, err := os.OpenFile(filepath.Join(proofDir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("keeping %s out of git: %w", proofDir, err)
	}
	if _, err := f.WriteString(localIgnore); err != nil {
		f.Close()
		return fmt.Errorf("keeping %s out of git: %w", proofDir, err)
	}
	return f.Close()
}
