package proof

import (
	"context"
	"fmt"
	"testing"
)

func BenchmarkDecode(b *testing.B) {
	raw := mustReadTestdata(b, "packs/story131.json")
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := Decode(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyDir verifies a pack of 200 artifacts of 64 KiB each.
func BenchmarkVerifyDir(b *testing.B) {
	files := map[string][]byte{}
	p := fixturePack(nil)
	p.Artifacts = nil
	var total int64
	for i := range 200 {
		name := fmt.Sprintf("reports/r-%03d.txt", i)
		data := make([]byte, 64<<10)
		for j := range data {
			data[j] = byte(i + j)
		}
		files[name] = data
		p.Artifacts = append(p.Artifacts, fixtureArtifact(name, KindReport, StoreGit, data))
		total += int64(len(data))
	}
	p.Criteria = []Criterion{{ID: 1, Evidence: []string{"reports/r-000.txt"}}, {ID: 2, Evidence: []string{"reports/r-001.txt"}}}
	dir := writeFixtureDir(b, p, files)
	b.SetBytes(total)
	for b.Loop() {
		r, err := VerifyDir(context.Background(), dir, fixtureOptions())
		if err != nil || !r.Verified() {
			b.Fatalf("not verified: %v%s", err, describeProblems(r))
		}
	}
}
