package proof

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestReadPackDirAndVerifyDirReadTheDemoPack(t *testing.T) {
	dir := filepath.Join("..", "testdata", "demo", "pack")
	p, raw, err := ReadPackDir(dir, Limits{})
	if err != nil || p.Story != 131 || len(raw) == 0 {
		t.Fatalf("ReadPackDir: %v story=%d", err, p.Story)
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "demo", "ready.md"))
	if err != nil {
		t.Fatal(err)
	}
	ready, err := ParseReady(b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := VerifyDir(context.Background(), dir, Options{Ready: ready, HeadSHA: p.PRHeadSHA})
	if err != nil || !r.Verified() || !r.FloorsHold {
		t.Fatalf("the demo pack does not verify: %v %+v", err, r.Problems)
	}
	r, err = VerifyDir(context.Background(), filepath.Join("..", "testdata", "demo", "tampered"), Options{Ready: ready, HeadSHA: p.PRHeadSHA})
	if err != nil || r.Verified() {
		t.Fatalf("the tampered demo pack verified: %v", err)
	}
}
