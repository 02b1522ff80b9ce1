package attest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/proof/sigstore"
)

// gateClaims are a merge-gate run's claims on acme/benefits, base main.
func gateClaims() vsigstore.Claims {
	return vsigstore.Claims{Repository: "acme/benefits", RepositoryID: 7, OwnerID: 3, WorkflowPath: ".github/workflows/aayudha-merge-gate.yml",
		Ref: "refs/heads/main", SHA: strings.Repeat("b", 40), Event: "pull_request_target", RunID: 41, RunAttempt: 1, Visibility: "public"}
}

type signed struct {
	ss      *vsigstore.Sigstore
	pack    []byte
	sum     string
	bundle  []byte
	expects Expect
}

// sign attests the demo pack as actions/attest does, with claims changed by
// edit, and returns what ship would expect of the pull request.
func sign(t *testing.T, edit func(*vsigstore.Claims), packJSON []byte) signed {
	t.Helper()
	ss, err := vsigstore.New(time.Now)
	if err != nil {
		t.Fatal(err)
	}
	pack := demoPack(t)
	if packJSON == nil {
		packJSON = pack
	}
	st, err := vsigstore.ActionsStatement("pack.json", packJSON, PredicateType, packJSON)
	if err != nil {
		t.Fatal(err)
	}
	c := gateClaims()
	if edit != nil {
		edit(&c)
	}
	b, err := ss.Attest(st, c)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pack)
	return signed{ss: ss, pack: pack, sum: hex.EncodeToString(sum[:]), bundle: b,
		expects: Expect{Repo: "acme/benefits", BaseRef: "main", PackSHA256: hex.EncodeToString(sum[:]), PackJSON: pack, Head: "b046d1a1d113339eb80e130c9dc0008fa223e76f"}}
}

func TestVerifyTakesTheMergeGatesAttestation(t *testing.T) {
	s := sign(t, nil, nil)
	id, err := Verify(s.ss.TrustedRoot(), s.bundle, s.expects)
	if err != nil {
		t.Fatal(err)
	}
	if id.SAN != "https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/main" || id.LogIndex == nil || id.Trigger != "pull_request_target" {
		t.Fatalf("identity %+v", id)
	}
}

func refused(t *testing.T, s signed, want string) {
	t.Helper()
	_, err := Verify(s.ss.TrustedRoot(), s.bundle, s.expects)
	if err == nil || !IsRefusal(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want a refusal saying %q", err, want)
	}
}

func TestVerifyRefusesAnAttestationOfAnotherPackJSON(t *testing.T) {
	other := []byte(strings.Replace(string(demoPack(t)), `"story": 131`, `"story": 132`, 1))
	refused(t, sign(t, nil, other), "signs another pack.json")
}

// TestVerifyRefusesAnAttestationNotSignedByGitHubActions: a certificate
// whose every other claim is the merge gate's, but issued for another
// identity provider's token, does not speak for a workflow run.
func TestVerifyRefusesAnAttestationNotSignedByGitHubActions(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.Issuer = "https://accounts.example.com" }, nil),
		`not signed by GitHub Actions: its certificate's issuer is "https://accounts.example.com"`)
}

// signAs signs a Statement made of subject (pack.json's bytes, as its
// sha256 subject), predicateType and predicate, with edit applied to its
// bytes, as the merge gate at main: everything about the signature is
// right, so only the Statement can be refused.
func signAs(t *testing.T, predicateType string, predicate []byte, edit func([]byte) []byte) signed {
	t.Helper()
	s := sign(t, nil, nil)
	if predicate == nil {
		predicate = s.pack
	}
	st, err := vsigstore.ActionsStatement("pack.json", s.pack, predicateType, predicate)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		st = edit(st)
	}
	if s.bundle, err = s.ss.Attest(st, gateClaims()); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestVerifyRefusesAnAttestationOfAnotherPredicateType: the gate's own
// signature over this pack.json, but as another kind of predicate (SLSA
// provenance, say), does not say the pack proves the story.
func TestVerifyRefusesAnAttestationOfAnotherPredicateType(t *testing.T) {
	refused(t, signAs(t, "https://slsa.dev/provenance/v1", nil, nil),
		`predicate type is "https://slsa.dev/provenance/v1", not aayudha's proof pack`)
}

// TestVerifyRefusesAPredicateThatIsAnotherPack: the subject is this
// pack.json's sha256, but the predicate signed beside it is another pack:
// what was attested is the predicate, so it must be this pack byte for
// byte.
func TestVerifyRefusesAPredicateThatIsAnotherPack(t *testing.T) {
	other := []byte(strings.Replace(string(demoPack(t)), `"story": 131`, `"story": 132`, 1))
	refused(t, signAs(t, PredicateType, other, nil), "the attestation's predicate is another pack than this pack.json")
}

// TestVerifyHoldsACommitSubjectToTheHead: a gitCommit subject must be the
// pull request's head (in either case); another commit is refused.
func TestVerifyHoldsACommitSubjectToTheHead(t *testing.T) {
	withCommit := func(sha string) func([]byte) []byte {
		return func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"subject":[`), []byte(`"subject":[{"name":"head","digest":{"gitCommit":"`+sha+`"}},`), 1)
		}
	}
	s := signAs(t, PredicateType, nil, withCommit(strings.ToUpper("b046d1a1d113339eb80e130c9dc0008fa223e76f")))
	if _, err := Verify(s.ss.TrustedRoot(), s.bundle, s.expects); err != nil {
		t.Fatalf("the head as a commit subject is refused: %v", err)
	}
	refused(t, signAs(t, PredicateType, nil, withCommit(strings.Repeat("c", 40))),
		"names commit cccccccccccc as a subject, not the pull request's head b046d1a1d113")
}

func TestVerifyRefusesAnAttestationMadeInAnotherRepository(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.Repository = "mallory/benefits" }, nil), "made in another repository (https://github.com/mallory/benefits)")
}

// TestVerifyRefusesTheGateCalledFromAnotherRepository: mallory's run
// calling acme's gate as a reusable workflow has a certificate naming
// acme's gate at main; the source repository says it was mallory's run.
func TestVerifyRefusesTheGateCalledFromAnotherRepository(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.Repository, c.WorkflowRepository = "mallory/benefits", "acme/benefits" }, nil),
		"made in another repository (https://github.com/mallory/benefits), not acme/benefits")
}

// TestVerifyRefusesAWorkflowOfAnotherRepository: acme's own run, but
// signed by a workflow file of another repository (a reusable workflow
// named like the gate), does not speak for acme's gate.
func TestVerifyRefusesAWorkflowOfAnotherRepository(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.WorkflowRepository = "mallory/benefits" }, nil),
		"signed by a workflow of another repository (https://github.com/mallory/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/main), not acme/benefits's merge gate")
}

func TestVerifyRefusesAnAttestationSignedByAnotherWorkflow(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.WorkflowPath = ".github/workflows/release.yml" }, nil), "signed by another workflow (.github/workflows/release.yml)")
}

func TestVerifyRefusesAnAttestationOfTheGateOnAnotherBranch(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.Ref = "refs/heads/evil" }, nil), "names the merge gate at refs/heads/evil, not at the pull request's base branch main")
}

func TestVerifyRefusesAnAttestationOfAPullRequestRun(t *testing.T) {
	refused(t, sign(t, func(c *vsigstore.Claims) { c.Event = "pull_request" }, nil), `made by a "pull_request" run, not pull_request_target`)
}

func TestVerifyRefusesAnAttestationUnderAnotherRoot(t *testing.T) {
	s := sign(t, nil, nil)
	other, err := vsigstore.New(time.Now)
	if err != nil {
		t.Fatal(err)
	}
	s.ss = other
	refused(t, s, "signature does not verify")
}

func TestVerifyRefusesAnAttestationOfAnotherHead(t *testing.T) {
	s := sign(t, nil, nil)
	s.expects.Head = strings.Repeat("c", 40)
	refused(t, s, "proves commit b046d1a")
}

// TestVerifyTakesTheAttestationUnderTheRootReadBackFromItsFile: the
// sandbox hands aayu its root as trusted_root.json ([proof] trusted_root);
// read back from that file it verifies the same bundles, and sigstore-go
// (what gh attestation verify --custom-trusted-root uses) reads the file.
func TestVerifyTakesTheAttestationUnderTheRootReadBackFromItsFile(t *testing.T) {
	s := sign(t, nil, nil)
	raw, err := s.ss.TrustedRootJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := root.NewTrustedRootFromJSON(raw); err != nil {
		t.Fatalf("sigstore-go does not read the sandbox's trusted_root.json: %v", err)
	}
	tr, err := sigstore.ParseTrustedRoot(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(tr, s.bundle, s.expects); err != nil {
		t.Fatalf("the root read back from trusted_root.json refuses the bundle: %v", err)
	}
}

// TestVerifyAnyTakesTheBundleThatProvesThePack: of the bundles GitHub keeps
// under pack.json's digest, another branch's gate does not prove the pack
// and the merge gate's at the base does; with only wrong ones, the refusal
// names each distinct reason once.
func TestVerifyAnyTakesTheBundleThatProvesThePack(t *testing.T) {
	s := sign(t, nil, nil)
	st, err := vsigstore.ActionsStatement("pack.json", s.pack, PredicateType, s.pack)
	if err != nil {
		t.Fatal(err)
	}
	other := gateClaims()
	other.Ref = "refs/heads/edited-gate"
	wrong, err := s.ss.Attest(st, other)
	if err != nil {
		t.Fatal(err)
	}
	id, err := VerifyAny(s.ss.TrustedRoot(), []json.RawMessage{wrong, s.bundle}, s.expects)
	if err != nil || !strings.HasSuffix(id.SAN, "@refs/heads/main") {
		t.Fatalf("VerifyAny = %+v, %v; want the gate's signature at main", id, err)
	}
	_, err = VerifyAny(s.ss.TrustedRoot(), []json.RawMessage{wrong, wrong}, s.expects)
	if !IsRefusal(err) || !strings.HasPrefix(err.Error(), "its attestation does not prove this pack: ") || strings.Count(err.Error(), "edited-gate") != 1 {
		t.Fatalf("two wrong bundles: %v; want one refusal naming the reason once", err)
	}
	if _, err := VerifyAny(s.ss.TrustedRoot(), nil, s.expects); !IsRefusal(err) {
		t.Fatalf("no bundle: %v; want a refusal", err)
	}
}
