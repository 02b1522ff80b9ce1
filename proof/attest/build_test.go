package attest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
)

// releaseClaims are aayudha/aayu's release workflow run for tag v0.9.0.
func releaseClaims() vsigstore.Claims {
	return vsigstore.Claims{Repository: "aayudha/aayu", RepositoryID: 9, OwnerID: 4, WorkflowPath: ".github/workflows/aayudha-release.yml",
		Ref: "refs/tags/v0.9.0", SHA: strings.Repeat("c", 40), Event: "push", RunID: 77, RunAttempt: 1, Visibility: "public"}
}

// signBuild attests file as actions/attest-build-provenance would, with the
// claims changed by edit, and returns the Sigstore, the bundle and what
// self-update expects of the file downloaded (want, when given, else file).
func signBuild(t *testing.T, file []byte, edit func(*vsigstore.Claims), predicateType string) (*vsigstore.Sigstore, []byte) {
	t.Helper()
	ss, err := vsigstore.New(time.Now)
	if err != nil {
		t.Fatal(err)
	}
	st, err := vsigstore.ActionsStatement("aayu_linux_amd64", file, predicateType, []byte(`{"buildDefinition":{},"runDetails":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := releaseClaims()
	if edit != nil {
		edit(&c)
	}
	b, err := ss.Attest(st, c)
	if err != nil {
		t.Fatal(err)
	}
	return ss, b
}

func buildExpect(file []byte) BuildExpect {
	sum := sha256.Sum256(file)
	return BuildExpect{Repo: "aayudha/aayu", WorkflowPath: ".github/workflows/aayudha-release.yml", Tag: "v0.9.0",
		Name: "aayu_linux_amd64", SHA256: hex.EncodeToString(sum[:])}
}

func TestVerifyBuildTakesTheReleaseWorkflowsAttestation(t *testing.T) {
	file := []byte("aayu v0.9.0")
	ss, b := signBuild(t, file, nil, BuildPredicateType)
	id, err := VerifyBuild(ss.TrustedRoot(), []json.RawMessage{b}, buildExpect(file))
	if err != nil {
		t.Fatal(err)
	}
	if id.SAN != "https://github.com/aayudha/aayu/.github/workflows/aayudha-release.yml@refs/tags/v0.9.0" || id.Trigger != "push" || id.LogIndex == nil {
		t.Fatalf("identity %+v", id)
	}
}

func TestVerifyBuildRefusals(t *testing.T) {
	file := []byte("aayu v0.9.0")
	cases := []struct {
		name  string
		file  []byte // what was downloaded; nil: the file signed
		edit  func(*vsigstore.Claims)
		pred  string
		empty bool
		says  string
	}{
		{name: "refuses a tampered file (digest mismatch)", file: []byte("aayu v0.9.0 tampered"), says: "the attestation signs other bytes"},
		{name: "refuses another repository's attestation", edit: func(c *vsigstore.Claims) { c.Repository = "mallory/aayu" },
			says: "the attestation was made in another repository (https://github.com/mallory/aayu), not aayudha/aayu"},
		{name: "refuses a missing attestation", empty: true, says: "no attestation signs aayu_linux_amd64"},
		{name: "refuses another workflow", edit: func(c *vsigstore.Claims) { c.WorkflowPath = ".github/workflows/ci.yml" },
			says: "another workflow (.github/workflows/ci.yml)"},
		{name: "refuses the workflow at a branch", edit: func(c *vsigstore.Claims) { c.Ref = "refs/heads/main" },
			says: "at refs/heads/main, not at the release's tag refs/tags/v0.9.0"},
		{name: "refuses the workflow at another tag", edit: func(c *vsigstore.Claims) { c.Ref = "refs/tags/v0.8.0" },
			says: "not at the release's tag refs/tags/v0.9.0"},
		{name: "refuses a pull request's run", edit: func(c *vsigstore.Claims) { c.Event = "pull_request" },
			says: `a "pull_request" run, not the tag's push or release`},
		{name: "refuses another issuer", edit: func(c *vsigstore.Claims) { c.Issuer = "https://accounts.example.com" },
			says: "not signed by GitHub Actions"},
		{name: "refuses another predicate", pred: PredicateType, says: "not build provenance"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pred := tc.pred
			if pred == "" {
				pred = BuildPredicateType
			}
			ss, b := signBuild(t, file, tc.edit, pred)
			got := tc.file
			if got == nil {
				got = file
			}
			bundles := []json.RawMessage{b}
			if tc.empty {
				bundles = nil
			}
			_, err := VerifyBuild(ss.TrustedRoot(), bundles, buildExpect(got))
			if err == nil || !IsRefusal(err) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v, want a refusal saying %q", err, tc.says)
			}
		})
	}
}

func TestVerifyBuildRefusesAnotherSigstoresBundle(t *testing.T) {
	file := []byte("aayu v0.9.0")
	_, b := signBuild(t, file, nil, BuildPredicateType)
	other, _ := signBuild(t, file, nil, BuildPredicateType)
	_, err := VerifyBuild(other.TrustedRoot(), []json.RawMessage{b}, buildExpect(file))
	if err == nil || !IsRefusal(err) || !strings.Contains(err.Error(), "signature does not verify") {
		t.Fatalf("got %v", err)
	}
}
