package proof

import "testing"

// TestInLocalPackFolder: a path inside .aayudha/proof/ (in any case) is a
// local pack's; the folder's neighbours are not.
func TestInLocalPackFolder(t *testing.T) {
	for p, want := range map[string]bool{
		".aayudha/proof/3/pack.json": true, ".aayudha/proof/.gitignore": true, ".Aayudha/Proof/3/pack.json": true,
		"./.aayudha/proof/3/pack.json": true, ".aayudha/proof/": false, ".aayudha/proofs/3/pack.json": false,
		".aayudha/evidence/3.toml": false, "src/.aayudha/proof/3/pack.json": false, "": false,
	} {
		if got := InLocalPackFolder(p); got != want {
			t.Errorf("InLocalPackFolder(%q) = %v, want %v", p, got, want)
		}
	}
}
