package ship

import (
	"archive/zip"
	"bytes"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/proof"
)

type zipEntry struct {
	name string
	body string
	mode fs.FileMode // 0: a regular file
	lie  int64       // >0: the header declares this size instead
}

func writeZip(t *testing.T, entries []zipEntry) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Store}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		if e.lie > 0 {
			h.CRC32 = crc32.ChecksumIEEE([]byte(e.body))
			h.CompressedSize64, h.UncompressedSize64 = uint64(len(e.body)), uint64(e.lie)
			w, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = w.Write([]byte(e.body))
			continue
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "a.zip")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnzipRefusals: the run artifact is unpacked the x/mod/zip way, and
// every unsafe zip is refused with words naming the entry.
func TestUnzipRefusals(t *testing.T) {
	t.Parallel()
	pack := zipEntry{name: "pack.json", body: listingPack(t, "a", "b", "evidence/criterion-1.jsonl")}
	cases := []struct {
		name    string
		entries []zipEntry
		caps    Caps
		words   string
	}{
		{"dot-dot entry", []zipEntry{pack, {name: "../evil", body: "x"}}, Caps{}, `"../evil"`},
		{"dot-dot inside artifacts", []zipEntry{pack, {name: "artifacts/../../evil", body: "x"}}, Caps{}, `"artifacts/../../evil"`},
		{"absolute entry", []zipEntry{pack, {name: "/etc/passwd", body: "x"}}, Caps{}, `"/etc/passwd"`},
		{"backslash entry", []zipEntry{pack, {name: `artifacts\evil`, body: "x"}}, Caps{}, `"artifacts\\evil"`},
		{"unclean entry", []zipEntry{pack, {name: "artifacts//a", body: "x"}}, Caps{}, `"artifacts//a"`},
		{"symlink", []zipEntry{pack, {name: "artifacts/link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, Caps{}, "is a symbolic link"},
		{"device", []zipEntry{pack, {name: "artifacts/dev", body: "", mode: fs.ModeDevice | 0o600}}, Caps{}, "is not a regular file"},
		{"duplicate", []zipEntry{pack, {name: "artifacts/a", body: "1"}, {name: "artifacts/a", body: "2"}}, Caps{}, "listed twice"},
		{"case-fold duplicate", []zipEntry{pack, {name: "artifacts/A", body: "1"}, {name: "artifacts/a", body: "2"}}, Caps{}, "only in case"},
		{"file and folder", []zipEntry{pack, {name: "artifacts/a", body: "1"}, {name: "artifacts/a/b", body: "2"}}, Caps{}, "need a folder"},
		{"outside the pack", []zipEntry{pack, {name: "README", body: "x"}}, Caps{}, `pack.json does not list ("README")`},
		{"an artifact the pack does not list", []zipEntry{pack, {name: "artifacts/extra.bin", body: "x"}}, Caps{}, `1 file pack.json does not list ("artifacts/extra.bin")`},
		{"pack.json that is no pack", []zipEntry{{name: "pack.json", body: "{}"}}, Caps{}, "not a pack aayu reads"},
		{"no pack.json", []zipEntry{{name: "artifacts/a", body: "x"}}, Caps{}, "no pack.json"},
		{"too many entries", []zipEntry{pack, {name: "artifacts/a", body: "1"}, {name: "artifacts/b", body: "2"}}, Caps{Entries: 2}, "more than the 2 aayu accepts"},
		{"too many bytes", []zipEntry{pack, {name: "artifacts/a", body: strings.Repeat("x", 100)}}, Caps{Uncompressed: 50}, "more than the 50 aayu accepts"},
		{"a size that lies", []zipEntry{pack, {name: "artifacts/a", body: "0123456789", lie: 4}}, Caps{}, `"artifacts/a"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			err := unzipPack(writeZip(t, tc.entries), dir, tc.caps)
			if err == nil || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("err = %v, want one naming %q", err, tc.words)
			}
			if _, serr := os.Stat(filepath.Join(filepath.Dir(dir), "evil")); serr == nil {
				t.Error("an entry was written outside the folder")
			}
			if _, serr := os.Lstat(dir); serr == nil {
				t.Error("a refused zip left its folder behind")
			}
		})
	}
	t.Run("a safe zip", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		err := unzipPack(writeZip(t, []zipEntry{{name: "artifacts/"}, pack, {name: "artifacts/evidence/criterion-1.jsonl", body: "line\n"}}), dir, Caps{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "artifacts", "evidence", "criterion-1.jsonl"))
		if err != nil || string(b) != "line\n" {
			t.Errorf("read back %q, %v", b, err)
		}
	})
}

// listingPack is a pack.json that lists the given artifact paths; their
// hashes are not checked when unpacking, only which files may be unpacked.
func listingPack(t *testing.T, paths ...string) string {
	t.Helper()
	p := &proof.Pack{Schema: 1, Repo: "acme/benefits", Story: 3, PRHeadSHA: strings.Repeat("a", 40), Seat: "s", Host: "cli",
		Identity: proof.IdentityCI, Authority: proof.Authority{Kind: proof.AuthorityAdvisory}, CompletionGoalHash: strings.Repeat("b", 64),
		Criteria: []proof.Criterion{{ID: 1, Evidence: []string{paths[0]}}}, CreatedAt: "2026-10-12T09:48:42Z",
		Checks: []proof.Check{{Floor: "vet", Result: proof.ResultPass}}}
	for _, name := range paths {
		p.Artifacts = append(p.Artifacts, proof.ArtifactFromBytes(name, proof.KindAPITrace, []byte(name)))
	}
	b, err := proof.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUnzipRefusesABombOfUnlistedFiles: a small zip that inflates to 3 GiB
// of files pack.json does not list is refused from its central directory,
// quickly, and nothing is written.
func TestUnzipRefusesABombOfUnlistedFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, entry, words string
	}{
		{"unlisted", "artifacts/bomb.bin", "pack.json does not list"},
		{"listed but inflating past the ratio", "artifacts/a", "zip bomb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.Create("pack.json")
			_, _ = w.Write([]byte(listingPack(t, "a")))
			// A raw deflate stream of zeros, declared at 3 GiB, is written
			// without compressing anything here: the header alone is the bomb.
			h := &zip.FileHeader{Name: tc.entry, Method: zip.Deflate, UncompressedSize64: 3 << 30, CompressedSize64: 3 << 20}
			raw, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = raw.Write(make([]byte, 3<<20))
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			zp := filepath.Join(t.TempDir(), "bomb.zip")
			if err := os.WriteFile(zp, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "out")
			start := time.Now()
			err = unzipPack(zp, dir, Caps{})
			if err == nil || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("err = %v, want one saying %q", err, tc.words)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("refusing the bomb took %v; it should need only the central directory", took)
			}
			if _, serr := os.Lstat(dir); serr == nil {
				t.Error("a refused zip left its folder behind")
			}
		})
	}
}

func TestHoldsCredential(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, words string
	}{
		{"read-only with permissions", "on: push\npermissions:\n  contents: read\njobs:\n  build:\n    runs-on: ubuntu-latest\n", ""},
		{"reads a secret", "on: push\npermissions:\n  contents: read\njobs:\n  b:\n    steps:\n      - run: echo ${{ secrets.KEY }}\n", "reads a secret"},
		{"the workflow token", "on: push\npermissions: {}\njobs:\n  b:\n    env:\n      T: ${{ github.token }}\n", "workflow token"},
		{"an environment", "on: push\npermissions:\n  contents: read\njobs:\n  b:\n    environment: prod\n", "names an environment"},
		{"a write permission", "on: push\npermissions:\n  contents: write\njobs:\n  b:\n    runs-on: x\n", "grants a write permission"},
		{"write-all", "on: push\npermissions: write-all\njobs:\n  b:\n    runs-on: x\n", "grants a write permission"},
		{"default permissions", "on: push\njobs:\n  b:\n    runs-on: x\n  c:\n    permissions:\n      contents: read\n", "default permissions"},
		{"tabs", "on: push\njobs:\n\tb: {}\n", "cannot be parsed"},
		{"flow style", "on: push\npermissions:\n  contents: read\njobs: {b: {runs-on: x}}\n", "cannot be parsed"},
		{"missing", "", "cannot be read"},
		{"no jobs", "on: push\npermissions:\n  contents: read\n", "cannot be parsed"},
	}
	for _, tc := range cases {
		got := holdsCredential([]byte(tc.text))
		if (tc.words == "") != (got == "") || !strings.Contains(got, tc.words) {
			t.Errorf("%s: holdsCredential = %q, want %q", tc.name, got, tc.words)
		}
	}
}

func TestTrailersRoundTrip(t *testing.T) {
	t.Parallel()
	in := mergeTrailers{Head: strings.Repeat("a", 40), Story: 3, RunID: 42, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder",
		PassURL: "https://github.com/acme/benefits/pull/4#pullrequestreview-1"}
	got := parseTrailers("Title (#4)\n\nRefs #3\n\n" + in.lines() + "\n")
	if got == nil || *got != in {
		t.Errorf("parsed %+v, want %+v", got, in)
	}
	if parseTrailers("Show the remaining deductible (#4)\n\n* deductible: add Remaining\n") != nil {
		t.Error("a merge without ship's trailer was read as ship's")
	}
}
