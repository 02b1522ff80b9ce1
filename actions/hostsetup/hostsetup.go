// Package hostsetup reads and writes the agent hosts' files in a project
// for `aayu hooks install` and `aayu hooks status`: it finds the
// checkout's root, reads every target file (refusing one reached through
// a symbolic link, one that is not a regular file, or one too large) and
// asks model/hostconfig what each entry makes of it, before anything is
// written; then writes each changed file whole, by rename. It writes only
// files on this machine, never GitHub.
package hostsetup

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/aayudha/aayu/model/hostconfig"
	"github.com/aayudha/aayu/proof"
)

// MaxFileBytes is the largest settings file aayu reads: a host's settings
// are a few kilobytes; a file far larger is not one aayu should rewrite.
const MaxFileBytes = 1 << 20

// FindRoot is the root of the git checkout dir is in: the nearest folder
// at or above dir holding .git (a folder, or a worktree's file).
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not inside a git checkout: aayu writes the hosts' files into a project's root, so run it inside the project", dir)
		}
	}
}

// Refusal is a file aayu will not write into, and why.
type Refusal struct {
	Path   string
	Reason string
}

// RefusedError lists every file refused; nothing was written.
type RefusedError struct{ Refusals []Refusal }

func (e *RefusedError) Error() string {
	var parts []string
	for _, r := range e.Refusals {
		parts = append(parts, r.Path+": "+r.Reason)
	}
	return strings.Join(parts, "; ")
}

// Entry is one host's part in a plan or a status: its edit and its state
// in the file as it is now.
type Entry struct {
	hostconfig.Edit
	State hostconfig.State
	Note  string
}

// File is one file a plan writes: its bytes as read and as they will be.
type File struct {
	Path   string // relative to the root, in slashes
	Exists bool
	Before []byte
	After  []byte
}

// Plan is what install will do in Root: every entry with its state, and
// the files that change.
type Plan struct {
	Root    string
	Entries []Entry
	Files   []File
}

// Prepare reads every file the hosts' entries go into and merges them in
// memory. A file that cannot be read or merged into is a Refusal; with
// any refusal the plan is an error (*RefusedError) naming every one of
// them, and nothing may be written.
func Prepare(root string, hosts []hostconfig.Host) (Plan, error) {
	plan := Plan{Root: root}
	files := map[string]*File{}
	var order []string
	var refused []Refusal
	bad := map[string]bool{}
	for _, h := range hosts {
		for _, e := range hostconfig.Edits(h) {
			if bad[e.Path] {
				continue
			}
			f, ok := files[e.Path]
			if !ok {
				b, exists, err := readTarget(root, e.Path)
				if err != nil {
					refused = append(refused, Refusal{e.Path, err.Error()})
					bad[e.Path] = true
					continue
				}
				f = &File{Path: e.Path, Exists: exists, Before: b, After: b}
				files[e.Path] = f
				order = append(order, e.Path)
			}
			// A file that two entries share (Gemini CLI's settings) takes
			// the second on top of the first.
			r, err := e.Apply(f.After, f.Exists || !bytes.Equal(f.After, f.Before))
			if err != nil {
				refused = append(refused, Refusal{e.Path, "cannot be merged into: " + err.Error()})
				bad[e.Path] = true
				continue
			}
			f.After = r.Out
			plan.Entries = append(plan.Entries, Entry{Edit: e, State: r.State, Note: r.Note})
		}
	}
	if len(refused) > 0 {
		return Plan{Root: root}, &RefusedError{Refusals: refused}
	}
	for _, p := range order {
		if f := files[p]; !f.Exists || !bytes.Equal(f.Before, f.After) {
			plan.Files = append(plan.Files, *f)
		}
	}
	return plan, nil
}

// Write writes the plan's files. Each is checked again first (no link on
// its way, its bytes still those Prepare read), then written whole to a
// temporary file beside it and renamed over it, so a host never reads a
// half-written settings file. written names the files written before any
// error.
func Write(plan Plan) (written []string, err error) {
	for _, f := range plan.Files {
		now, exists, err := readTarget(plan.Root, f.Path)
		if err != nil {
			return written, fmt.Errorf("%s: %w", f.Path, err)
		}
		if exists != f.Exists || !bytes.Equal(now, f.Before) {
			return written, fmt.Errorf("%s changed while aayu was writing; run aayu hooks install again", f.Path)
		}
		if err := writeFile(plan.Root, f); err != nil {
			return written, fmt.Errorf("%s: %w", f.Path, err)
		}
		written = append(written, f.Path)
	}
	return written, nil
}

// Status is every host's entries and their state in root's files now. A
// file that cannot be read or parsed leaves its entries Missing with the
// reason in Note.
func Status(root string) []Entry {
	var out []Entry
	for _, h := range hostconfig.Hosts() {
		for _, e := range hostconfig.Edits(h) {
			b, exists, err := readTarget(root, e.Path)
			if err == nil {
				var r hostconfig.Result
				if r, err = e.Apply(b, exists); err == nil {
					out = append(out, Entry{Edit: e, State: r.State, Note: r.Note})
					continue
				}
			}
			out = append(out, Entry{Edit: e, State: hostconfig.Missing, Note: "cannot be read: " + err.Error()})
		}
	}
	return out
}

// readTarget reads root/rel. Every folder on the way and the file itself
// must be what they seem: a symbolic link anywhere below root is refused
// (writing through it could land outside the project, or in a file the
// person did not mean), as is a file that is not regular or is too large.
// exists is false when the file (or a folder on its way) is not there.
func readTarget(root, rel string) (b []byte, exists bool, err error) {
	parts := strings.Split(rel, "/")
	p := root
	for i, part := range parts {
		p = filepath.Join(p, part)
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		last := i == len(parts)-1
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			return nil, false, fmt.Errorf("%s is a symbolic link; aayu writes no host's settings through a link", filepath.ToSlash(filepath.Join(parts[:i+1]...)))
		case !last && !info.IsDir():
			return nil, false, fmt.Errorf("%s is not a folder", filepath.ToSlash(filepath.Join(parts[:i+1]...)))
		case last && !info.Mode().IsRegular():
			return nil, false, errors.New("it is not a regular file")
		case last && info.Size() > MaxFileBytes:
			return nil, false, fmt.Errorf("it is larger than %d bytes", MaxFileBytes)
		}
	}
	f, err := proof.OpenRegular(p)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err = io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > MaxFileBytes {
		return nil, false, fmt.Errorf("it is larger than %d bytes", MaxFileBytes)
	}
	return b, true, nil
}

// writeFile writes f.After to root/f.Path by a temporary file and a
// rename, creating the folders on its way (readTarget checked that none
// of those present is a link) and keeping an existing file's mode.
func writeFile(root string, f File) error {
	path := filepath.Join(root, filepath.FromSlash(f.Path))
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if info, err := os.Lstat(path); err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, ".aayu-hooks-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone already once renamed
	if _, err := tmp.Write(f.After); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
