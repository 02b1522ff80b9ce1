package proof

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// artifactsDir is the folder inside a pack that holds artifact P as
// artifactsDir/P.
const (
	artifactsDir = "artifacts"
	packFile     = "pack.json"
)

// byteCheck is the outcome of looking for one artifact's bytes.
type byteCheck struct {
	present bool   // a regular file was found at the path
	code    Code   // the problem, when there is one
	reason  string // the problem in words, without the path
	lfs     bool   // matched through a Git LFS pointer, not the bytes
	hashed  bool   // every byte was read here and matched sha256 and size
	content []byte // the bytes, kept only for cited test evidence
}

// checkArtifactBytes records one verdict per artifact in pack order, so the
// report and its problems are the same whatever order the workers finish
// in. The bytes were usually hashed already, while pack.json was being
// schema-checked (see verifyFS); otherwise they are hashed here.
func (v *verifier) checkArtifactBytes(p *Pack, usable []bool) error {
	checks := v.prehashed
	if checks == nil {
		var err error
		if checks, err = v.hashArtifacts(p, usable); err != nil {
			return err
		}
	}
	v.r.Artifacts = slices.Grow(v.r.Artifacts, len(p.Artifacts))
	for i, a := range p.Artifacts {
		res := ArtifactResult{Artifact: a}
		if notStored(a) {
			v.r.ArtifactsNotStored++
		}
		if usable[i] {
			res.Verdict, res.Reason = v.judge(a, checks[i])
			if checks[i].hashed && checks[i].code == "" {
				v.r.FilesHashed++
				v.r.BytesHashed += a.Size
				// store none (or a tombstone) says the bytes are not part of
				// the pack: bytes found beside it anyway were checked, but
				// never prove, or a pack could cite a file it declares it
				// does not keep.
				if !notStored(a) {
					v.hashed[a.Path] = true
					if checks[i].content != nil {
						v.content[a.Path] = checks[i].content
					}
				}
			}
		} else {
			res.Verdict, res.Reason = VerdictFailed, "refused before reading; see the problems"
		}
		v.r.Artifacts = append(v.r.Artifacts, res)
	}
	return nil
}

// hashArtifacts reads every usable artifact's bytes on the small pool of
// workers (see hashpool.go), reporting progress on the calling goroutine.
func (v *verifier) hashArtifacts(p *Pack, usable []bool) ([]byteCheck, error) {
	prog := Progress{TotalFiles: len(p.Artifacts)}
	var toRead []int
	for i, a := range p.Artifacts {
		if usable[i] {
			toRead = append(toRead, i)
			prog.TotalBytes += max(a.Size, 0)
		}
	}
	report := func() {
		if v.opts.Progress != nil {
			v.opts.Progress(prog)
		}
	}
	// Artifacts refused before reading are done at once.
	for i := range p.Artifacts {
		if !usable[i] {
			prog.DoneFiles++
			report()
		}
	}
	checks, err := v.lookAtAll(p.Artifacts, toRead, func(i int) {
		prog.DoneFiles++
		prog.DoneBytes += p.Artifacts[i].Size
		report()
	})
	if err != nil {
		return nil, fmt.Errorf("verifying the pack for story %d stopped: %w", p.Story, err)
	}
	return checks, nil
}

// judge turns what was found on disk into a verdict, adding a problem when
// the artifact fails.
func (v *verifier) judge(a Artifact, bc byteCheck) (ArtifactVerdict, string) {
	if bc.code != "" {
		v.problem(bc.code, a.Path, 0, "Artifact %q %s.", a.Path, bc.reason)
		return VerdictFailed, bc.reason
	}
	if bc.present {
		if bc.lfs {
			return VerdictVerified, "Git LFS pointer matches; its bytes were not hashed here"
		}
		return VerdictVerified, ""
	}
	switch {
	case notStored(a):
		return VerdictNotStored, "only its hash and size are kept"
	case a.Store == StoreBucket:
		return VerdictUnchecked, "in the media bucket, not fetched"
	default:
		reason := "is missing from the pack folder"
		v.problem(CodeMissingFile, a.Path, 0, "Artifact %q %s.", a.Path, reason)
		return VerdictFailed, reason
	}
}

// lookAt finds artifact a's file without following any symlink and, when it
// is there, checks its size and then its hash, reading through buf. Only an
// ended context is an error; everything else is a finding. It only reads the
// verifier, so several workers may call it at once, each with its own buf.
func (v *verifier) lookAt(a Artifact, buf *hashBuffer) (byteCheck, error) {
	if v.fsys == nil {
		return byteCheck{}, nil
	}
	name := artifactsDir + "/" + a.Path
	if v.folders != nil {
		// The usual case, a regular file of the declared size in a real
		// folder, is looked at where it is; anything else is looked at
		// again the slow way below, which says what is wrong.
		if dir, base, ok := splitFolder(name); ok {
			if sub := v.folders.folder(v.fsys, dir, &v.realDirs); sub != nil {
				if info, err := fs.Lstat(sub, base); err == nil && info.Mode().IsRegular() && info.Size() == a.Size {
					return v.hashFile(sub, base, info, a, buf)
				}
			}
		}
	}
	info, bc := lstatNoSymlinks(v.fsys, name, &v.realDirs)
	if bc.code != "" || info == nil {
		return bc, nil
	}
	if info.Size() != a.Size {
		if a.Store == StoreLFS && info.Size() < lfsPointerMax {
			if ok, err := v.matchesLFSPointer(name, a); err != nil || ok {
				return byteCheck{present: true, lfs: ok}, err
			}
		}
		return byteCheck{present: true, code: CodeSizeMismatch, reason: fmt.Sprintf(
			"is %d bytes but pack.json says %d", info.Size(), a.Size)}, nil
	}
	return v.hashFile(v.fsys, name, info, a, buf)
}

// lstatNoSymlinks checks every element of name with Lstat: each folder must be
// a real folder and the file a regular file. A symlink anywhere is refused and
// never followed. A nil FileInfo with no code means the file is absent.
// realDirs remembers the folders already found real in this verification,
// so a thousand files in one folder cost one look at it, not a thousand.
func lstatNoSymlinks(fsys fs.FS, name string, realDirs *sync.Map) (fs.FileInfo, byteCheck) {
	elems := strings.Split(name, "/")
	for i := range elems {
		prefix := strings.Join(elems[:i+1], "/")
		last := i == len(elems)-1
		if !last {
			if _, ok := realDirs.Load(prefix); ok {
				continue
			}
		}
		info, err := fs.Lstat(fsys, prefix)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, byteCheck{}
		}
		if err != nil {
			return nil, byteCheck{code: CodeMissingFile, reason: "could not be read: " + describeFSError(err)}
		}
		if !last && info.Mode().IsDir() {
			realDirs.Store(prefix, info)
		}
		switch mode := info.Mode(); {
		case mode&fs.ModeSymlink != 0:
			if symlinkLeaves(fsys, prefix) {
				return nil, byteCheck{code: CodeEscapingPath, reason: fmt.Sprintf(
					"is reached through the symlink %q, which points outside the pack; it was not followed", prefix)}
			}
			return nil, byteCheck{code: CodeNotRegular, reason: fmt.Sprintf(
				"is reached through the symlink %q; symlinks in a pack are refused, never followed", prefix)}
		case !last && !mode.IsDir():
			return nil, byteCheck{}
		case last && !mode.IsRegular():
			return nil, byteCheck{code: CodeNotRegular, reason: "is not a regular file (" + describeMode(mode) + "); only regular files count"}
		case last:
			return info, byteCheck{}
		}
	}
	return nil, byteCheck{}
}

// symlinkLeaves reads (never follows) the symlink at name and reports
// whether its target lies outside the pack folder, or cannot be read.
func symlinkLeaves(fsys fs.FS, name string) bool {
	target, err := fs.ReadLink(fsys, name)
	if err != nil || target == "" || strings.HasPrefix(target, "/") || strings.Contains(target, `\`) || hasDriveLetter(target) {
		return true
	}
	joined := path.Join(path.Dir(name), target)
	return joined == ".." || strings.HasPrefix(joined, "../")
}

// hashFile opens the file name in fsys (the pack, or the folder it is in),
// makes sure it is still the one inspected, and
// hashes it through a reader limited to the declared size plus one byte,
// streaming it through buf so a file of any size costs only buf's memory.
func (v *verifier) hashFile(fsys fs.FS, name string, info fs.FileInfo, a Artifact, buf *hashBuffer) (byteCheck, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return byteCheck{present: true, code: CodeMissingFile, reason: "could not be opened: " + describeFSError(err)}, nil
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil || !opened.Mode().IsRegular() || (v.sameFile && !os.SameFile(info, opened)) {
		return byteCheck{present: true, code: CodeNotRegular, reason: "changed while it was being checked"}, nil
	}
	h := buf.h
	h.Reset()
	var sink io.Writer = h
	var kept *bytes.Buffer
	if v.keep[a.Path] && a.Size <= maxEvidenceRead {
		kept = bytes.NewBuffer(make([]byte, 0, a.Size+1))
		sink = io.MultiWriter(h, kept)
	}
	var head *headWriter
	if a.Kind == KindRecording {
		// A recording's first bytes are kept to see that it is WebM.
		head = &headWriter{max: recordingHeadBytes}
		sink = io.MultiWriter(sink, head)
	}
	n, err := io.CopyBuffer(sink, io.LimitReader(ctxReader{v.ctx, f}, a.Size+1), buf.buf)
	if err != nil {
		if ctxErr := v.ctx.Err(); ctxErr != nil {
			return byteCheck{}, fmt.Errorf("artifact %q was being read: %w", a.Path, ctxErr)
		}
		return byteCheck{present: true, code: CodeMissingFile, reason: "could not be read: " + describeFSError(err)}, nil
	}
	if n != a.Size {
		return byteCheck{present: true, code: CodeSizeMismatch, reason: fmt.Sprintf(
			"gave %s bytes when read but pack.json says %d", readCount(n, a.Size), a.Size)}, nil
	}
	var sum [sha256.Size]byte
	if got := h.Sum(sum[:0]); !hexEqual(got, a.SHA256) {
		got := hex.EncodeToString(got)
		return byteCheck{present: true, code: CodeHashMismatch, reason: fmt.Sprintf(
			"has SHA-256 %s but pack.json says %s; its bytes were changed", hashInWords(got), hashInWords(a.SHA256))}, nil
	}
	if head != nil {
		if why := RecordingFault(head.b, a.Size); why != "" {
			return byteCheck{present: true, code: CodeNotMediaKind, reason: why}, nil
		}
	}
	bc := byteCheck{present: true, hashed: true}
	if kept != nil {
		bc.content = kept.Bytes()
	}
	return bc, nil
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	b   []byte
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if n := w.max - len(w.b); n > 0 {
		w.b = append(w.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

// hexEqual reports whether sum, written in lowercase hex, is want: the
// same comparison as hex.EncodeToString(sum) == want, without the string.
func hexEqual(sum []byte, want string) bool {
	const digits = "0123456789abcdef"
	if len(want) != 2*len(sum) {
		return false
	}
	for i, b := range sum {
		if want[2*i] != digits[b>>4] || want[2*i+1] != digits[b&0x0f] {
			return false
		}
	}
	return true
}

func readCount(n, declared int64) string {
	if n > declared {
		return "more than " + strconv.FormatInt(declared, 10)
	}
	return strconv.FormatInt(n, 10)
}

// lfsPointerMax is larger than any Git LFS pointer file.
const lfsPointerMax = 1024

// matchesLFSPointer accepts a pre-0.2 LFS artifact whose folder holds the
// pointer rather than the smudged bytes, when the pointer names exactly the
// declared hash and size.
func (v *verifier) matchesLFSPointer(name string, a Artifact) (bool, error) {
	f, err := v.fsys.Open(name)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	var oid, size string
	sc := bufio.NewScanner(io.LimitReader(f, lfsPointerMax))
	for i := 0; sc.Scan(); i++ {
		line := sc.Text()
		if i == 0 && line != "version https://git-lfs.github.com/spec/v1" {
			return false, nil
		}
		if rest, ok := strings.CutPrefix(line, "oid sha256:"); ok {
			oid = rest
		}
		if rest, ok := strings.CutPrefix(line, "size "); ok {
			size = rest
		}
	}
	return oid == a.SHA256 && size == strconv.FormatInt(a.Size, 10), nil
}

// ctxReader stops a long hash when the caller gives up.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	default:
		return "mode " + m.String()
	}
}

// describeFSError drops the path from a PathError; messages name the
// artifact themselves.
func describeFSError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// notStored reports whether the pack keeps only the artifact's hash and size:
// store none, or a tombstone from the 0.1 purge.
func notStored(a Artifact) bool { return a.Store == StoreNone || a.Tombstone != nil }
