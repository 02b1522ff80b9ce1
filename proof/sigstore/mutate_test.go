package sigstore_test

import (
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/aayudha/aayu/proof/sigstore"
)

// TestRandomEditsNeverVerifyWhereSigstoreGoRefuses edits bundles at random
// (bytes changed, inserted, deleted; the sandbox's bundle, a real
// github.com bundle, a timestamped one) and holds this package to never
// verifying one sigstore-go refuses. AAYU_MUTATIONS sets how many edits of
// each (default 1,000; run with 100,000 before changing the verifier).
func TestRandomEditsNeverVerifyWhereSigstoreGoRefuses(t *testing.T) {
	t.Parallel()
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("AAYU_MUTATIONS")); err == nil {
		n = v
	}
	own, _ := sandboxFixture(t, nil, `{"a":1}`)
	for _, f := range []fixture{own, readFixture(t, "sigstore-js provenance", "trusted-root-public-good.json", "sigstore-js-provenance-v0.1.json"),
		readFixture(t, "a github.com actions/attest bundle", "trusted-root-public-good.json", "gh-cli-reusable-workflow.json")} {
		tr, err := sigstore.ParseTrustedRoot(f.trusted)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewSource(int64(len(f.bundle))))
		accepted := 0
		for range n {
			b := append([]byte(nil), f.bundle...)
			for range 1 + r.Intn(3) {
				i := r.Intn(len(b))
				switch r.Intn(3) {
				case 0:
					b[i] = byte(r.Intn(256))
				case 1:
					b = append(b[:i], append([]byte{byte(r.Intn(256))}, b[i:]...)...)
				default:
					b = append(b[:i], b[i+1:]...)
				}
			}
			if _, err := sigstore.Verify(tr, b); err == nil {
				accepted++
				if e := oracle(f.trusted, b); e != nil {
					t.Fatalf("%s: this package verifies an edit sigstore-go refuses (%v):\n%s", f.name, e, b)
				}
			}
		}
		t.Logf("%s: %d of %d edits still verify under both", f.name, accepted, n)
	}
}
