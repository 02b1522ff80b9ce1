package proof

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestArtifactFromBytes(t *testing.T) {
	a := ArtifactFromBytes("evidence/criterion-1.jsonl", KindAPITrace, []byte("hello\n"))
	want := Artifact{
		Path:   "evidence/criterion-1.jsonl",
		Kind:   KindAPITrace,
		SHA256: "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03", // printf 'hello\n' | sha256sum
		Size:   6,
		Store:  StoreGit,
	}
	if a != want {
		t.Fatalf("got %+v, want %+v", a, want)
	}
}

// writeFixture is a pack and the bytes of its artifacts.
type writeFixture struct {
	pack  *Pack
	files map[string][]byte
}

// newWriteFixture builds a pack modelled on story 131 whose artifacts are
// the given files (path → content); a media artifact is kept as store none
// with its bytes present, as in a run artifact.
func newWriteFixture(head string, contents map[string]string) writeFixture {
	f := writeFixture{files: map[string][]byte{}}
	p := &Pack{
		Schema: SchemaVersion, Repo: "rahulnakmol/agentic-ayudha", Story: 131, PR: 148,
		PRHeadSHA: head, Seat: "ai-native-engineer", Host: "cli", Identity: IdentityCI,
		Authority:          Authority{Kind: AuthorityAdvisory},
		CompletionGoalHash: GoalHash("1. a"),
		Checks:             []Check{{Floor: "coverage", Result: ResultPass, Network: NetworkIsolated}},
		Links:              Links{ReadySnapshot: "specs/131/ready.md"},
		CreatedAt:          "2026-10-12T09:48:42Z",
	}
	for _, path := range slices.Sorted(maps.Keys(contents)) {
		b := []byte(contents[path])
		kind := KindAPITrace
		if strings.HasSuffix(path, ".png") {
			kind = KindScreenshot
		}
		a := ArtifactFromBytes(path, kind, b)
		if IsMedia(a) {
			a.Store = StoreNone
		}
		p.Artifacts = append(p.Artifacts, a)
		p.Criteria = append(p.Criteria, Criterion{ID: len(p.Criteria) + 1, Evidence: []string{path}})
		f.files[path] = b
	}
	f.pack = p
	return f
}

// readTree returns every regular file under root as slash path → content.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		tree[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// expectedTree is the folder a fixture should produce.
func expectedTree(t *testing.T, f writeFixture) map[string]string {
	t.Helper()
	packJSON, err := json.MarshalIndent(f.pack, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tree := map[string]string{"pack.json": string(packJSON) + "\n"}
	for p, b := range f.files {
		tree["artifacts/"+p] = string(b)
	}
	return tree
}

// assertNoLeftovers checks that the parent of dir holds only dir itself.
func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != filepath.Base(dir) {
			t.Errorf("left behind beside the pack: %s", e.Name())
		}
	}
}

var (
	headA = strings.Repeat("a", 40)
	headB = strings.Repeat("b", 40)
)

func TestWriteLocalRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".aayudha", "proof", "131")
	first := newWriteFixture(headA, map[string]string{
		"evidence/criterion-1.jsonl": `{"Action":"run","Package":"example.com/qa/answer","Test":"TestAnswerCitesPassage"}` + "\n",
		"screens/1.png":              "\x89PNG\r\n\x1a\n",
	})
	sum, err := WriteLocal(dir, first.pack, first.files)
	if err != nil {
		t.Fatalf("WriteLocal: %v", err)
	}
	want := expectedTree(t, first)
	if got := readTree(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("folder holds\n%q\nwant\n%q", got, want)
	}
	packJSON := []byte(want["pack.json"])
	if h := sha256.Sum256(packJSON); hex.EncodeToString(h[:]) != sum {
		t.Errorf("returned sha256 %s is not that of pack.json", sum)
	}
	var back Pack
	if err := json.Unmarshal(packJSON, &back); err != nil || !reflect.DeepEqual(&back, first.pack) {
		t.Errorf("pack.json does not read back to the pack: %v", err)
	}
	if _, err := Decode(packJSON); err != nil {
		t.Errorf("Decode refuses the pack.json WriteLocal wrote: %v", err)
	}
	assertNoLeftovers(t, dir)

	// A second write replaces the folder whole: no file of the first stays.
	second := newWriteFixture(headB, map[string]string{"evidence/criterion-1.jsonl": "{}\n", "evidence/criterion-2.jsonl": "[]\n"})
	if _, err := WriteLocal(dir, second.pack, second.files); err != nil {
		t.Fatalf("second WriteLocal: %v", err)
	}
	if got := readTree(t, dir); !reflect.DeepEqual(got, expectedTree(t, second)) {
		t.Fatalf("after the second write the folder holds %q", got)
	}
	assertNoLeftovers(t, dir)
}

func TestWriteLocalRefuses(t *testing.T) {
	good := func() writeFixture {
		return newWriteFixture(headB, map[string]string{"evidence/criterion-1.jsonl": "{}\n", "screens/1.png": "png"})
	}
	tests := []struct {
		name   string
		change func(f *writeFixture)
		words  []string
	}{
		{"one byte changed", func(f *writeFixture) { f.files["evidence/criterion-1.jsonl"] = []byte("{]\n") },
			[]string{"artifact evidence/criterion-1.jsonl: the bytes have sha256", "pack.json says"}},
		{"bytes shorter", func(f *writeFixture) { f.files["evidence/criterion-1.jsonl"] = []byte("{}") },
			[]string{"the bytes are 2 long, pack.json says 3"}},
		{"media bytes wrong too", func(f *writeFixture) { f.files["screens/1.png"] = []byte("gif") },
			[]string{"artifact screens/1.png: the bytes have sha256"}},
		{"file not in the pack", func(f *writeFixture) { f.files["extra.txt"] = []byte("x") },
			[]string{`file "extra.txt" is not an artifact of the pack`}},
		{"git artifact without bytes", func(f *writeFixture) { delete(f.files, "evidence/criterion-1.jsonl") },
			[]string{"evidence/criterion-1.jsonl (store git) has no bytes to write"}},
		{"duplicate path", func(f *writeFixture) { f.pack.Artifacts = append(f.pack.Artifacts, f.pack.Artifacts[0]) },
			[]string{"listed twice"}},
		{"dot-dot path", func(f *writeFixture) { f.pack.Artifacts[0].Path = "../escape.jsonl" }, []string{"../escape.jsonl"}},
		{"unclean path", func(f *writeFixture) { f.pack.Artifacts[0].Path = "evidence//criterion-1.jsonl" }, []string{"evidence//criterion-1.jsonl"}},
		{"dot path", func(f *writeFixture) { f.pack.Artifacts[0].Path = "./evidence/criterion-1.jsonl" }, []string{"./evidence/criterion-1.jsonl"}},
		{"absolute path", func(f *writeFixture) { f.pack.Artifacts[0].Path = "/etc/passwd" }, []string{"/etc/passwd"}},
		{"backslash path", func(f *writeFixture) { f.pack.Artifacts[0].Path = `evidence\criterion-1.jsonl` }, []string{"backslash"}},
		{"nil pack", func(f *writeFixture) { f.pack = nil }, []string{"no pack given"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "131")
			previous := newWriteFixture(headA, map[string]string{"evidence/criterion-1.jsonl": "old\n"})
			if _, err := WriteLocal(dir, previous.pack, previous.files); err != nil {
				t.Fatal(err)
			}
			f := good()
			tc.change(&f)
			_, err := WriteLocal(dir, f.pack, f.files)
			if err == nil {
				t.Fatal("WriteLocal accepted it")
			}
			for _, w := range tc.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if got := readTree(t, dir); !reflect.DeepEqual(got, expectedTree(t, previous)) {
				t.Errorf("the previous pack changed: %q", got)
			}
			assertNoLeftovers(t, dir)
		})
	}

	t.Run("dir is a file", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "131")
		if err := os.WriteFile(dir, []byte("not a pack"), 0o644); err != nil {
			t.Fatal(err)
		}
		f := good()
		if _, err := WriteLocal(dir, f.pack, f.files); err == nil || !strings.Contains(err.Error(), "is not a folder") {
			t.Fatalf("err = %v, want a refusal saying it is not a folder", err)
		}
		if b, _ := os.ReadFile(dir); string(b) != "not a pack" {
			t.Errorf("the file was changed to %q", b)
		}
		assertNoLeftovers(t, dir)
	})
}

func TestWriteLocalFailurePartWay(t *testing.T) {
	steps := []string{"artifact evidence/criterion-1.jsonl", "artifact evidence/criterion-2.jsonl", "pack.json", "synced", "old moved aside"}
	for _, withPrevious := range []bool{true, false} {
		for _, failAt := range steps {
			name := failAt
			if !withPrevious {
				name += " (first pack)"
			}
			t.Run(name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "131")
				previous := newWriteFixture(headA, map[string]string{"evidence/criterion-1.jsonl": "old\n", "evidence/old.jsonl": "gone?\n"})
				var want map[string]string
				if withPrevious {
					if _, err := WriteLocal(dir, previous.pack, previous.files); err != nil {
						t.Fatal(err)
					}
					want = expectedTree(t, previous)
				}
				next := newWriteFixture(headB, map[string]string{"evidence/criterion-1.jsonl": "new\n", "evidence/criterion-2.jsonl": "new 2\n"})
				injected := errors.New("disk full (injected)")
				reached := false
				_, err := writeLocal(dir, next.pack, next.files, func(step string) error {
					if step == failAt {
						reached = true
						return injected
					}
					return nil
				})
				if !reached {
					t.Fatalf("step %q never happened", failAt)
				}
				if !errors.Is(err, injected) {
					t.Fatalf("err = %v, want the injected failure", err)
				}
				if got := readTree(t, dir); !reflect.DeepEqual(got, want) {
					t.Errorf("after a failure at %q the folder holds %q, want %q", failAt, got, want)
				}
				if withPrevious {
					assertNoLeftovers(t, dir)
				} else if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 0 {
					t.Errorf("a failed first write left %d entries", len(entries))
				}
			})
		}
	}

	t.Run("a real write error", func(t *testing.T) {
		// "a" is a file, so the folder for "a/b" cannot be created.
		dir := filepath.Join(t.TempDir(), "131")
		previous := newWriteFixture(headA, map[string]string{"evidence/criterion-1.jsonl": "old\n"})
		if _, err := WriteLocal(dir, previous.pack, previous.files); err != nil {
			t.Fatal(err)
		}
		clash := newWriteFixture(headB, map[string]string{"a": "file\n", "a/b": "under a file\n"})
		_, err := WriteLocal(dir, clash.pack, clash.files)
		if err == nil || !strings.Contains(err.Error(), "artifact a/b") || !strings.Contains(err.Error(), "previous pack, if any, is untouched") {
			t.Fatalf("err = %v, want a failure naming artifact a/b", err)
		}
		if got := readTree(t, dir); !reflect.DeepEqual(got, expectedTree(t, previous)) {
			t.Errorf("the previous pack changed: %q", got)
		}
		assertNoLeftovers(t, dir)
	})
}

// TestWriteLocalNeverHalf looks at the pack folder at every step of a write
// that replaces a previous pack: a crash at any of those moments must leave
// the old pack whole, or no pack, never a mixture.
func TestWriteLocalNeverHalf(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "131")
	previous := newWriteFixture(headA, map[string]string{"evidence/criterion-1.jsonl": "old\n", "evidence/old.jsonl": "old 2\n"})
	if _, err := WriteLocal(dir, previous.pack, previous.files); err != nil {
		t.Fatal(err)
	}
	next := newWriteFixture(headB, map[string]string{"evidence/criterion-1.jsonl": "new\n", "evidence/criterion-2.jsonl": "new 2\n"})
	oldTree, newTree := expectedTree(t, previous), expectedTree(t, next)
	var seen []string
	_, err := writeLocal(dir, next.pack, next.files, func(step string) error {
		got := readTree(t, dir)
		switch {
		case got == nil:
			seen = append(seen, step+": absent")
		case reflect.DeepEqual(got, oldTree):
			seen = append(seen, step+": old")
		case reflect.DeepEqual(got, newTree):
			seen = append(seen, step+": new")
		default:
			t.Errorf("at step %q the folder is a mixture: %q", step, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"artifact evidence/criterion-1.jsonl: old",
		"artifact evidence/criterion-2.jsonl: old",
		"pack.json: old",
		"synced: old",
		"old moved aside: absent",
	}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("states seen %q, want %q", seen, want)
	}
	if got := readTree(t, dir); !reflect.DeepEqual(got, newTree) {
		t.Errorf("after the write the folder holds %q", got)
	}
	assertNoLeftovers(t, dir)
}
