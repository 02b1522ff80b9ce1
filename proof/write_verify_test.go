package proof

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWriteLocalOutputVerifies writes packs with WriteLocal and verifies the
// folders written: a sound pack verifies, flipping one artifact byte
// afterwards is refused, and nil lists are written as [] (Decode refuses
// null), so they are reported for what they are rather than as bad JSON.
func TestWriteLocalOutputVerifies(t *testing.T) {
	readyText := RenderReady(131, "Benefits answers cite their passage", time.Date(2026, 10, 12, 7, 30, 0, 0, time.UTC),
		[]string{"An answer cites the passage it came from.", "An answer without a passage says so."})
	ready, err := ParseReady(readyText)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"evidence/criterion-1.jsonl": []byte(`{"Action":"run","Package":"example.com/qa","Test":"TestCites"}` + "\n" +
			`{"Action":"pass","Package":"example.com/qa","Test":"TestCites"}` + "\n"),
		"evidence/criterion-2.jsonl": []byte(`{"Action":"run","Package":"example.com/qa","Test":"TestSaysSo"}` + "\n" +
			`{"Action":"pass","Package":"example.com/qa","Test":"TestSaysSo"}` + "\n"),
	}
	newPack := func() *Pack {
		return &Pack{
			Schema: SchemaVersion, Repo: "acme/benefits", Story: 131, PR: 148, PRHeadSHA: headA,
			Seat: "ai-native-engineer", Host: "cli", Identity: IdentityCI,
			Authority: Authority{Kind: AuthorityAdvisory}, CompletionGoalHash: ready.RecordedHash,
			Criteria: []Criterion{
				{ID: 1, Evidence: []string{"evidence/criterion-1.jsonl"}},
				{ID: 2, Evidence: []string{"evidence/criterion-2.jsonl"}},
			},
			Artifacts: []Artifact{
				ArtifactFromBytes("evidence/criterion-1.jsonl", KindAPITrace, files["evidence/criterion-1.jsonl"]),
				ArtifactFromBytes("evidence/criterion-2.jsonl", KindAPITrace, files["evidence/criterion-2.jsonl"]),
			},
			Checks:    []Check{{Floor: "coverage", Result: ResultPass, Network: NetworkIsolated}},
			CreatedAt: "2026-10-12T09:48:42Z",
		}
	}
	tests := []struct {
		name  string
		edit  func(p *Pack)
		after func(t *testing.T, dir string, p *Pack)
		want  []Code
		say   []string // words the problems must hold
	}{
		{name: "sound pack verifies"},
		{name: "one artifact byte flipped after writing",
			after: func(t *testing.T, dir string, p *Pack) {
				flipFileByte(t, filepath.Join(dir, artifactsDir, "evidence", "criterion-2.jsonl"), 5)
			},
			want: []Code{CodeHashMismatch},
			// The pack's hash is named whole, never abbreviated.
			say: []string{"evidence/criterion-2.jsonl", newPack().Artifacts[1].SHA256}},
		{name: "nil checks are written as an empty list",
			edit: func(p *Pack) { p.Checks = nil },
			want: []Code{CodeEmpty}, say: []string{"no floor checks"}},
		{name: "nil evidence is written as an empty list",
			edit: func(p *Pack) { p.Criteria[1].Evidence = nil },
			want: []Code{CodeCriterionNoEvid}, say: []string{"Criterion 2 has no evidence"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPack()
			if tc.edit != nil {
				tc.edit(p)
			}
			dir := filepath.Join(t.TempDir(), ".aayudha", "proof", "131")
			sum, err := WriteLocal(dir, p, files)
			if err != nil {
				t.Fatalf("WriteLocal: %v", err)
			}
			packJSON, err := os.ReadFile(filepath.Join(dir, packFile))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(packJSON), "null") {
				t.Errorf("pack.json holds null, which Decode refuses:\n%s", packJSON)
			}
			if tc.after != nil {
				tc.after(t, dir, p)
			}
			r, err := VerifyDir(context.Background(), dir, Options{Ready: ready, HeadSHA: headA, Story: 131, PR: 148})
			if err != nil {
				t.Fatal(err)
			}
			if r.PackSHA256 != sum {
				t.Errorf("VerifyDir read pack.json with SHA-256 %s, WriteLocal returned %s", r.PackSHA256, sum)
			}
			if !sameCodes(problemCodes(r), tc.want) {
				t.Fatalf("problems = %v, want %v:%s", problemCodes(r), tc.want, describeProblems(r))
			}
			if r.Verified() != (len(tc.want) == 0) {
				t.Errorf("Verified() = %v with problems %v", r.Verified(), problemCodes(r))
			}
			text := describeProblems(r)
			for _, s := range tc.say {
				if !strings.Contains(text, s) {
					t.Errorf("the problems do not say %q:%s", s, text)
				}
			}
		})
	}
}
