package proof

import (
	"encoding/hex"
	"math/rand/v2"
	"strings"
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

// TestHexEqualMatchesEncoding: the hash comparison without a string is the
// comparison with one, for equal sums, sums one digit off and upper case.
func TestHexEqualMatchesEncoding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		sum := make([]byte, 32)
		for i := range sum {
			sum[i] = byte(rng.IntN(256))
		}
		want := hex.EncodeToString(sum)
		off := []byte(want)
		off[rng.IntN(len(off))] ^= 1
		for _, w := range []string{want, string(off), strings.ToUpper(want), want[:62], ""} {
			if got := hexEqual(sum, w); got != (hex.EncodeToString(sum) == w) {
				t.Fatalf("hexEqual(%x, %q) = %v", sum, w, got)
			}
		}
	}
}

// TestHasElementMatchesSplit: CheckPath's element test without splitting
// finds what ranging over strings.Split finds.
func TestHasElementMatchesSplit(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"", ".", "..", "a/..", "../a", "a/../b", "a/./b", "a/.", "a..b", "a/...", "./a", "a//b", "a/", "/a", "..a/b.", "a/b/c"} {
		for _, elem := range []string{".", ".."} {
			want := false
			for _, e := range strings.Split(p, "/") {
				want = want || e == elem
			}
			if got := hasElement(p, elem); got != want {
				t.Errorf("hasElement(%q, %q) = %v, want %v", p, elem, got, want)
			}
		}
	}
}
