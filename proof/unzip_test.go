package proof

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zipEntry is one entry of a zip built for a test. Raw entries are written
// with CreateRaw so the header can lie about the size.
type zipEntry struct {
	name     string
	body     string
	mode     fs.FileMode // 0: regular file
	raw      bool
	declared uint64 // for raw entries: the size the header claims
}

func buildZip(t testing.TB, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		if e.raw {
			h.Method = zip.Store
			h.CRC32 = crc32.ChecksumIEEE([]byte(e.body))
			h.CompressedSize64 = uint64(len(e.body))
			h.UncompressedSize64 = e.declared
			w, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func extract(t *testing.T, z []byte, caps ZipCaps) (string, error) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	return dir, extractZip(bytes.NewReader(z), int64(len(z)), dir, caps)
}

// extractZip unpacks any zip under the rules ExtractPackZip applies to
// every entry before it looks at pack.json (checkZipEntries, then
// unpackInto), so those rules are tested on archives that are not packs.
func extractZip(r io.ReaderAt, size int64, dir string, caps ZipCaps) error {
	caps = caps.withDefaults()
	zr, err := zip.NewReader(r, size)
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		return &ZipError{Reason: fmt.Sprintf("it cannot be read as a zip archive (%v)", err)}
	}
	files, err := checkZipEntries(zr.File, caps)
	if err != nil {
		return err
	}
	return unpackInto(files, dir)
}

func TestExtractZipUnpacksAPack(t *testing.T) {
	z := buildZip(t,
		zipEntry{name: "pack.json", body: "{}\n"},
		zipEntry{name: "artifacts/", mode: fs.ModeDir | 0o755},
		zipEntry{name: "artifacts/evidence/criterion-1.jsonl", body: "line\n"},
		zipEntry{name: "artifacts/Evidence2/x.txt", body: "other\n"},
	)
	dir, err := extract(t, z, ZipCaps{})
	if err != nil {
		t.Fatalf("a plain pack zip was refused: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "artifacts", "evidence", "criterion-1.jsonl"))
	if err != nil || string(b) != "line\n" {
		t.Fatalf("criterion-1.jsonl = %q, %v", b, err)
	}
	fi, err := os.Stat(filepath.Join(dir, "pack.json"))
	if err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("pack.json: %v, mode %v (want private to the user)", err, fi.Mode())
	}
}

func TestExtractZipRefusals(t *testing.T) {
	ok := zipEntry{name: "pack.json", body: "{}"}
	cases := []struct {
		name    string
		entries []zipEntry
		caps    ZipCaps
		say     string
	}{
		{"absolute", []zipEntry{ok, {name: "/etc/passwd", body: "x"}}, ZipCaps{}, "absolute"},
		{"dot-dot", []zipEntry{ok, {name: "artifacts/../../x", body: "x"}}, ZipCaps{}, `".."`},
		{"leading dot-dot", []zipEntry{ok, {name: "../x", body: "x"}}, ZipCaps{}, `".."`},
		{"backslash", []zipEntry{ok, {name: `artifacts\x`, body: "x"}}, ZipCaps{}, "backslash"},
		{"dot element", []zipEntry{ok, {name: "./pack2.json", body: "x"}}, ZipCaps{}, `"." element`},
		{"double slash", []zipEntry{ok, {name: "artifacts//x", body: "x"}}, ZipCaps{}, "not clean"},
		{"drive letter", []zipEntry{ok, {name: "C:/x", body: "x"}}, ZipCaps{}, "drive letter"},
		{"control character", []zipEntry{ok, {name: "a\x1b[2Jb", body: "x"}}, ZipCaps{}, "control"},
		{"empty name", []zipEntry{ok, {name: "", body: "x"}}, ZipCaps{}, "empty"},
		{"duplicate", []zipEntry{ok, {name: "pack.json", body: "y"}}, ZipCaps{}, "listed twice"},
		{"case fold", []zipEntry{ok, {name: "PACK.json", body: "y"}}, ZipCaps{}, "only in case"},
		{"case fold unicode", []zipEntry{{name: "a/ſ", body: "x"}, {name: "a/s", body: "y"}}, ZipCaps{}, "only in case"},
		{"case fold folder", []zipEntry{{name: "A/x", body: "x"}, {name: "a/y", body: "y"}}, ZipCaps{}, "only in case"},
		{"file and folder", []zipEntry{{name: "a", body: "x"}, {name: "a/b", body: "y"}}, ZipCaps{}, "need a folder"},
		{"symlink", []zipEntry{ok, {name: "artifacts/link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, ZipCaps{}, "symbolic link"},
		{"device", []zipEntry{ok, {name: "artifacts/dev", mode: fs.ModeDevice | 0o600}}, ZipCaps{}, "not a regular file"},
		{"named pipe", []zipEntry{ok, {name: "artifacts/fifo", mode: fs.ModeNamedPipe | 0o600}}, ZipCaps{}, "not a regular file"},
		{"size lies low", []zipEntry{ok, {name: "artifacts/x", body: "0123456789", raw: true, declared: 3}}, ZipCaps{}, "declares 3 bytes"},
		{"size lies high", []zipEntry{ok, {name: "artifacts/x", body: "0123", raw: true, declared: 100}}, ZipCaps{}, "declares 100 bytes"},
		{"too many entries", []zipEntry{ok, {name: "a", body: "x"}, {name: "b", body: "x"}}, ZipCaps{Entries: 2}, "3 entries"},
		{"total too large", []zipEntry{{name: "a", body: "12345"}, {name: "b", body: "12345"}}, ZipCaps{TotalBytes: 8}, "8 bytes"},
		{"file too large", []zipEntry{{name: "a", body: "12345"}}, ZipCaps{FileBytes: 4}, "declares 5 bytes"},
		{"declared bomb", []zipEntry{{name: "a", body: "x", raw: true, declared: 1 << 40}}, ZipCaps{}, "more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, err := extract(t, buildZip(t, c.entries...), c.caps)
			if err == nil {
				t.Fatal("the zip was unpacked")
			}
			if !errors.Is(err, ErrUnsafeZip) {
				t.Errorf("the error does not wrap ErrUnsafeZip: %v", err)
			}
			if !strings.Contains(err.Error(), c.say) {
				t.Errorf("the error does not say %q: %v", c.say, err)
			}
			if strings.ContainsRune(err.Error(), '\x1b') {
				t.Errorf("the error carries an escape character: %q", err)
			}
			if _, serr := os.Lstat(dir); serr == nil {
				t.Errorf("a refused zip left %s behind", dir)
			}
			if beside, _ := os.ReadDir(filepath.Dir(dir)); len(beside) != 0 {
				t.Errorf("a refused zip wrote %s beside its folder", beside[0].Name())
			}
		})
	}
}

func TestExtractZipNeverWritesOutsideOrOver(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	z := buildZip(t, zipEntry{name: "pack.json", body: "{}"})
	if err := extractZip(bytes.NewReader(z), int64(len(z)), dir, ZipCaps{}); err == nil {
		t.Fatal("ExtractZip unpacked into a folder that already existed")
	}
	if _, err := os.Lstat(filepath.Join(dir, "pack.json")); err == nil {
		t.Fatal("ExtractZip wrote into an existing folder")
	}
}

func TestExtractZipRefusesGarbage(t *testing.T) {
	for _, z := range [][]byte{nil, []byte("not a zip"), buildZip(t)[:10]} {
		if _, err := extract(t, z, ZipCaps{}); !errors.Is(err, ErrUnsafeZip) {
			t.Errorf("%q: got %v, want a refusal", z, err)
		}
	}
}

func FuzzExtractZip(f *testing.F) {
	f.Add(buildZip(f, zipEntry{name: "pack.json", body: "{}"}, zipEntry{name: "artifacts/a/b.txt", body: "hello"}))
	f.Add(buildZip(f, zipEntry{name: "../x", body: "x"}))
	f.Add(buildZip(f, zipEntry{name: "a", body: "x"}, zipEntry{name: "A", body: "y"}))
	f.Add(buildZip(f, zipEntry{name: "l", body: "/etc", mode: fs.ModeSymlink | 0o777}))
	f.Add(buildZip(f, zipEntry{name: "x", body: "0123456789", raw: true, declared: 2}))
	f.Fuzz(func(t *testing.T, z []byte) {
		dir := filepath.Join(t.TempDir(), "out")
		caps := ZipCaps{Entries: 64, TotalBytes: 1 << 20}
		err := extractZip(bytes.NewReader(z), int64(len(z)), dir, caps)
		if err != nil {
			if _, serr := os.Lstat(dir); serr == nil {
				t.Fatalf("a refused zip left its folder behind: %v", err)
			}
			return
		}
		// Whatever was accepted is regular files and folders, inside dir,
		// under clean names, within the caps.
		var total int64
		werr := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			if rel == "." {
				return nil
			}
			if err := CheckPath(filepath.ToSlash(rel)); err != nil {
				t.Errorf("unpacked a name CheckPath refuses: %v", err)
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if !info.Mode().IsRegular() && !info.IsDir() {
				t.Errorf("unpacked %s with mode %v", rel, info.Mode())
			}
			if info.Mode().IsRegular() {
				total += info.Size()
			}
			return nil
		})
		if werr != nil {
			t.Fatal(werr)
		}
		if total > caps.TotalBytes {
			t.Fatalf("unpacked %d bytes, over the cap %d", total, caps.TotalBytes)
		}
	})
}
