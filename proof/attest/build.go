package attest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof/sigstore"
)

// BuildPredicateType is SLSA provenance v1, the predicate
// actions/attest-build-provenance signs over a release's files.
const BuildPredicateType = "https://slsa.dev/provenance/v1"

// BuildTriggers are the events that run a release workflow at its tag: the
// tag's push, or the release published on it. Any other event (a pull
// request above all) never runs the workflow file at a tag.
var BuildTriggers = []string{"push", "release"}

// BuildExpect is what a release file's build attestation must say for
// aayu to take it: signed by WorkflowPath of Repo, run at the release's
// tag in Repo, over a file whose sha256 is SHA256.
type BuildExpect struct {
	ServerURL    string // "https://github.com" when empty
	Repo         string // OWNER/REPO, the repository whose release it is
	WorkflowPath string // .github/workflows/aayudha-release.yml
	Tag          string // the release's tag, e.g. v0.4.0
	Name         string // the file's name, for the words
	SHA256       string // hex sha256 of the file's bytes as downloaded
}

func (e BuildExpect) server() string {
	if e.ServerURL == "" {
		return "https://github.com"
	}
	return strings.TrimSuffix(e.ServerURL, "/")
}

// WorkflowURI is the certificate SAN the release workflow's run has: its
// file at the release's tag in this repository.
func (e BuildExpect) WorkflowURI() string {
	return fmt.Sprintf("%s/%s/%s@refs/tags/%s", e.server(), e.Repo, e.WorkflowPath, e.Tag)
}

// VerifyBuild is the identity of the first of bundles that proves the
// release file (VerifyBuildOne), for the bundles GitHub keeps under the
// file's digest. When none does, the error is a Refusal naming each
// distinct reason; a bundle that could not be checked at all stops the
// search with that error.
func VerifyBuild(trusted *sigstore.TrustedRoot, bundles []json.RawMessage, exp BuildExpect) (Identity, error) {
	id, reasons, err := firstThatProves(bundles, func(b json.RawMessage) (Identity, error) { return VerifyBuildOne(trusted, b, exp) })
	if err != nil || reasons == nil {
		return id, err
	}
	if len(reasons) == 0 {
		return Identity{}, refuse("no attestation signs %s (sha256 %s): the release was not attested", exp.Name, gitsha.Short(exp.SHA256))
	}
	return Identity{}, refuse("its attestation does not prove %s: %s", exp.Name, strings.Join(reasons, "; "))
}

// VerifyBuildOne checks that bundleJSON is the release workflow's build
// attestation of exactly this file: the same Sigstore check a pack's
// attestation gets (verifySignature), a certificate from GitHub Actions
// naming exp.WorkflowPath at refs/tags/TAG of exp.Repo, run there for the
// tag's push or release, over an in-toto Statement of SLSA provenance
// whose subjects hold the file's sha256. Every refusal is a *Refusal.
func VerifyBuildOne(trusted *sigstore.TrustedRoot, bundleJSON []byte, exp BuildExpect) (Identity, error) {
	digest, err := hex.DecodeString(exp.SHA256)
	if err != nil || len(digest) != 32 {
		return Identity{}, fmt.Errorf("%s's sha256 %q is not 64 hex digits", exp.Name, exp.SHA256)
	}
	mismatch := func(subjects []string) error {
		if len(subjects) > 0 && !signsDigest(subjects, digest) {
			return refuse("the attestation signs other bytes (sha256 %s), not %s as downloaded (sha256 %s)",
				strings.Join(shortAll(subjects), ", "), exp.Name, gitsha.Short(exp.SHA256))
		}
		return nil
	}
	res, err := verifySignature(trusted, bundleJSON, nil, "the release workflow", mismatch)
	if err != nil {
		return Identity{}, err
	}
	id := identityOf(res)
	c := &res.Certificate
	wantRepo := exp.server() + "/" + exp.Repo
	if err := checkSigner(c, wantRepo, exp.Repo, "release workflow"); err != nil {
		return id, err
	}
	prefix := wantRepo + "/" + exp.WorkflowPath + "@"
	switch {
	case !strings.HasPrefix(c.SubjectAlternativeName, prefix):
		return id, refuse("the attestation was signed by another workflow (%s), not %s", workflowOf(c.SubjectAlternativeName, wantRepo), exp.WorkflowPath)
	case c.SubjectAlternativeName != exp.WorkflowURI():
		return id, refuse("the attestation's certificate names %s at %s, not at the release's tag refs/tags/%s",
			exp.WorkflowPath, strings.TrimPrefix(c.SubjectAlternativeName, prefix), exp.Tag)
	case c.SourceRepositoryRef != "refs/tags/"+exp.Tag:
		return id, refuse("the attestation's run was at %s, not at the release's tag refs/tags/%s", c.SourceRepositoryRef, exp.Tag)
	case !slices.Contains(BuildTriggers, c.BuildTrigger):
		return id, refuse("the attestation was made by a %q run, not the tag's push or release", c.BuildTrigger)
	}
	st, err := statementOf(res)
	if err != nil {
		return id, err
	}
	if st.PredicateType != BuildPredicateType {
		return id, refuse("the attestation's predicate type is %q, not build provenance (%s)", st.PredicateType, BuildPredicateType)
	}
	// The subjects are read from the signed payload itself, the bytes the
	// signature covers, as a pack's are.
	var signed statementHead
	dec := json.NewDecoder(bytes.NewReader(res.Payload))
	if err := dec.Decode(&signed); err != nil {
		return id, refuse("the attestation's Statement is not a well-formed in-toto Statement: %v", err)
	}
	if subjects := signed.digests("sha256"); !signsDigest(subjects, digest) {
		return id, refuse("the attestation signs other bytes (sha256 %s), not %s as downloaded (sha256 %s)",
			strings.Join(shortAll(subjects), ", "), exp.Name, gitsha.Short(exp.SHA256))
	}
	return id, nil
}
