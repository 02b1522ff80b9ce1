package proof

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadLocalAndVerifyLocalReadTheDemoPack(t *testing.T) {
	dir := filepath.Join("..", "testdata", "demo", "pack")
	p, raw, err := LoadLocal(dir)
	if err != nil || p.Story != 131 || len(raw) == 0 {
		t.Fatalf("LoadLocal: %v story=%d", err, p.Story)
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "demo", "ready.md"))
	if err != nil {
		t.Fatal(err)
	}
	ready, err := ParseReady(b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := VerifyLocal(context.Background(), dir, ready, p.PRHeadSHA, nil)
	if err != nil || !r.Verified() || !r.FloorsHold {
		t.Fatalf("the demo pack does not verify: %v %+v", err, r.Problems)
	}
	r, err = VerifyLocal(context.Background(), filepath.Join("..", "testdata", "demo", "tampered"), ready, p.PRHeadSHA, nil)
	if err != nil || r.Verified() {
		t.Fatalf("the tampered demo pack verified: %v", err)
	}
}
