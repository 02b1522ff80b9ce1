package proof

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// ErrUnsafeZip is wrapped by every refusal of ExtractZip: the archive is
// not one aayu unpacks, whatever its bytes would have said.
var ErrUnsafeZip = errors.New("unsafe zip")

// ZipCaps bound what ExtractZip accepts, checked from the central directory
// before anything is written. A zero field means its default.
type ZipCaps struct {
	Entries    int   // most entries (files and folders); default DefaultArtifacts+16
	TotalBytes int64 // sum of the declared sizes; default DefaultTotalBytes
	FileBytes  int64 // largest declared size of one file; default TotalBytes
	// Ratio is the most one file over 1 MiB may inflate (uncompressed over
	// compressed size); ExtractPackZip only. Default DefaultZipRatio.
	Ratio int
}

func (c ZipCaps) withDefaults() ZipCaps {
	if c.Entries <= 0 {
		c.Entries = DefaultArtifacts + 16
	}
	if c.TotalBytes <= 0 {
		c.TotalBytes = DefaultTotalBytes
	}
	if c.FileBytes <= 0 || c.FileBytes > c.TotalBytes {
		c.FileBytes = c.TotalBytes
	}
	return c
}

// ZipError says which entry was refused and why.
type ZipError struct {
	Name   string // the entry's name as the archive gives it; "" for the whole archive
	Reason string
}

func (e *ZipError) Error() string {
	if e.Name == "" {
		return "the zip is refused: " + e.Reason
	}
	return fmt.Sprintf("the zip entry %s is refused: %s", escapeControls(fmt.Sprintf("%q", e.Name)), e.Reason)
}

func (e *ZipError) Unwrap() error { return ErrUnsafeZip }

// checkZipEntries applies every rule that needs only the central directory
// and returns the regular files to write, in archive order; unpackInto
// writes them. Together they read archives the way golang.org/x/mod/zip
// reads a module, refusing rather than repairing:
//
//   - a name must already be clean, relative and "/"-separated (CheckPath):
//     no absolute name, no "." or ".." element, no backslash, no control
//     character;
//   - no name twice, and no two names equal up to case (they would land on
//     one file on a case-insensitive disk), nor a file where another entry
//     needs a folder;
//   - only regular files and folders: a symlink, device or other irregular
//     entry is refused;
//   - the entry count, each declared size and their total are checked against
//     caps before anything is written;
//   - each file is read through a limit of its declared size + 1, so a size
//     that lies in either direction is caught (and archive/zip checks the CRC).
//
// Everything is written through an os.Root on dir with O_EXCL, so nothing
// lands outside dir and nothing is overwritten. On any refusal or failure dir
// is removed again: a half-unpacked archive is never left behind.
func checkZipEntries(entries []*zip.File, caps ZipCaps) ([]*zip.File, error) {
	if len(entries) > caps.Entries {
		return nil, &ZipError{Reason: fmt.Sprintf("it holds %d entries, more than the %d aayu accepts", len(entries), caps.Entries)}
	}
	var (
		files   []*zip.File
		total   uint64
		names   = map[string]bool{}   // exact names of files and folders
		folded  = map[string]string{} // case-folded name -> name as given
		isDir   = map[string]bool{}
		parents = map[string]bool{} // folders some entry needs
	)
	for _, f := range entries {
		dirEntry := strings.HasSuffix(f.Name, "/")
		name := strings.TrimSuffix(f.Name, "/")
		if err := CheckPath(name); err != nil {
			var pe *PathError
			if errors.As(err, &pe) {
				return nil, &ZipError{Name: f.Name, Reason: pe.Reason}
			}
			return nil, &ZipError{Name: f.Name, Reason: err.Error()}
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, &ZipError{Name: f.Name, Reason: "it is a symbolic link; aayu never unpacks one"}
		case dirEntry && mode.IsDir():
		case dirEntry || mode.IsDir() || !mode.IsRegular():
			return nil, &ZipError{Name: f.Name, Reason: fmt.Sprintf("it is not a regular file (mode %v)", mode.Type())}
		}
		if names[name] {
			return nil, &ZipError{Name: f.Name, Reason: "the name is listed twice"}
		}
		fold := foldName(name)
		if other, ok := folded[fold]; ok {
			return nil, &ZipError{Name: f.Name, Reason: fmt.Sprintf("it differs from %q only in case or Unicode normalisation", other)}
		}
		names[name], folded[fold], isDir[name] = true, name, dirEntry
		for p := path.Dir(name); p != "."; p = path.Dir(p) {
			parents[p] = true
		}
		if dirEntry {
			continue
		}
		if f.UncompressedSize64 > uint64(caps.FileBytes) {
			return nil, &ZipError{Name: f.Name, Reason: fmt.Sprintf("it declares %d bytes, more than the %d aayu accepts for one file", f.UncompressedSize64, caps.FileBytes)}
		}
		total += f.UncompressedSize64
		if total > uint64(caps.TotalBytes) {
			return nil, &ZipError{Reason: fmt.Sprintf("its files declare more than the %d bytes aayu accepts in all", caps.TotalBytes)}
		}
		files = append(files, f)
	}
	for p := range parents {
		if names[p] && !isDir[p] {
			return nil, &ZipError{Name: p, Reason: "it is a file, but other entries need a folder by that name"}
		}
	}
	// A folder needed under two spellings would also collide on disk.
	for p := range parents {
		if other, ok := folded[foldName(p)]; ok && other != p {
			return nil, &ZipError{Name: p, Reason: fmt.Sprintf("it differs from %q only in case or Unicode normalisation", other)}
		}
		folded[foldName(p)] = p
	}
	return files, nil
}

func writeZipFiles(files []*zip.File, dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("unpacking a zip: %w", err)
	}
	defer root.Close()
	for _, f := range files {
		if err := writeZipFile(root, f); err != nil {
			return err
		}
	}
	return nil
}

func writeZipFile(root *os.Root, f *zip.File) error {
	if d := path.Dir(f.Name); d != "." {
		if err := root.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("unpacking %s: %w", escapeControls(f.Name), err)
		}
	}
	rc, err := f.Open()
	if err != nil {
		return &ZipError{Name: f.Name, Reason: fmt.Sprintf("it cannot be read (%v)", err)}
	}
	defer rc.Close()
	out, err := root.OpenFile(f.Name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("unpacking %s: %w", escapeControls(f.Name), err)
	}
	declared := f.UncompressedSize64
	n, err := io.Copy(out, io.LimitReader(rc, int64(declared)+1))
	if cerr := out.Close(); err == nil && cerr != nil {
		return fmt.Errorf("unpacking %s: %w", escapeControls(f.Name), cerr)
	}
	switch {
	case uint64(n) > declared:
		return &ZipError{Name: f.Name, Reason: fmt.Sprintf("it declares %d bytes but holds more", declared)}
	case err != nil:
		// archive/zip notices a size or CRC that lies before the limit does.
		return &ZipError{Name: f.Name, Reason: fmt.Sprintf("it declares %d bytes, but its data does not match its header (%v)", declared, err)}
	case uint64(n) < declared:
		return &ZipError{Name: f.Name, Reason: fmt.Sprintf("it declares %d bytes but holds %d", declared, n)}
	}
	return nil
}

// unpackInto writes the checked entries into dir, a folder it makes and
// that must not exist yet; on a failure nothing is left behind.
func unpackInto(files []*zip.File, dir string) error {
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("unpacking a zip: %s already exists; aayu unpacks only into a new folder", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("unpacking a zip: %w", err)
	}
	if err := writeZipFiles(files, dir); err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	return nil
}
