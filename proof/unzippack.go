package proof

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// A run artifact is unpacked for what pack.json lists and nothing more: a
// small zip that inflates to gigabytes of files the pack never names is
// refused from its central directory, before a byte of it is written.

// Compression caps. Evidence is text and compresses perhaps twenty times;
// media barely at all. Deflate cannot beat about 1,032 to 1, which only a
// run of identical bytes reaches, so a ratio above DefaultZipRatio on a
// file large enough to matter is a bomb, not a pack.
const (
	DefaultZipRatio = 200
	// zipRatioFloor: smaller files are never judged by ratio; they cannot
	// hurt whatever they inflate to.
	zipRatioFloor = 1 << 20
)

// ExtractPackZip unpacks a run artifact into dir (which must not exist yet)
// under every rule of checkZipEntries and unpackInto, and more: the entry count, the declared
// sizes, their total and each file's compression ratio are checked first;
// then pack.json is read and decoded, and the zip may hold nothing but
// pack.json and the files artifacts/P for the artifact paths P it lists.
// Anything else is refused in words, and nothing is written.
func ExtractPackZip(r io.ReaderAt, size int64, dir string, caps ZipCaps) error {
	caps = caps.withDefaults()
	ratio := caps.Ratio
	if ratio <= 0 {
		ratio = DefaultZipRatio
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		return &ZipError{Reason: fmt.Sprintf("it cannot be read as a zip archive (%v)", err)}
	}
	files, err := checkZipEntries(zr.File, caps)
	if err != nil {
		return err
	}
	var packEntry *zip.File
	for _, f := range files {
		if f.Name == packFile {
			packEntry = f
		}
	}
	if packEntry == nil {
		return &ZipError{Reason: "it has no pack.json at its root"}
	}
	if err := checkRatio(packEntry, ratio); err != nil {
		return err
	}
	p, err := readZippedPack(packEntry)
	if err != nil {
		return err
	}
	listed := map[string]bool{packFile: true}
	for _, a := range p.Artifacts {
		listed[artifactsDir+"/"+a.Path] = true
	}
	var unlisted []string
	var keep []*zip.File
	for _, f := range files {
		if listed[f.Name] {
			keep = append(keep, f)
		} else {
			unlisted = append(unlisted, f.Name)
		}
	}
	if len(unlisted) > 0 {
		shown := unlisted[:min(3, len(unlisted))]
		for i, n := range shown {
			shown[i] = escapeControls(fmt.Sprintf("%q", n))
		}
		more := ""
		if len(unlisted) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(unlisted)-len(shown))
		}
		return &ZipError{Reason: fmt.Sprintf("it holds %d %s pack.json does not list (%s%s); aayu unpacks only pack.json and the artifacts it lists",
			len(unlisted), plural(len(unlisted), "file", "files"), strings.Join(shown, ", "), more)}
	}
	for _, f := range keep {
		if err := checkRatio(f, ratio); err != nil {
			return err
		}
	}
	return unpackInto(keep, dir)
}

// checkRatio refuses a file over 1 MiB that inflates more than ratio times.
func checkRatio(f *zip.File, ratio int) error {
	if f.UncompressedSize64 > zipRatioFloor && f.UncompressedSize64 > f.CompressedSize64*uint64(ratio) {
		return &ZipError{Name: f.Name, Reason: fmt.Sprintf("it inflates from %d to %d bytes, more than %d times; aayu does not unpack a zip bomb",
			f.CompressedSize64, f.UncompressedSize64, ratio)}
	}
	return nil
}

// readZippedPack reads and decodes the zip's pack.json within the pack.json
// cap, whatever its header declares.
func readZippedPack(f *zip.File) (*Pack, error) {
	if f.UncompressedSize64 > DefaultPackJSONBytes {
		return nil, &ZipError{Name: f.Name, Reason: fmt.Sprintf("it declares %d bytes; aayu reads at most %d", f.UncompressedSize64, DefaultPackJSONBytes)}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &ZipError{Name: f.Name, Reason: fmt.Sprintf("it cannot be read (%v)", err)}
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if err != nil || uint64(len(raw)) != f.UncompressedSize64 {
		return nil, &ZipError{Name: f.Name, Reason: "its data does not match its header"}
	}
	p, err := Decode(raw)
	if err != nil {
		return nil, &ZipError{Name: f.Name, Reason: "it is not a pack aayu reads: " + err.Error()}
	}
	for _, a := range p.Artifacts {
		if CheckPath(a.Path) != nil || path.IsAbs(a.Path) {
			return nil, &ZipError{Name: f.Name, Reason: fmt.Sprintf("it lists the artifact path %q, which is refused", clipText(a.Path))}
		}
	}
	return p, nil
}
