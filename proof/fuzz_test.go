package proof

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecode: Decode never panics, and whatever it accepts, Encode writes
// back in a form Decode reads to the same pack.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"packs/story131.json", "packs/story134-before02.json"} {
		f.Add(mustReadTestdata(f, name))
	}
	f.Add([]byte(`{"schema_version":1,"schema_version":1}`))
	f.Add([]byte(`{"schema_version":2}`))
	f.Add([]byte(`[[[[[[`))
	// Issue 24: a pack with a test-framing warning, and one whose warning
	// has a key the schema does not know.
	with := strings.Replace(string(mustReadTestdata(f, "packs/story131.json")), `"created_at"`,
		`"warnings": [{"name": "test-framing", "detail": "TestMain in a/main_test.go (added)"}], "created_at"`, 1)
	f.Add([]byte(with))
	f.Add([]byte(strings.Replace(with, `"detail"`, `"level": "low", "detail"`, 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			if _, ok := err.(*DecodeError); !ok {
				t.Fatalf("error %T is not a *DecodeError", err)
			}
			return
		}
		again, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Decode(again)
		if err != nil {
			t.Fatalf("Decode refuses what Encode wrote from an accepted pack: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the pack")
		}
	})
}

// FuzzCheckPath: every accepted path is clean, relative, local and
// "/"-separated, so it can name nothing outside the pack.
func FuzzCheckPath(f *testing.F) {
	for _, p := range []string{"a/b", "../a", "a/../b", "./a", "a//b", "/a", `a\b`, "C:/a", "...", ".a", "a/"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		if path.Clean(p) != p || path.IsAbs(p) || strings.Contains(p, `\`) || !filepath.IsLocal(filepath.FromSlash(p)) ||
			strings.IndexFunc(p, isControlOrBidi) >= 0 || !utf8.ValidString(p) {
			t.Fatalf("CheckPath accepted %q", p)
		}
		for _, elem := range strings.Split(p, "/") {
			if elem == "." || elem == ".." || elem == "" {
				t.Fatalf("CheckPath accepted %q with element %q", p, elem)
			}
		}
	})
}

// FuzzFlipByte: flip any one byte of any stored artifact and the pack is
// refused, with a hash or size problem naming that artifact.
func FuzzFlipByte(f *testing.F) {
	f.Add(uint8(0), uint16(0), byte(1))
	f.Add(uint8(1), uint16(40), byte(0x80))
	f.Add(uint8(3), uint16(7), byte(0xff))
	f.Fuzz(func(t *testing.T, which uint8, offset uint16, mask byte) {
		if mask == 0 {
			return
		}
		files := fixtureFiles()
		p := fixturePack(files)
		a := p.Artifacts[int(which)%len(p.Artifacts)]
		data := files[a.Path]
		data[int(offset)%len(data)] ^= mask
		dir := writeFixtureDir(t, p, files)
		r, err := VerifyDir(context.Background(), dir, fixtureOptions())
		if err != nil {
			t.Fatal(err)
		}
		if r.Verified() {
			t.Fatalf("pack verified with byte %d of %s flipped", int(offset)%len(data), a.Path)
		}
		for _, pr := range r.Problems {
			if pr.Path == a.Path && pr.Code == CodeHashMismatch {
				return
			}
		}
		t.Fatalf("no hash problem named %s:%s", a.Path, describeProblems(r))
	})
}

// FuzzVerifyPackJSON: any pack.json beside real artifacts is verified
// without panicking, and a pack that verifies claims something: criteria,
// artifacts and checks, every artifact checked or honestly not stored.
func FuzzVerifyPackJSON(f *testing.F) {
	files := fixtureFiles()
	sound, err := Encode(fixturePack(files))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sound)
	f.Add([]byte(strings.Replace(string(sound), `"size": 42`, `"size": 43`, 1)))
	f.Add([]byte(strings.Replace(string(sound), `"evidence/criterion-2.jsonl"`, `"../criterion-2.jsonl"`, 1)))
	// Issue 24: store none beside present bytes, and a path spelt twice.
	f.Add([]byte(strings.Replace(string(sound), `"store": "git"`, `"store": "none"`, 2)))
	f.Add([]byte(strings.Replace(string(sound), `"evidence/criterion-2.jsonl"`, `"evidence/Criterion-1.jsonl"`, 1)))
	f.Fuzz(func(t *testing.T, packJSON []byte) {
		dir := t.TempDir()
		writeFixtureFile(t, filepath.Join(dir, packFile), packJSON)
		for name, b := range files {
			writeFixtureFile(t, filepath.Join(dir, artifactsDir, filepath.FromSlash(name)), b)
		}
		r, err := VerifyDir(context.Background(), dir, fixtureOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Verified() {
			return
		}
		if len(r.Pack.Criteria) == 0 || len(r.Pack.Artifacts) == 0 || len(r.Pack.Checks) == 0 {
			t.Fatal("an empty set verified")
		}
		notStoredPaths := map[string]bool{}
		for _, a := range r.Pack.Artifacts {
			notStoredPaths[a.Path] = notStored(a)
		}
		for _, c := range r.Pack.Criteria {
			stored := false
			for _, e := range c.Evidence {
				stored = stored || !notStoredPaths[e]
			}
			if !stored {
				t.Fatalf("pack verified with criterion %d citing only store-none evidence", c.ID)
			}
		}
		for _, a := range r.Artifacts {
			if a.Verdict == VerdictFailed {
				t.Fatalf("pack verified with artifact %s failed", a.Artifact.Path)
			}
			if a.Verdict == VerdictVerified {
				got, err := os.ReadFile(filepath.Join(dir, artifactsDir, filepath.FromSlash(a.Artifact.Path)))
				if err != nil || sha256Hex(got) != a.Artifact.SHA256 {
					t.Fatalf("artifact %s verified but its bytes do not match", a.Artifact.Path)
				}
			}
		}
	})
}

// FuzzDuplicateKeyRefused: whatever the key, saying it twice in one object
// is refused as a duplicate, never resolved by keeping one of them.
func FuzzDuplicateKeyRefused(f *testing.F) {
	for _, k := range []string{"story", "schema_version", "x", "", "\u00e9", "a\"b"} {
		f.Add(k, true)
	}
	f.Add("size", false)
	f.Fuzz(func(t *testing.T, key string, topLevel bool) {
		quoted, err := json.Marshal(key)
		if err != nil {
			return
		}
		raw := string(mustReadTestdata(t, "packs/story131.json"))
		twice := string(quoted) + `: 0, ` + string(quoted) + `: 1, `
		if topLevel {
			raw = strings.Replace(raw, "{", "{"+twice, 1)
		} else {
			raw = strings.Replace(raw, `"path": "evidence`, twice+`"path": "evidence`, 1)
		}
		_, err = Decode([]byte(raw))
		var derr *DecodeError
		if !errors.As(err, &derr) || derr.Code != CodeDuplicateKey {
			t.Fatalf("key %q given twice: err = %v, want a duplicate-key refusal", key, err)
		}
	})
}
