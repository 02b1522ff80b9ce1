package sandbox_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof/attest"
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
	t.Parallel()
	srv, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
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
	tj, err := srv.TrustedRoot().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := root.NewTrustedRootFromJSON(tj)
	if err != nil {
		t.Fatal(err)
	}
	v, err := verify.NewVerifier(tr, verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
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

// TestTheDemosSeededPacksAreAttestedAsTheirRunsWouldBe: every seeded
// merge-gate run that succeeded on pull_request_target with a pack has
// that pack.json attested with the identity its pack job would have had —
// the gate file at the pull request's base branch, pull_request_target —
// verified by proof/attest as ship verifies it; the pull request's own
// copy of the gate (pull_request) and the runs that built no pack have
// none. Each process signs them with its own Sigstore, so a second server
// on the same state lists, in place of the first's saved bundles, bundles
// its own root verifies.
func TestTheDemosSeededPacksAreAttestedAsTheirRunsWouldBe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for round := range 2 {
		srv, err := sandbox.New(sandbox.Options{ShareSeed: true, StateDir: dir, Now: fixedClock})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		gh := client(t, ts.URL, "sandbox-founder")
		list := func(run string) [][]byte {
			t.Helper()
			packJSON, err := srv.RunPackJSON(srv.RunID(run))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(packJSON)
			got, err := ghx.ListAttestations(context.Background(), gh, "acme", "benefits", hex.EncodeToString(sum[:]))
			if err != nil {
				t.Fatal(err)
			}
			out := make([][]byte, len(got))
			for i, b := range got {
				out[i] = b
			}
			return out
		}
		for _, run := range []string{sandbox.RunQualifying, sandbox.RunOlderHead, sandbox.RunTampered, sandbox.RunReviewPR, sandbox.RunAuditPR} {
			packJSON, _ := srv.RunPackJSON(srv.RunID(run))
			sum := sha256.Sum256(packJSON)
			bundles := list(run)
			if len(bundles) != 1 {
				t.Errorf("round %d: run %s's pack has %d attestations, want the one its pack job made", round, run, len(bundles))
				continue
			}
			id, err := attest.Verify(srv.TrustedRoot(), bundles[0], attest.Expect{Repo: "acme/benefits", BaseRef: "dev",
				PackSHA256: hex.EncodeToString(sum[:]), PackJSON: packJSON})
			if err != nil {
				t.Errorf("round %d: run %s's attestation does not verify as the dev gate's: %v", round, run, err)
				continue
			}
			if id.SAN != "https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/dev" || id.Trigger != "pull_request_target" {
				t.Errorf("round %d: run %s signed by %+v", round, run, id)
			}
		}
		if got := list(sandbox.RunPullRequest); len(got) != 0 {
			t.Errorf("round %d: the pull request's own copy of the gate (pull_request) has %d attestations, want none", round, len(got))
		}
		if round == 0 {
			// A write saves the state with this process's bundles in it,
			// which the next process cannot verify: it replaces them.
			if err := srv.AttestRunPack(srv.RunID(sandbox.RunExpired), nil); err != nil {
				t.Fatal(err)
			}
		}
		ts.Close()
		_ = srv.Close()
	}
}
