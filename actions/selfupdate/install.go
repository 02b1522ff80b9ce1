package selfupdate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/aayudha/aayu/model/untrusted"
)

// Installed is what Install did: the new binary runs and says Version.
type Installed struct {
	Version string // the first line the new binary's --version printed, neutralised
	OldKept string // where the old binary still is, when it could not be removed; "" when removed
}

// RunVersion runs path --version and returns its first line; an error
// when it does not exit 0 within a minute.
type RunVersion func(ctx context.Context, path string) (string, error)

// ExecVersion runs the binary at path with --version.
func ExecVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	err := cmd.Run()
	first, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	if err != nil {
		return first, fmt.Errorf("%v: %s", err, first)
	}
	return first, nil
}

// OldName is where the running binary is kept while the new one is tried.
func OldName(exe string) string { return exe + ".old" }

// Install replaces the running binary with f's proven bytes: written
// beside it and synced, the old one kept as NAME.old (a hard link, or a
// synced copy where links are not allowed), the new one renamed over it in
// one step and the folder synced; then the new binary must answer
// --version. If it does not, the old one is renamed back over it and the
// error is a Refusal saying so. run nil is ExecVersion.
func Install(ctx context.Context, cfg Config, f *Found, run RunVersion) (Installed, error) {
	if f == nil || f.UpToDate || len(f.bytes) == 0 {
		return Installed{}, errors.New("nothing proven to install")
	}
	if run == nil {
		run = ExecVersion
	}
	exe := cfg.Exe
	dir := filepath.Dir(exe)
	info, err := os.Stat(exe)
	if err != nil {
		return Installed{}, fmt.Errorf("reading the running aayu %s: %w", exe, err)
	}
	tmp, err := writeSynced(dir, f.bytes, info.Mode().Perm())
	if err != nil {
		return Installed{}, refuse("aayu could not write the new binary beside %s (%s); nothing was changed", exe, pathErrWords(err))
	}
	old := OldName(exe)
	if err := keepOld(exe, old); err != nil {
		os.Remove(tmp)
		return Installed{}, refuse("aayu could not keep the old binary as %s (%s), so it did not replace it; nothing was changed", old, pathErrWords(err))
	}
	if err := os.Rename(tmp, exe); err != nil {
		os.Remove(tmp)
		os.Remove(old)
		return Installed{}, refuse("aayu could not put the new binary in place of %s (%s); nothing was changed", exe, pathErrWords(err))
	}
	syncDir(dir)
	version, runErr := run(ctx, exe)
	if runErr != nil {
		if err := os.Rename(old, exe); err != nil {
			return Installed{}, fmt.Errorf("the new aayu did not run (%s) and putting the old one back failed (%w): the old binary is at %s; move it to %s by hand",
				untrusted.Line(runErr.Error()), err, old, exe)
		}
		syncDir(dir)
		return Installed{}, refuse("the new aayu (release %s) did not run: `aayu --version` failed (%s); the old aayu is back in place at %s",
			f.Tag, untrusted.Line(runErr.Error()), exe)
	}
	out := Installed{Version: untrusted.Line(version)}
	if err := os.Remove(old); err != nil {
		out.OldKept = old
	}
	return out, nil
}

// writeSynced writes b to a new file in dir with mode perm and syncs it to
// disk, returning its path.
func writeSynced(dir string, b []byte, perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, ".aayu-new-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if _, err := f.Write(b); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// keepOld makes old a second name of exe's bytes: a hard link, so the
// running binary is never without a name, or a synced copy where the file
// system allows no link.
func keepOld(exe, old string) error {
	if err := os.Remove(old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if os.Link(exe, old) == nil {
		return nil
	}
	src, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	dst, err := os.OpenFile(old, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		os.Remove(old)
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		os.Remove(old)
		return err
	}
	return dst.Close()
}

// syncDir makes the renames in dir durable; a file system that cannot
// sync a folder (some do not) is left as it is.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
