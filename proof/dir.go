package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
	folders := newPackFolders(root)
	defer folders.close()
	return verifyFolders(ctx, root.FS(), folders, opts, true)
}

// verifyFS is VerifyDir for any file system holding the same layout (the
// tests pass in-memory and lying ones). Artifacts are read by several
// goroutines at once, so fsys must allow concurrent Open and Lstat, as
// os.Root and fstest.MapFS do.
func verifyFS(ctx context.Context, fsys fs.FS, opts Options, sameFile bool) (*Report, error) {
	return verifyFolders(ctx, fsys, nil, opts, sameFile)
}

// verifyFolders is verifyFS with, for a pack folder on disk, its folders
// to hold open (nil: every artifact is looked at from fsys's root).
func verifyFolders(ctx context.Context, fsys fs.FS, folders *packFolders, opts Options, sameFile bool) (*Report, error) {
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
	// The careful checks of pack.json (duplicate-key scan, schema
	// validation) cost as much as hashing a good part of the artifacts, so
	// they run beside the hashing instead of before it. The hashing starts
	// from the strict decode of the same bytes, the decode that ends the
	// careful one, under the same list checks; its findings are used only
	// when the checks accept pack.json, and it is stopped as soon as they
	// refuse. The bytes are decoded once: the Pack hashed is the Pack
	// verified.
	hashCtx, stopHashing := context.WithCancel(ctx)
	defer stopHashing()
	checked := make(chan *DecodeError, 1)
	go func() {
		derr := checkPackJSON(raw, lim)
		if derr != nil {
			stopHashing()
		}
		checked <- derr
	}()
	p, strictErr := decodeStrict(raw)
	var (
		v      *verifier
		usable []bool
		early  []byteCheck
	)
	if strictErr == nil {
		// The checks that read no artifact, then the hashing, by the
		// verifier that reports them once pack.json is accepted.
		v = newVerifier(hashCtx, &Report{Pack: p}, opts, lim, fsys, sameFile)
		v.folders = folders
		usable = v.start()
		if checks, err := v.hashArtifacts(p, usable); err == nil {
			early = checks
		}
	}
	checkErr := <-checked
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verifying the pack stopped: %w", err)
	}
	sum := sha256.Sum256(raw)
	switch {
	case checkErr != nil:
		return &Report{PackSHA256: hex.EncodeToString(sum[:]), Problems: []Problem{checkErr.Problem()}}, nil
	case strictErr != nil:
		return &Report{PackSHA256: hex.EncodeToString(sum[:]), Problems: []Problem{strictErr.Problem()}}, nil
	}
	v.ctx = ctx
	v.r.PackSHA256 = hex.EncodeToString(sum[:])
	v.prehashed = early
	if err := v.finish(usable); err != nil {
		return nil, err
	}
	return v.r, nil
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
	// Read into a buffer of the size Lstat saw (plus one byte, to see
	// growth), not one grown by doubling: at 10,000 artifacts pack.json is
	// 2 MB. A file that grew meanwhile still reads whole, up to the cap.
	raw, err := readAllSized(io.LimitReader(f, lim.PackJSONBytes+1), info.Size()+1)
	if err != nil {
		return nil, &DecodeError{Code: CodeMissingFile, Err: err, Msg: "pack.json could not be read: " + describeFSError(err) + "."}
	}
	if int64(len(raw)) > lim.PackJSONBytes {
		return raw, &DecodeError{Code: CodeTooLarge, Msg: fmt.Sprintf("pack.json grew past %d bytes while it was read.", lim.PackJSONBytes)}
	}
	return raw, nil
}

// readAllSized is io.ReadAll into a buffer of size bytes to begin with,
// grown only when the reader gives more.
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 512))
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
