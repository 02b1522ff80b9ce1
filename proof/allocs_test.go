package proof

import (
	"context"
	"fmt"
	"testing"
)

// allocsPackDir writes a pack of n small artifacts spread over 25 folders,
// with the criteria's test events, for counting what verifying costs per
// artifact beyond the hashing.
func allocsPackDir(t testing.TB, n int) string {
	files := fixtureFiles()
	p := fixturePack(files)
	for i := range n {
		name := fmt.Sprintf("reports/batch-%02d/r-%05d.txt", i%25, i)
		data := []byte(fmt.Sprintf("report %d\n", i))
		files[name] = data
		p.Artifacts = append(p.Artifacts, fixtureArtifact(name, KindReport, StoreGit, data))
	}
	return writeFixtureDir(t, p, files)
}

// TestVerifyDirAllocationsPerArtifact holds what verifying a pack folder
// allocates for each artifact (issue 23: no per-artifact allocation beyond
// pack.json's own listing): the strict decode of its entry, the file
// handle and what the system calls return, and its line in the report.
// It was 137 an artifact when pack.json went through a generic JSON
// Schema document, paths through the Unicode fold and files were opened
// by a walk from the pack's root; it is 17 now.
//
// Not parallel: AllocsPerRun counts the whole process's allocations.
func TestVerifyDirAllocationsPerArtifact(t *testing.T) {
	const small, large = 100, 1100
	count := func(dir string) float64 {
		return testing.AllocsPerRun(3, func() {
			r, err := VerifyDir(context.Background(), dir, fixtureOptions())
			if err != nil || !r.Verified() {
				t.Fatalf("not verified: %v%s", err, describeProblems(r))
			}
		})
	}
	a, b := count(allocsPackDir(t, small)), count(allocsPackDir(t, large))
	perArtifact := (b - a) / (large - small)
	t.Logf("%.0f allocations at %d artifacts, %.0f at %d: %.1f an artifact", a, small, b, large, perArtifact)
	if perArtifact > 30 {
		t.Errorf("verifying allocates %.1f times an artifact, want at most 30", perArtifact)
	}
}
