package proof

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestVerifyDirRefusesFolderSymlinkInsideThePack: a folder that is a
// symlink to another folder of the same pack is refused, though os.Root
// would follow it: the folders held open are only those found real,
// element by element, and the artifact is then looked at the old way.
func TestVerifyDirRefusesFolderSymlinkInsideThePack(t *testing.T) {
	t.Parallel()
	files := fixtureFiles()
	p := fixturePack(files)
	dir := writeFixtureDir(t, p, files)
	reports := filepath.Join(dir, "artifacts/reports")
	if err := os.Rename(reports, filepath.Join(dir, "artifacts/moved")); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, "moved", reports)
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verified() || !hasCode(r, CodeNotRegular) {
		t.Fatalf("a symlinked folder inside the pack was not refused:%s", describeProblems(r))
	}
}

// TestVerifyDirBeyondTheOpenFolders: a pack in more folders than are held
// open still verifies, the rest read from the pack's root, and a changed
// file beyond them is still found.
func TestVerifyDirBeyondTheOpenFolders(t *testing.T) {
	t.Parallel()
	files := fixtureFiles()
	p := fixturePack(files)
	for i := range maxOpenFolders + 40 {
		name := fmt.Sprintf("reports/f-%03d/r.txt", i)
		data := []byte(fmt.Sprintf("report %d\n", i))
		files[name] = data
		p.Artifacts = append(p.Artifacts, fixtureArtifact(name, KindReport, StoreGit, data))
	}
	dir := writeFixtureDir(t, p, files)
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil || !r.Verified() {
		t.Fatalf("not verified: %v%s", err, describeProblems(r))
	}
	last := filepath.Join(dir, "artifacts", fmt.Sprintf("reports/f-%03d/r.txt", maxOpenFolders+39))
	if err := os.WriteFile(last, []byte("report 999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verified() || !hasCode(r, CodeHashMismatch) {
		t.Fatalf("a changed file beyond the open folders was not found:%s", describeProblems(r))
	}
}
