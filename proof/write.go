package proof

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ArtifactFromBytes describes b as a git-stored artifact at path.
func ArtifactFromBytes(path, kind string, b []byte) Artifact {
	sum := sha256.Sum256(b)
	return Artifact{Path: path, Kind: kind, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b)), Store: StoreGit}
}

// WriteLocal writes a pack folder: dir/pack.json and dir/artifacts/P for
// each artifact path P given bytes in files. It refuses, before writing
// anything, a path that is not clean, a path listed twice, bytes that do
// not match the pack's sha256 and size, a file the pack does not list, and a
// git or lfs artifact without bytes (the folder would not verify).
//
// Everything is built in a sibling temporary folder, each file and folder
// fsynced, then renamed into place; an existing dir is moved aside first
// and removed only once the new one is in. A crash therefore leaves dir as
// the old pack, the new pack, or absent, never half a pack. It returns the
// SHA-256 of the pack.json written.
func WriteLocal(dir string, p *Pack, files map[string][]byte) (packSHA256 string, err error) {
	return writeLocal(dir, p, files, nil)
}

// writeLocal is WriteLocal with a hook called at each step, so tests can
// fail the write part-way and look at the folder between steps.
func writeLocal(dir string, p *Pack, files map[string][]byte, step func(name string) error) (string, error) {
	if step == nil {
		step = func(string) error { return nil }
	}
	if p == nil {
		return "", errors.New("writing the local pack: no pack given")
	}
	if err := checkPackFiles(p, files); err != nil {
		return "", fmt.Errorf("writing the local pack to %s: nothing was written: %w", dir, err)
	}
	// Encode, not json.Marshal: a nil list must be written as [], never as
	// null, which Decode refuses.
	packJSON, err := Encode(p)
	if err != nil {
		return "", fmt.Errorf("writing the local pack to %s: %w", dir, err)
	}

	dir = filepath.Clean(dir)
	if info, err := os.Lstat(dir); err == nil && !info.IsDir() {
		return "", fmt.Errorf("writing the local pack: %s exists and is not a folder; nothing was written", dir)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("writing the local pack: creating %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, ".pack-*")
	if err != nil {
		return "", fmt.Errorf("writing the local pack: creating a temporary folder beside %s: %w", dir, err)
	}
	if err := buildPackDir(tmp, packJSON, files, step); err != nil {
		_ = os.RemoveAll(tmp)
		return "", fmt.Errorf("writing the local pack to %s: %w; the previous pack, if any, is untouched", dir, err)
	}
	if err := swapDir(tmp, dir, step); err != nil {
		_ = os.RemoveAll(tmp)
		return "", fmt.Errorf("writing the local pack to %s: %w", dir, err)
	}
	sum := sha256.Sum256(packJSON)
	return hex.EncodeToString(sum[:]), nil
}

// checkPackFiles refuses what would make the written folder lie or fail.
func checkPackFiles(p *Pack, files map[string][]byte) error {
	var problems []string
	declared := make(map[string]Artifact, len(p.Artifacts))
	folded := make(map[string]string, len(p.Artifacts))
	for _, a := range p.Artifacts {
		_, dup := declared[a.Path]
		declared[a.Path] = a
		if err := CheckPath(a.Path); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if dup {
			problems = append(problems, fmt.Sprintf("artifact %s is listed twice", a.Path))
			continue
		}
		if other, clash := folded[foldName(a.Path)]; clash {
			problems = append(problems, fmt.Sprintf("artifacts %q and %q differ only in case or Unicode normalisation", other, a.Path))
			continue
		}
		folded[foldName(a.Path)] = a.Path
		b, given := files[a.Path]
		switch {
		case !given && (a.Store == StoreGit || a.Store == StoreLFS) && a.Tombstone == nil:
			problems = append(problems, fmt.Sprintf("artifact %s (store %s) has no bytes to write, so the pack would not verify", a.Path, a.Store))
		case !given:
		case int64(len(b)) != a.Size:
			problems = append(problems, fmt.Sprintf("artifact %s: the bytes are %d long, pack.json says %d", a.Path, len(b), a.Size))
		default:
			if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != a.SHA256 {
				problems = append(problems, fmt.Sprintf("artifact %s: the bytes have sha256 %s, pack.json says %s", a.Path, hex.EncodeToString(sum[:]), a.SHA256))
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if _, ok := declared[name]; !ok {
			problems = append(problems, fmt.Sprintf("file %q is not an artifact of the pack", clipText(name)))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// buildPackDir writes pack.json and the artifacts into the empty folder tmp
// and fsyncs every file and folder in it.
func buildPackDir(tmp string, packJSON []byte, files map[string][]byte, step func(string) error) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(tmp, "artifacts", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("creating the folder for artifact %s: %w", name, err)
		}
		if err := writeFileSynced(full, files[name]); err != nil {
			return fmt.Errorf("writing artifact %s: %w", name, err)
		}
		if err := step("artifact " + name); err != nil {
			return err
		}
	}
	if err := writeFileSynced(filepath.Join(tmp, "pack.json"), packJSON); err != nil {
		return fmt.Errorf("writing pack.json: %w", err)
	}
	if err := step("pack.json"); err != nil {
		return err
	}
	// Folders are synced deepest first so each entry is durable before the
	// folder that names it.
	var dirs []string
	err := filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("listing the folders written: %w", err)
	}
	for _, d := range slices.Backward(dirs) {
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return step("synced")
}

// swapDir puts the complete folder tmp at dir. An existing dir is renamed
// aside, then tmp renamed in, then the old one removed; if the second
// rename fails the old one is put back.
func swapDir(tmp, dir string, step func(string) error) error {
	parent := filepath.Dir(dir)
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("moving the previous pack aside: %w; the previous pack is untouched", err)
		}
	}
	err := step("old moved aside")
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		if old != "" {
			if rerr := os.Rename(old, dir); rerr != nil {
				return fmt.Errorf("putting the new pack in place: %w; and the previous pack could not be put back, it is at %s: %v", err, old, rerr)
			}
			return fmt.Errorf("putting the new pack in place: %w; the previous pack was put back", err)
		}
		return fmt.Errorf("putting the new pack in place: %w", err)
	}
	// The new pack is in place; the old one goes whatever else happens.
	syncErr := syncDir(parent)
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("the new pack is in place, but removing the previous one at %s failed: %w", old, err)
		}
	}
	return syncErr
}

func writeFileSynced(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

func syncDir(name string) error {
	d, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("opening folder %s to sync it: %w", name, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing folder %s: %w", name, err)
	}
	return nil
}
