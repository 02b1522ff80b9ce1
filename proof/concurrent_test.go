package proof

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestVerifyDirHashingBesideDecodeMatchesVerify: the report VerifyDir
// builds while hashing beside the schema check is the one Verify builds
// from the decoded pack, verdict for verdict, for a good pack and for one
// with a changed artifact.
func TestVerifyDirHashingBesideDecodeMatchesVerify(t *testing.T) {
	for _, tamper := range []bool{false, true} {
		p, files := manyArtifactsPack(40)
		dir := writeFixtureDir(t, p, files)
		if tamper {
			if err := os.WriteFile(filepath.Join(dir, artifactsDir, filepath.FromSlash(p.Artifacts[7].Path)), []byte("changed"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := VerifyDir(context.Background(), dir, fixtureOptions())
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, packFile))
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		want, err := Verify(context.Background(), decoded, raw, root.FS(), fixtureOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got.Verified() == tamper || !reflect.DeepEqual(got.Problems, want.Problems) || !reflect.DeepEqual(got.Artifacts, want.Artifacts) ||
			got.FilesHashed != want.FilesHashed || got.BytesHashed != want.BytesHashed {
			t.Fatalf("tamper=%v: VerifyDir and Verify disagree:\n%+v\n%+v", tamper, got.Problems, want.Problems)
		}
	}
}

// TestVerifyDirRefusesSchemaViolationThoughHashingStarted: a pack.json a
// plain decode accepts but the schema refuses (a duplicate key here) is
// refused with the decode's words, and nothing hashed on the way counts.
func TestVerifyDirRefusesSchemaViolationThoughHashingStarted(t *testing.T) {
	p, files := manyArtifactsPack(20)
	dir := writeFixtureDir(t, p, files)
	name := filepath.Join(dir, packFile)
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	dup := bytes.Replace(raw, []byte(`"story":`), []byte(`"story": 1, "story":`), 1)
	if bytes.Equal(dup, raw) {
		t.Fatal("the fixture has no story key")
	}
	if err := os.WriteFile(name, dup, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verified() || r.Pack != nil || r.FilesHashed != 0 || len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "story") {
		t.Fatalf("want one decode problem naming the repeated key and nothing hashed; got verified=%v hashed=%d %+v", r.Verified(), r.FilesHashed, r.Problems)
	}
}
