package sandbox_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestIndependentVerifierAcceptsTheSandboxGatesBundle: the bundle the
// sandbox lists for a gate run's pack.json verifies under sigstore-go's
// own Verifier with the identity policy GitHub documents for artifact
// attestations ("Using artifact attestations to establish provenance":
// the certificate's SAN is the signing workflow's URI at its ref, its
// issuer https://token.actions.githubusercontent.com, and Fulcio's
// extensions name the source repository and the triggering event), not
// with aayu's own code. A POST of the same bundle is stored too.
func TestIndependentVerifierAcceptsTheSandboxGatesBundle(t *testing.T) {
	srv, _, base := startValidated(t, sandbox.Options{})
	gh := client(t, base, "sandbox-founder")
	ctx := context.Background()
	runID := srv.RunID(sandbox.RunQualifying)
	if err := srv.AttestRunPack(runID, nil); err != nil {
		t.Fatal(err)
	}
	packJSON, err := srv.RunPackJSON(runID)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(packJSON)
	req, err := gh.NewRequest("GET", "repos/acme/benefits/attestations/sha256:"+hex.EncodeToString(sum[:]), nil)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Attestations []struct {
			Bundle       json.RawMessage `json:"bundle"`
			RepositoryID int64           `json:"repository_id"`
		} `json:"attestations"`
	}
	if _, err := gh.Do(ctx, req, &list); err != nil || len(list.Attestations) != 1 {
		t.Fatalf("list: %v, %d attestations", err, len(list.Attestations))
	}
	var b bundle.Bundle
	if err := b.UnmarshalJSON(list.Attestations[0].Bundle); err != nil {
		t.Fatal(err)
	}

	// The policy, written from GitHub's documentation.
	san, err := verify.NewSANMatcher("https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/dev", "")
	if err != nil {
		t.Fatal(err)
	}
	issuer, err := verify.NewIssuerMatcher("https://token.actions.githubusercontent.com", "")
	if err != nil {
		t.Fatal(err)
	}
	id, err := verify.NewCertificateIdentity(san, issuer, certificate.Extensions{
		SourceRepositoryURI: "https://github.com/acme/benefits",
		BuildTrigger:        "pull_request_target",
		RunnerEnvironment:   "github-hosted",
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := verify.NewVerifier(srv.TrustedRoot(), verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.Verify(&b, verify.NewPolicy(verify.WithArtifactDigest("sha256", sum[:]), verify.WithCertificateIdentity(id)))
	if err != nil {
		t.Fatalf("sigstore-go's verifier refuses the sandbox's bundle: %v", err)
	}
	if res.Statement.GetPredicateType() != "https://aayudha.dev/proof-pack/v1" {
		t.Errorf("predicate type %q", res.Statement.GetPredicateType())
	}

	// The same policy refuses the gate of another branch.
	other, _ := verify.NewSANMatcher("https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/main", "")
	otherID, _ := verify.NewCertificateIdentity(other, issuer, certificate.Extensions{})
	if _, err := v.Verify(&b, verify.NewPolicy(verify.WithArtifactDigest("sha256", sum[:]), verify.WithCertificateIdentity(otherID))); err == nil {
		t.Error("a policy naming refs/heads/main took the dev gate's bundle")
	}

	// actions/attest's own upload: POST stores the bundle under its subject.
	post, err := gh.NewRequest("POST", "repos/acme/benefits/attestations", map[string]json.RawMessage{"bundle": list.Attestations[0].Bundle})
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID int64 `json:"id"`
	}
	if _, err := gh.Do(ctx, post, &created); err != nil || created.ID == 0 {
		t.Fatalf("create: %v, id %d", err, created.ID)
	}
	if _, err := gh.Do(ctx, req, &list); err != nil || len(list.Attestations) != 2 {
		t.Fatalf("after the POST: %v, %d attestations", err, len(list.Attestations))
	}
}
