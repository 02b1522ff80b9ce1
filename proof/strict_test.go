package proof

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeRefusesFormatViolations: the schema's formats are asserted, so
// a created_at that is no date-time (and could carry a terminal escape to a
// screen) is refused, not carried.
func TestDecodeRefusesFormatViolations(t *testing.T) {
	for _, bad := range []string{`yesterday\u001b[2J`, `yesterday`, `2026-13-40T99:00:00Z`, `2026-10-12`} {
		t.Run(bad, func(t *testing.T) {
			_, err := Decode(seedWith(t, `"created_at": "2026-10-12T09:48:42Z"`, `"created_at": "`+bad+`"`))
			var derr *DecodeError
			if !errors.As(err, &derr) || derr.Code != CodeSchema || !strings.Contains(err.Error(), "created_at") {
				t.Fatalf("created_at %q: err = %v, want a schema refusal naming created_at", bad, err)
			}
			if strings.ContainsRune(err.Error(), '\x1b') {
				t.Errorf("the refusal carries the escape byte: %q", err.Error())
			}
		})
	}
	if _, err := Decode(seedWith(t, `"created_at": "2026-10-12T09:48:42Z"`, `"created_at": "2026-10-12T09:48:42+02:00"`)); err != nil {
		t.Fatalf("a date-time with an offset was refused: %v", err)
	}
}

func TestReadFileCappedRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFileCapped(dir, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a folder: err = %v, want a refusal naming it not a regular file", err)
	}
	name := filepath.Join(dir, "ready.md")
	if err := os.WriteFile(name, []byte("# Ready\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFileCapped(name, 1<<20); err != nil || string(b) != "# Ready\n" {
		t.Fatalf("a regular file: %q, %v", b, err)
	}
	if _, err := ReadFileCapped(name, 3); err == nil {
		t.Fatal("a file over the cap was read")
	}
}

// packZip builds a run artifact: pack.json listing the fixture's artifacts,
// their files, and any extra entries.
func packZip(t *testing.T, extra ...zipEntry) []byte {
	t.Helper()
	files := fixtureFiles()
	raw, err := Encode(fixturePack(files))
	if err != nil {
		t.Fatal(err)
	}
	entries := []zipEntry{{name: "pack.json", body: string(raw)}}
	for name, b := range files {
		entries = append(entries, zipEntry{name: "artifacts/" + name, body: string(b)})
	}
	return buildZip(t, append(entries, extra...)...)
}

func extractPack(t *testing.T, z []byte, caps ZipCaps) (string, error) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	return dir, ExtractPackZip(bytes.NewReader(z), int64(len(z)), dir, caps)
}

func TestExtractPackZipUnpacksWhatPackJSONLists(t *testing.T) {
	dir, err := extractPack(t, packZip(t), ZipCaps{})
	if err != nil {
		t.Fatalf("a sound run artifact was refused: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "artifacts", "evidence", "criterion-1.jsonl")); err != nil {
		t.Fatal(err)
	}
}

func TestExtractPackZipRefusesUnlistedFiles(t *testing.T) {
	for _, name := range []string{"README", "artifacts/extra.bin", "artifacts/evidence/criterion-9.jsonl"} {
		_, err := extractPack(t, packZip(t, zipEntry{name: name, body: "x"}), ZipCaps{})
		if err == nil || !strings.Contains(err.Error(), "pack.json does not list") || !strings.Contains(err.Error(), name) {
			t.Errorf("unlisted %s: err = %v", name, err)
		}
	}
}

func TestExtractPackZipRefusesAZipBomb(t *testing.T) {
	// One listed file whose header declares 2 GiB from 1 MiB of deflate:
	// refused from the header, before anything is inflated.
	files := fixtureFiles()
	p := fixturePack(files)
	p.Artifacts[2].Size = 2 << 30
	raw, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("pack.json")
	_, _ = w.Write(raw)
	rw, err := zw.CreateRaw(&zip.FileHeader{Name: "artifacts/reports/coverage.txt", Method: zip.Deflate, UncompressedSize64: 2 << 30, CompressedSize64: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = rw.Write(make([]byte, 1<<20))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	dir, err := extractPack(t, buf.Bytes(), ZipCaps{})
	if err == nil || !strings.Contains(err.Error(), "zip bomb") {
		t.Fatalf("err = %v, want a zip bomb refusal", err)
	}
	if _, serr := os.Lstat(dir); serr == nil {
		t.Error("a refused zip left its folder behind")
	}
	if _, err := extractPack(t, buf.Bytes(), ZipCaps{TotalBytes: 1 << 30}); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("total cap: err = %v", err)
	}
}

func TestExtractPackZipRefusesPackJSONThatIsNoPack(t *testing.T) {
	_, err := extractPack(t, buildZip(t, zipEntry{name: "pack.json", body: "{}"}), ZipCaps{})
	if err == nil || !strings.Contains(err.Error(), "not a pack aayu reads") {
		t.Fatalf("err = %v", err)
	}
	_, err = extractPack(t, buildZip(t, zipEntry{name: "artifacts/a", body: "x"}), ZipCaps{})
	if err == nil || !strings.Contains(err.Error(), "no pack.json") {
		t.Fatalf("err = %v", err)
	}
}
