//go:build unix

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/tui"
)

// unblockAfter opens fifo for writing after a while and closes it, so a
// regression that blocks on the FIFO fails the test instead of hanging it.
func unblockAfter(t *testing.T, fifo string) {
	t.Helper()
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
				f.Close()
			}
		}
	}()
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	unblockAfter(t, path)
}

// TestUserConfigRefusesFIFO: a FIFO where the user config belongs is
// refused in words at once; reading it would wait for a writer forever.
func TestUserConfigRefusesFIFO(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	file := filepath.Join(home, ".config", "aayu", "config.toml")
	mkfifo(t, file)
	start := time.Now()
	code, _, errOut := runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "inbox", "--list")
	if code == tui.ExitOK || !strings.Contains(errOut, file) || !strings.Contains(errOut, "not a regular file (a FIFO)") {
		t.Fatalf("exit %d, want a refusal naming the file as a FIFO:\n%s", code, errOut)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("refusing the FIFO took %v", took)
	}
}

// TestCheckoutConfigReadRefusesFIFO: ship's read of the checkout's
// .aayudha/config.toml goes through readCapped, which refuses a FIFO
// without blocking and still reports a missing file as missing.
func TestCheckoutConfigReadRefusesFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".aayudha", "config.toml")
	mkfifo(t, fifo)
	_, err := readCapped(fifo, config.MaxTOMLBytes)
	if err == nil || !strings.Contains(err.Error(), "FIFO") || errors.Is(err, os.ErrNotExist) {
		t.Fatalf("readCapped(FIFO) = %v, want a refusal naming a FIFO", err)
	}
	if _, err := readCapped(filepath.Join(dir, "absent.toml"), config.MaxTOMLBytes); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("readCapped(missing) = %v, want os.ErrNotExist", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := readCapped(filepath.Join(dir, "folder.toml"), config.MaxTOMLBytes); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Fatalf("readCapped(folder) = %v, want a refusal naming a folder", err)
	}
}
