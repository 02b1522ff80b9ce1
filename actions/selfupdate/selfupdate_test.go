package selfupdate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRefusesABinaryPathNotWritable: where aayu cannot create a file
// beside the binary (here its "folder" is a file, which even root cannot
// write into), the refusal comes before any request; the client is nil,
// so a request would panic.
func TestCheckRefusesABinaryPathNotWritable(t *testing.T) {
	t.Parallel()
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Check(context.Background(), Config{Exe: filepath.Join(notDir, "aayu"), Owner: "aayudha", Repo: "aayu"})
	if !IsRefusal(err) || !strings.Contains(err.Error(), "aayu cannot write beside "+filepath.Join(notDir, "aayu")) {
		t.Fatalf("got %v", err)
	}
}

func installRig(t *testing.T) (Config, []byte, *Found) {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "aayu")
	old := []byte("old aayu")
	if err := os.WriteFile(exe, old, 0o755); err != nil {
		t.Fatal(err)
	}
	return Config{Exe: exe}, old, &Found{Tag: "v2", Asset: "aayu_linux_amd64", bytes: []byte("new aayu")}
}

func TestInstallKeepsTheOldBinaryUntilTheNewOneRuns(t *testing.T) {
	t.Parallel()
	cfg, old, f := installRig(t)
	var sawOld []byte
	run := func(_ context.Context, path string) (string, error) {
		sawOld, _ = os.ReadFile(OldName(path))
		b, _ := os.ReadFile(path)
		return "aayu version " + string(b), nil
	}
	got, err := Install(context.Background(), cfg, f, run)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sawOld, old) {
		t.Fatalf("while the new aayu ran, %s held %q, want the old binary", OldName(cfg.Exe), sawOld)
	}
	if got.Version != "aayu version new aayu" || got.OldKept != "" {
		t.Fatalf("installed %+v", got)
	}
	if b, _ := os.ReadFile(cfg.Exe); string(b) != "new aayu" {
		t.Fatalf("binary %q", b)
	}
	if _, err := os.Stat(OldName(cfg.Exe)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("aayu.old left behind: %v", err)
	}
}

func TestInstallRollsBackANewBinaryThatDoesNotRun(t *testing.T) {
	t.Parallel()
	cfg, old, f := installRig(t)
	run := func(context.Context, string) (string, error) { return "", errors.New("exit status 3") }
	_, err := Install(context.Background(), cfg, f, run)
	if !IsRefusal(err) || !strings.Contains(err.Error(), "did not run") || !strings.Contains(err.Error(), "the old aayu is back in place") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(cfg.Exe); !bytes.Equal(b, old) {
		t.Fatalf("binary %q, want the old one", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(cfg.Exe))
	if len(entries) != 1 {
		t.Fatalf("%d files beside the binary, want it alone", len(entries))
	}
}

func TestAssetName(t *testing.T) {
	t.Parallel()
	if got := AssetName("linux", "arm64"); got != "aayu_linux_arm64" {
		t.Fatal(got)
	}
	if got := AssetName("windows", "amd64"); got != "aayu_windows_amd64.exe" {
		t.Fatal(got)
	}
}
