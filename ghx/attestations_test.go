package ghx_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestListAttestationsReadsTheGatesBundleByPackDigest: a run's attested
// pack.json is found by its sha256, and another digest finds nothing.
func TestListAttestationsReadsTheGatesBundleByPackDigest(t *testing.T) {
	env := startSandbox(t, envConfig{})
	runID := env.srv.RunID(sandbox.RunQualifying)
	if err := env.srv.AttestRunPack(runID, nil); err != nil {
		t.Fatal(err)
	}
	packJSON, err := env.srv.RunPackJSON(runID)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(packJSON)
	got, err := ghx.ListAttestations(context.Background(), env.client, sandbox.RepoOwner, sandbox.RepoName, hex.EncodeToString(sum[:]))
	if err != nil || len(got) != 1 {
		t.Fatalf("got %d bundles, err %v; want the one attestation", len(got), err)
	}
	none, err := ghx.ListAttestations(context.Background(), env.client, sandbox.RepoOwner, sandbox.RepoName, hex.EncodeToString(make([]byte, 32)))
	if err != nil || len(none) != 0 {
		t.Fatalf("another digest: %d bundles, err %v", len(none), err)
	}
}
