//go:build unix

package proof

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

func TestVerifyRefusesFIFO(t *testing.T) {
	files := fixtureFiles()
	delete(files, "reports/coverage.txt")
	dir := writeFixtureDir(t, fixturePack(files), files)
	fifo := filepath.Join(dir, "artifacts/reports/coverage.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	// A FIFO opened for reading would block forever; the verifier must
	// refuse it from Lstat alone.
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !sameCodes(problemCodes(r), []Code{CodeNotRegular}) {
		t.Fatalf("problems = %v, want not_regular_file:%s", problemCodes(r), describeProblems(r))
	}
}
