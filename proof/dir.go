package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
)

// VerifyDir verifies the pack folder at dir: pack.json beside artifacts/P for
// each artifact path P, the layout of a local pack, an unzipped run artifact
// and a ledger copy alike. The folder is opened as an os.Root, so nothing
// outside it is ever read, and no symlink inside it is followed. The error
// is non-nil only when the folder cannot be opened or ctx ends.
func VerifyDir(ctx context.Context, dir string, opts Options) (*Report, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening pack folder %s: %w", dir, err)
	}
	defer root.Close()
	return verifyFS(ctx, root.FS(), opts, true)
}

// verifyFS is VerifyDir for any file system holding the same layout (the
// tests pass in-memory and lying ones). Artifacts are read by several
// goroutines at once, so fsys must allow concurrent Open and Lstat, as
// os.Root and fstest.MapFS do.
func verifyFS(ctx context.Context, fsys fs.FS, opts Options, sameFile bool) (*Report, error) {
	lim := opts.Limits.withDefaults()
	raw, derr := readPackJSON(fsys, lim)
	if derr != nil {
		r := &Report{Problems: []Problem{derr.Problem()}}
		if raw != nil {
			sum := sha256.Sum256(raw)
			r.PackSHA256 = hex.EncodeToString(sum[:])
		}
		return r, nil
	}
	// The careful decode (duplicate-key scan, schema validation) costs as
	// much as hashing a good part of the artifacts, so it runs beside the
	// hashing instead of before it. The hashing starts from a plain decode
	// of the same bytes, under the same list checks; its findings are used
	// only if the careful decode accepts pack.json and lists exactly the
	// same artifacts, and it is stopped as soon as that decode refuses.
	hashCtx, stopHashing := context.WithCancel(ctx)
	defer stopHashing()
	decoded := make(chan *Pack, 1)
	var decodeErr error
	go func() {
		p, err := DecodeLimited(raw, lim)
		if err != nil {
			decodeErr = err
			stopHashing()
		}
		decoded <- p
	}()
	early := hashEarly(hashCtx, raw, fsys, opts, lim, sameFile)
	p := <-decoded
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verifying the pack stopped: %w", err)
	}
	sum := sha256.Sum256(raw)
	if decodeErr != nil {
		return &Report{PackSHA256: hex.EncodeToString(sum[:]), Problems: []Problem{decodeErr.(*DecodeError).Problem()}}, nil
	}
	r := &Report{Pack: p, PackSHA256: hex.EncodeToString(sum[:])}
	v := newVerifier(ctx, r, opts, lim, fsys, sameFile)
	if early.sameAs(v) {
		v.prehashed = early.checks
	}
	if err := v.run(); err != nil {
		return nil, err
	}
	return r, nil
}

// earlyHash is what the workers found while pack.json was being checked,
// and the artifact list and kept paths they worked from.
type earlyHash struct {
	arts   []Artifact
	usable []bool
	keep   map[string]bool
	checks []byteCheck
}

// hashEarly hashes the artifacts a plain decode of raw lists, after the
// same list checks (paths, duplicates, caps) Verify makes before reading
// anything. It returns nil when raw does not decode plainly or ctx ended.
func hashEarly(ctx context.Context, raw []byte, fsys fs.FS, opts Options, lim Limits, sameFile bool) *earlyHash {
	var quick Pack
	if err := json.Unmarshal(raw, &quick); err != nil || len(quick.Artifacts) > lim.Artifacts || ctx.Err() != nil {
		return nil
	}
	v := newVerifier(ctx, &Report{Pack: &quick}, opts, lim, fsys, sameFile)
	usable := v.checkArtifactList(&quick)
	checks, err := v.hashArtifacts(&quick, usable)
	if err != nil {
		return nil
	}
	return &earlyHash{arts: quick.Artifacts, usable: usable, keep: v.keep, checks: checks}
}

// sameAs reports whether the early findings answer for v's pack: the
// same artifacts in the same order, judged usable alike, with the same
// bytes kept as test evidence.
func (e *earlyHash) sameAs(v *verifier) bool {
	p := v.r.Pack
	if e == nil || len(e.arts) != len(p.Artifacts) || !maps.Equal(e.keep, v.keep) {
		return false
	}
	for i, a := range p.Artifacts {
		b := e.arts[i]
		if a.Path != b.Path || a.Kind != b.Kind || a.SHA256 != b.SHA256 || a.Size != b.Size || a.Store != b.Store ||
			(a.Tombstone == nil) != (b.Tombstone == nil) {
			return false
		}
	}
	scratch := newVerifier(v.ctx, &Report{Pack: p}, v.opts, v.lim, v.fsys, v.sameFile)
	return slices.Equal(scratch.checkArtifactList(p), e.usable)
}

// ReadPackDir reads and decodes the pack.json of the pack folder at dir, with
// the same care as VerifyDir, without checking any artifact. It returns the
// raw bytes too, whose SHA-256 is the pack's identity.
func ReadPackDir(dir string, lim Limits) (*Pack, []byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("opening pack folder %s: %w", dir, err)
	}
	defer root.Close()
	raw, derr := readPackJSON(root.FS(), lim.withDefaults())
	if derr != nil {
		return nil, raw, derr
	}
	p, err := DecodeLimited(raw, lim)
	if err != nil {
		return nil, raw, err
	}
	return p, raw, nil
}

// readPackJSON reads pack.json if it is a regular file no larger than the
// cap, reading at most cap+1 bytes whatever its size claims.
func readPackJSON(fsys fs.FS, lim Limits) ([]byte, *DecodeError) {
	info, err := fs.Lstat(fsys, packFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &DecodeError{Code: CodeMissingFile, Err: err, Msg: "The pack folder has no pack.json."}
	case err != nil:
		return nil, &DecodeError{Code: CodeMissingFile, Err: err, Msg: "pack.json could not be read: " + describeFSError(err) + "."}
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, &DecodeError{Code: CodeNotRegular, Msg: "pack.json is a symlink; it is refused, never followed."}
	case !info.Mode().IsRegular():
		return nil, &DecodeError{Code: CodeNotRegular, Msg: "pack.json is not a regular file (" + describeMode(info.Mode()) + ")."}
	case info.Size() > lim.PackJSONBytes:
		return nil, &DecodeError{Code: CodeTooLarge, Msg: fmt.Sprintf("pack.json is %d bytes; aayu reads at most %d.", info.Size(), lim.PackJSONBytes)}
	}
	f, err := fsys.Open(packFile)
	if err != nil {
		return nil, &DecodeError{Code: CodeMissingFile, Err: err, Msg: "pack.json could not be opened: " + describeFSError(err) + "."}
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, lim.PackJSONBytes+1))
	if err != nil {
		return nil, &DecodeError{Code: CodeMissingFile, Err: err, Msg: "pack.json could not be read: " + describeFSError(err) + "."}
	}
	if int64(len(raw)) > lim.PackJSONBytes {
		return raw, &DecodeError{Code: CodeTooLarge, Msg: fmt.Sprintf("pack.json grew past %d bytes while it was read.", lim.PackJSONBytes)}
	}
	return raw, nil
}
