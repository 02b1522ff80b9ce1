package proof

import (
	"math/rand/v2"
	"testing"
)

// TestFoldNameASCIIMatchesUnicodeFold holds foldName's ASCII shortcut to the
// Unicode transforms it skips: every ASCII character alone and in random
// names, and names that reach the Unicode path (the Kelvin sign folds to an
// ASCII k, so "K" and "\u212a" must still collide).
func TestFoldNameASCIIMatchesUnicodeFold(t *testing.T) {
	t.Parallel()
	for c := range 0x80 {
		s := string(rune(c))
		if got, want := foldName(s), foldNameUnicode(s); got != want {
			t.Errorf("foldName(%q) = %q, the Unicode fold gives %q", s, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		b := make([]byte, 1+rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(0x80))
		}
		if got, want := foldName(string(b)), foldNameUnicode(string(b)); got != want {
			t.Fatalf("foldName(%q) = %q, the Unicode fold gives %q", b, got, want)
		}
	}
	for _, pair := range [][2]string{{"K.txt", "\u212a.txt"}, {"caf\u00e9", "CAFE\u0301"}, {"ss", "\u00df"}} {
		if foldName(pair[0]) != foldName(pair[1]) {
			t.Errorf("%q and %q no longer collide: %q, %q", pair[0], pair[1], foldName(pair[0]), foldName(pair[1]))
		}
	}
}

// TestFoldNameASCIIDoesNotAllocate: a lower-case ASCII path, the usual
// artifact path, costs no allocation to fold.
func TestFoldNameASCIIDoesNotAllocate(t *testing.T) {
	name := "evidence/batch-07/trace-0007.jsonl"
	if n := testing.AllocsPerRun(100, func() { _ = foldName(name) }); n != 0 {
		t.Errorf("foldName of a lower-case ASCII path allocates %v times", n)
	}
}
