package ship

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// unzipPack unpacks the aayudha-pack zip at zipPath into dir (created) the
// way golang.org/x/mod/zip reads a module: a name must already be clean and
// relative (no "..", no backslash, not absolute), no name twice or twice up
// to case, no symlink or other irregular file, only pack.json and
// artifacts/…, no more entries or bytes than caps allow, and every file's
// bytes exactly as many as its header says (read through a limit of the
// declared size + 1). It refuses rather than repairs, and writes through an
// os.Root so nothing lands outside dir whatever the names say.
func unzipPack(zipPath, dir string, caps Caps) error {
	caps = caps.withDefaults()
	zr, err := zip.OpenReader(zipPath)
	if errors.Is(err, zip.ErrInsecurePath) {
		return fmt.Errorf("the zip holds a path that leaves its folder")
	}
	if err != nil {
		return fmt.Errorf("the zip cannot be read: %v", err)
	}
	defer zr.Close()
	if len(zr.File) > caps.Entries {
		return fmt.Errorf("the zip holds %d entries, more than ship accepts (%d)", len(zr.File), caps.Entries)
	}
	var total uint64
	files := map[string]bool{}
	folded := map[string]string{}
	for _, f := range zr.File {
		name := strings.TrimSuffix(f.Name, "/")
		isDir := strings.HasSuffix(f.Name, "/")
		if err := proof.CheckPath(name); err != nil {
			return fmt.Errorf("entry %q: %v", f.Name, err)
		}
		mode := f.Mode()
		switch {
		case isDir && mode.IsDir():
			continue
		case mode&fs.ModeSymlink != 0:
			return fmt.Errorf("entry %q is a symbolic link", f.Name)
		case isDir || !mode.IsRegular():
			return fmt.Errorf("entry %q is not a regular file", f.Name)
		}
		if name != "pack.json" && !strings.HasPrefix(name, "artifacts/") {
			return fmt.Errorf("entry %q lies outside pack.json and artifacts/", f.Name)
		}
		if files[name] {
			return fmt.Errorf("entry %q is listed twice", f.Name)
		}
		if other, ok := folded[strings.ToLower(name)]; ok {
			return fmt.Errorf("entries %q and %q differ only in case", other, f.Name)
		}
		files[name], folded[strings.ToLower(name)] = true, name
		total += f.UncompressedSize64
		if f.UncompressedSize64 > uint64(caps.Uncompressed) || total > uint64(caps.Uncompressed) {
			return fmt.Errorf("the zip's files add up to more than ship accepts (%d bytes)", caps.Uncompressed)
		}
	}
	for name := range files {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if files[d] {
				return fmt.Errorf("entry %q is both a file and a folder", d)
			}
		}
	}
	if !files["pack.json"] {
		return fmt.Errorf("the zip has no pack.json at its root")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if err := extract(root, f); err != nil {
			return err
		}
	}
	return nil
}

func extract(root *os.Root, f *zip.File) error {
	if d := path.Dir(f.Name); d != "." {
		if err := root.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("entry %q: %v", f.Name, err)
		}
	}
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("entry %q cannot be read: %v", f.Name, err)
	}
	defer rc.Close()
	out, err := root.OpenFile(f.Name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("entry %q: %v", f.Name, err)
	}
	declared := int64(f.UncompressedSize64)
	n, err := io.Copy(out, io.LimitReader(rc, declared+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("entry %q cannot be read: %v", f.Name, err)
	}
	if n != declared {
		return fmt.Errorf("entry %q holds other than the %d bytes its header says", f.Name, declared)
	}
	return nil
}
