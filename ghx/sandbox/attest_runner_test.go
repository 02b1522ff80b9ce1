package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
)

// attestWorkflow's pack job writes a pack.json and attests it as the
// merge gate does; its nosign job tries the same without id-token: write.
const attestWorkflow = `name: attest
on:
  pull_request_target:
permissions: {}
jobs:
  pack:
    permissions:
      contents: read
      id-token: write
      attestations: write
    steps:
      - run: |
          mkdir -p out && printf '{"story": 3}\n' > out/pack.json
      - id: attest
        uses: actions/attest@1e69f48acb82d1966a394da916b4c1698aa569d6 # v4.2.2
        with:
          subject-path: out/pack.json
          predicate-type: https://aayudha.dev/proof-pack/v1
          predicate-path: out/pack.json
      - env:
          BUNDLE: ${{ steps.attest.outputs.bundle-path }}
        run: cp "$BUNDLE" %[1]s/bundle.json
  nosign:
    permissions:
      contents: read
      attestations: write
    steps:
      - run: |
          mkdir -p out && printf '{"story": 4}\n' > out/pack.json
      - uses: actions/attest@1e69f48acb82d1966a394da916b4c1698aa569d6 # v4.2.2
        with:
          subject-path: out/pack.json
          predicate-type: https://aayudha.dev/proof-pack/v1
          predicate-path: out/pack.json
`

// TestRunnerAttestsOnlyForAJobThatMaySign: actions/attest on the runner
// signs with a certificate naming the gate file at the pull request's base
// branch, run for pull_request_target, and stores the bundle under the
// subject's digest; a job without id-token: write gets no signature.
func TestRunnerAttestsOnlyForAJobThatMaySign(t *testing.T) {
	t.Parallel()
	s, err := New(Options{ShareSeed: true, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	out := t.TempDir()
	run := s.runWorkflow(context.Background(), ts.URL, RunnerOptions{Aayu: "/bin/true"}, RepoName, DemoPRReady, fmt.Appendf(nil, attestWorkflow, out))
	if run.Conclusion != "failure" {
		t.Errorf("run conclusion %q, want failure (nosign could not attest)", run.Conclusion)
	}
	raw, err := os.ReadFile(filepath.Join(out, "bundle.json"))
	if err != nil {
		t.Fatalf("the attest step gave no bundle-path: %v", err)
	}
	var b bundle.Bundle
	if err := b.UnmarshalJSON(raw); err != nil {
		t.Fatal(err)
	}
	// sigstore-go, the oracle, reads the root the sandbox writes.
	tj, err := s.TrustedRoot().MarshalJSON()
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
	sum := sha256.Sum256([]byte("{\"story\": 3}\n"))
	res, err := v.Verify(&b, verify.NewPolicy(verify.WithArtifactDigest("sha256", sum[:]), verify.WithoutIdentitiesUnsafe()))
	if err != nil {
		t.Fatalf("the runner's bundle does not verify under the sandbox's root: %v", err)
	}
	s.mu.Lock()
	base := s.st.issue(DemoPRReady).PR.Base
	var digests []string
	for _, a := range s.st.Attestations {
		digests = append(digests, a.Digests...)
	}
	s.mu.Unlock()
	c := res.Signature.Certificate
	if want := "https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/" + base; c.SubjectAlternativeName != want {
		t.Errorf("SAN %q, want %q", c.SubjectAlternativeName, want)
	}
	if c.BuildTrigger != "pull_request_target" || c.Issuer != "https://token.actions.githubusercontent.com" || c.SourceRepositoryURI != "https://github.com/acme/benefits" {
		t.Errorf("certificate %+v", c.Extensions)
	}
	if len(digests) != 1 || digests[0] != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("stored under %v; only the signing job's pack.json should be", digests)
	}
}
