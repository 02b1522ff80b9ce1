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
	t.Parallel()
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

// TestListAttestationsReadsNotFoundAsNotAttested: GitHub answers a digest
// nothing attests with 404; aayu reads that as "not attested" (no
// bundles, no error), while another failure stays an error.
func TestListAttestationsReadsNotFoundAsNotAttested(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	unknown := hex.EncodeToString(make([]byte, 32))
	req, err := env.client.NewRequest("GET", "repos/acme/benefits/attestations/sha256:"+unknown, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := env.client.Do(context.Background(), req, nil); err == nil || resp == nil || resp.StatusCode != 404 {
		t.Fatalf("the sandbox answered %v (%v), want GitHub's 404 for a digest nothing attests", resp, err)
	}
	got, err := ghx.ListAttestations(context.Background(), env.client, sandbox.RepoOwner, sandbox.RepoName, unknown)
	if err != nil || got != nil {
		t.Fatalf("got %d bundles, err %v; want none and no error", len(got), err)
	}
}
