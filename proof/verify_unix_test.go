//go:build unix

package proof

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestReadFileCappedRefusesFIFO: a flag naming a FIFO (--ready) is refused
// at once instead of blocking until a writer comes.
func TestReadFileCappedRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ready.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFileCapped(fifo, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a FIFO") {
			t.Fatalf("err = %v, want a refusal naming a FIFO", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}
