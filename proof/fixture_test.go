package proof

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The fixture is a small sound pack for story 7: two criteria proven by
// go test events, a coverage report, and a screenshot kept only by hash
// whose bytes are present, as in a run artifact.
const (
	fixtureHead = "0123456789abcdef0123456789abcdef01234567"
	fixtureGoal = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
)

func fixtureFiles() map[string][]byte {
	return map[string][]byte{
		"evidence/criterion-1.jsonl": []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" +
			`{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n"),
		"evidence/criterion-2.jsonl": []byte(`{"Action":"run","Package":"example.com/x","Test":"TestTwo"}` + "\n" +
			`{"Action":"pass","Package":"example.com/x","Test":"TestTwo"}` + "\n"),
		"reports/coverage.txt": []byte("12 of 12 changed executable lines covered\n"),
		"screens/1.png":        []byte("\x89PNG\r\n\x1a\nnot really an image"),
	}
}

func fixtureArtifact(p, kind, store string, data []byte) Artifact {
	sum := sha256.Sum256(data)
	return Artifact{Path: p, Kind: kind, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data)), Store: store}
}

func fixturePack(files map[string][]byte) *Pack {
	value, threshold, testsPassed, none := 100.0, 90.0, 2.0, 0.0
	return &Pack{
		Schema: SchemaVersion, Repo: "acme/benefits", Story: 7, PR: 21, PRHeadSHA: fixtureHead,
		Seat: "ai-native-engineer", Host: "cli", Identity: IdentityCI,
		Authority:          Authority{Kind: AuthorityAdvisory},
		CompletionGoalHash: fixtureGoal,
		Criteria: []Criterion{
			{ID: 1, Evidence: []string{"evidence/criterion-1.jsonl", "screens/1.png"}},
			{ID: 2, Evidence: []string{"evidence/criterion-2.jsonl"}},
		},
		Artifacts: []Artifact{
			fixtureArtifact("evidence/criterion-1.jsonl", KindAPITrace, StoreGit, files["evidence/criterion-1.jsonl"]),
			fixtureArtifact("evidence/criterion-2.jsonl", KindAPITrace, StoreGit, files["evidence/criterion-2.jsonl"]),
			fixtureArtifact("reports/coverage.txt", KindReport, StoreGit, files["reports/coverage.txt"]),
			fixtureArtifact("screens/1.png", KindScreenshot, StoreNone, files["screens/1.png"]),
		},
		Checks: []Check{
			{Floor: "tests", Result: ResultPass, Value: &testsPassed, Network: NetworkIsolated},
			{Floor: "coverage", Result: ResultPass, Value: &value, Threshold: &threshold, Network: NetworkIsolated},
			{Floor: "vet", Result: ResultPass, Value: &none, Threshold: &none, Network: NetworkIsolated},
		},
		Links:     Links{ReadySnapshot: "specs/7/ready.md"},
		CreatedAt: "2026-10-12T09:48:42Z",
	}
}

func fixtureReady() *Ready {
	return &Ready{
		Story: 7, Title: "fixture", RecordedHash: fixtureGoal, BodyHash: fixtureGoal,
		Criteria: []ReadyCriterion{{ID: 1, Text: "first"}, {ID: 2, Text: "second"}},
	}
}

func fixtureOptions() Options {
	return Options{Ready: fixtureReady(), HeadSHA: fixtureHead, Story: 7, PR: 21}
}

// writeFixtureDir lays a pack folder out in a fresh temporary folder.
func writeFixtureDir(t testing.TB, p *Pack, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	data, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFixtureFile(t, filepath.Join(dir, packFile), data)
	for name, b := range files {
		writeFixtureFile(t, filepath.Join(dir, artifactsDir, filepath.FromSlash(name)), b)
	}
	return dir
}

func writeFixtureFile(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func problemCodes(r *Report) []Code {
	var codes []Code
	for _, p := range r.Problems {
		codes = append(codes, p.Code)
	}
	return codes
}

func describeProblems(r *Report) string {
	var b strings.Builder
	for _, p := range r.Problems {
		b.WriteString("\n  " + string(p.Code) + ": " + p.Message)
	}
	return b.String()
}

// sameCodes compares two lists of codes as multisets.
func sameCodes(got, want []Code) bool {
	if len(got) != len(want) {
		return false
	}
	count := map[Code]int{}
	for _, c := range got {
		count[c]++
	}
	for _, c := range want {
		count[c]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

func flipFileByte(t testing.TB, name string, offset int) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	data[offset] ^= 0x01
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t testing.TB, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func mustRemove(t testing.TB, name string) {
	t.Helper()
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t testing.TB, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("symlinks unavailable here: %v", err)
	}
}

func mustReadTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func withBytes(a Artifact, data []byte) Artifact {
	a.SHA256, a.Size = sha256Hex(data), int64(len(data))
	return a
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func itoa(n int) string { return strconv.Itoa(n) }
