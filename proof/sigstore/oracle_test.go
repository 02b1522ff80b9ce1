package sigstore_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/proof/sigstore"
)

// oracle is sigstore-go's verdict on bundleJSON under trustedJSON, with
// the options aayu asked sigstore-go for before it had its own verifier:
// one log entry and one observer time when the bundle has log entries,
// else one signed timestamp; no artifact or identity policy.
func oracle(trustedJSON, bundleJSON []byte) error {
	tr, err := root.NewTrustedRootFromJSON(trustedJSON)
	if err != nil {
		return err
	}
	var b bundle.Bundle
	if err := b.UnmarshalJSON(bundleJSON); err != nil {
		return err
	}
	opts := []verify.VerifierOption{verify.WithObserverTimestamps(1)}
	if entries, err := b.TlogEntries(); err == nil && len(entries) > 0 {
		opts = append(opts, verify.WithTransparencyLog(1))
	} else {
		opts = []verify.VerifierOption{verify.WithSignedTimestamps(1)}
	}
	v, err := verify.NewVerifier(tr, append(opts, verify.WithoutStatementPredicate())...)
	if err != nil {
		return err
	}
	res, err := v.Verify(&b, verify.NewPolicy(verify.WithoutArtifactUnsafe(), verify.WithoutIdentitiesUnsafe()))
	if err == nil && (res.Signature == nil || res.Signature.Certificate == nil) {
		return sigstore.ErrBareKey
	}
	return err
}

func mine(trustedJSON, bundleJSON []byte) (*sigstore.Result, error) {
	tr, err := sigstore.ParseTrustedRoot(trustedJSON)
	if err != nil {
		return nil, err
	}
	return sigstore.Verify(tr, bundleJSON)
}

type fixture struct {
	name            string
	trusted, bundle []byte
}

func readFixture(t testing.TB, name, trusted, b string) fixture {
	t.Helper()
	tj, err := os.ReadFile("testdata/" + trusted)
	if err != nil {
		t.Fatal(err)
	}
	bj, err := os.ReadFile("testdata/" + b)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{name, tj, bj}
}

// sandboxFixture is a bundle the sandbox's virtual Sigstore makes for the
// merge gate's run, and its trusted root.
func sandboxFixture(t testing.TB, now func() time.Time, pack string) (fixture, *vsigstore.Sigstore) {
	t.Helper()
	s, err := vsigstore.New(now)
	if err != nil {
		t.Fatal(err)
	}
	st, err := vsigstore.ActionsStatement("pack.json", []byte(pack), "https://aayudha.dev/proof-pack/v1", []byte(pack))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Attest(st, vsigstore.Claims{Repository: "o/r", RepositoryID: 1, OwnerID: 2, WorkflowPath: ".github/workflows/aayudha-merge-gate.yml",
		Ref: "refs/heads/main", SHA: strings.Repeat("a", 40), Event: "pull_request_target", RunID: 7, Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	tj, err := s.TrustedRootJSON()
	if err != nil {
		t.Fatal(err)
	}
	return fixture{"the sandbox's gate bundle", tj, b}, s
}

// TestRealAndSandboxBundlesVerifyWithBothVerifiers: bundles GitHub Actions
// really made on github.com through the public-good Sigstore (as
// sigstore-go and gh keep them for their tests) and the sandbox's verify
// under this package and under sigstore-go, and say a signer.
func TestRealAndSandboxBundlesVerifyWithBothVerifiers(t *testing.T) {
	t.Parallel()
	sb, _ := sandboxFixture(t, nil, `{"a":1}`)
	for _, f := range []fixture{
		readFixture(t, "sigstore-js release provenance (v0.1, chain)", "trusted-root-public-good.json", "sigstore-js-provenance-v0.1.json"),
		readFixture(t, "sigstore-js 2.0.0 provenance", "trusted-root-public-good-2.json", "sigstore-js-2.0.0-provenance.json"),
		readFixture(t, "a DSSE bundle of the public-good instance", "trusted-root-public-good-2.json", "dsse.sigstore.json"),
		// Bundles gh's own tests keep (cli/cli, pkg/cmd/attestation/test/
		// data): v0.3, the first a dsse 0.0.1 entry actions/attest made
		// on github.com for a reusable workflow, the others intoto 0.0.2
		// with inclusion proofs 16 hashes deep and checkpoints that carry
		// a timestamp line.
		readFixture(t, "a github.com actions/attest bundle (dsse, v0.3, gh's test data)", "trusted-root-public-good.json", "gh-cli-reusable-workflow.json"),
		readFixture(t, "sigstore-js 3.0.0 (v0.3, gh's test data)", "trusted-root-public-good.json", "gh-cli-sigstore-js-3.0.0-v0.3.json"),
		readFixture(t, "sigstore-js 2.1.0 (v0.3, gh's test data)", "trusted-root-public-good.json", "gh-cli-sigstore-js-2.1.0.json"),
		sb,
	} {
		t.Run(f.name, func(t *testing.T) {
			want := oracle(f.trusted, f.bundle)
			res, got := mine(f.trusted, f.bundle)
			if (want == nil) != (got == nil) {
				t.Fatalf("sigstore-go says %v, this package %v", want, got)
			}
			if got != nil {
				t.Fatalf("both refuse a bundle that must verify: %v / %v", want, got)
			}
			if res.Certificate.SubjectAlternativeName == "" || res.Certificate.Issuer == "" || res.LogIndex == nil {
				t.Errorf("the verified bundle says no signer: %+v", res.Certificate)
			}
		})
	}
}

// edit is a hostile change to a bundle (as a JSON tree) or its root.
type edit struct {
	name     string
	harmless bool // a change that leaves a valid bundle: both verifiers may take it
	bundle   func(b map[string]any, other map[string]any)
	root     func(own, other []byte) []byte
}

func obj(v any, path ...string) map[string]any {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			v = x[0]
		}
	}
	m, _ := v.(map[string]any)
	return m
}

func entry(b map[string]any) map[string]any {
	return obj(b, "verificationMaterial", "tlogEntries", "0")
}

func flipB64(s string, at int) string {
	raw, _ := base64.StdEncoding.DecodeString(s)
	raw[at%len(raw)] ^= 1
	return base64.StdEncoding.EncodeToString(raw)
}

var edits = []edit{
	{name: "another Sigstore's root", root: func(_, other []byte) []byte { return other }},
	{name: "a flipped signature byte", bundle: func(b, _ map[string]any) {
		s := obj(b, "dsseEnvelope", "signatures", "0")
		s["sig"] = flipB64(s["sig"].(string), 10)
	}},
	{name: "another payload", bundle: func(b, other map[string]any) {
		obj(b, "dsseEnvelope")["payload"] = obj(other, "dsseEnvelope")["payload"]
	}},
	{name: "another payload type", bundle: func(b, _ map[string]any) {
		obj(b, "dsseEnvelope")["payloadType"] = "text/plain"
	}},
	{name: "a body that names another envelope", bundle: func(b, other map[string]any) {
		entry(b)["canonicalizedBody"] = entry(other)["canonicalizedBody"]
	}},
	{name: "a promise over another entry", bundle: func(b, other map[string]any) {
		entry(b)["inclusionPromise"] = entry(other)["inclusionPromise"]
	}},
	{name: "another entry altogether", bundle: func(b, other map[string]any) {
		obj(b, "verificationMaterial")["tlogEntries"] = obj(other, "verificationMaterial")["tlogEntries"]
	}},
	{name: "another certificate", bundle: func(b, other map[string]any) {
		obj(b, "verificationMaterial")["certificate"] = obj(other, "verificationMaterial")["certificate"]
	}},
	{name: "an inclusion proof to another root", bundle: func(b, _ map[string]any) {
		p := obj(entry(b), "inclusionProof")
		p["rootHash"] = flipB64(p["rootHash"].(string), 3)
	}},
	{name: "a checkpoint whose signature is flipped", bundle: func(b, _ map[string]any) {
		c := obj(entry(b), "inclusionProof", "checkpoint")
		env := c["envelope"].(string)
		i := strings.LastIndex(env, " ")
		c["envelope"] = env[:i+1] + flipB64(strings.TrimSpace(env[i+1:]), 12) + "\n"
	}},
	{name: "an inclusion proof of another size", bundle: func(b, _ map[string]any) {
		obj(entry(b), "inclusionProof")["treeSize"] = "2"
	}},
	{name: "no inclusion proof in a v0.3 bundle", bundle: func(b, _ map[string]any) {
		delete(entry(b), "inclusionProof")
	}},
	{name: "no promise", bundle: func(b, _ map[string]any) {
		delete(entry(b), "inclusionPromise")
	}},
	{name: "a flipped promise", bundle: func(b, _ map[string]any) {
		p := obj(entry(b), "inclusionPromise")
		p["signedEntryTimestamp"] = flipB64(p["signedEntryTimestamp"].(string), 8)
	}},
	{name: "another integrated time", bundle: func(b, _ map[string]any) {
		entry(b)["integratedTime"] = "1700000000"
	}},
	{name: "another log index", bundle: func(b, _ map[string]any) {
		entry(b)["logIndex"] = "5"
	}},
	{name: "another log ID", bundle: func(b, _ map[string]any) {
		obj(entry(b), "logId")["keyId"] = base64.StdEncoding.EncodeToString(make([]byte, 32))
	}},
	{name: "another kind", bundle: func(b, _ map[string]any) {
		obj(entry(b), "kindVersion")["kind"] = "intoto"
	}},
	{name: "no log entry", bundle: func(b, _ map[string]any) {
		delete(obj(b, "verificationMaterial"), "tlogEntries")
	}},
	{name: "two signatures", bundle: func(b, _ map[string]any) {
		e := obj(b, "dsseEnvelope")
		s := e["signatures"].([]any)
		e["signatures"] = append(s, s[0])
	}},
	{name: "an unknown media type", bundle: func(b, _ map[string]any) {
		b["mediaType"] = "application/vnd.dev.sigstore.bundle.v0.4+json"
	}},
	{name: "a v0.1 media type", harmless: true, bundle: func(b, _ map[string]any) {
		b["mediaType"] = "application/vnd.dev.sigstore.bundle+json;version=0.1"
	}},
	{name: "a field no bundle has", bundle: func(b, _ map[string]any) {
		b["extra"] = true
	}},
	{name: "a field spelt in another case", bundle: func(b, _ map[string]any) {
		b["MediaType"] = b["mediaType"]
		delete(b, "mediaType")
	}},
	{name: "a bare key", bundle: func(b, _ map[string]any) {
		vm := obj(b, "verificationMaterial")
		delete(vm, "certificate")
		vm["publicKey"] = map[string]any{"hint": "x"}
	}},
}

// TestHostileEditsAreRefusedByBoth: each hostile edit of a sandbox bundle
// (or of the root it is checked under) is refused by sigstore-go and by
// this package alike.
func TestHostileEditsAreRefusedByBoth(t *testing.T) {
	t.Parallel()
	own, _ := sandboxFixture(t, nil, `{"a":1}`)
	other, _ := sandboxFixture(t, nil, `{"b":2}`)
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			trusted, b := own.trusted, own.bundle
			if e.root != nil {
				trusted = e.root(own.trusted, other.trusted)
			}
			if e.bundle != nil {
				var tree, otherTree map[string]any
				if err := json.Unmarshal(own.bundle, &tree); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(other.bundle, &otherTree); err != nil {
					t.Fatal(err)
				}
				e.bundle(tree, otherTree)
				var err error
				if b, err = json.Marshal(tree); err != nil {
					t.Fatal(err)
				}
			}
			want := oracle(trusted, b)
			_, got := mine(trusted, b)
			if got == nil && (want != nil || !e.harmless) {
				t.Fatalf("this package verifies the edited bundle (sigstore-go: %v)", want)
			}
			if want == nil && got != nil {
				t.Logf("sigstore-go verifies it; this package, stricter, refuses: %v", got)
			}
		})
	}
}

// FuzzVerify: no bundle makes the verifier panic, and none it verifies is
// refused by sigstore-go.
func FuzzVerify(f *testing.F) {
	own, _ := sandboxFixture(f, nil, `{"a":1}`)
	f.Add(own.bundle)
	for _, n := range []string{"sigstore-js-provenance-v0.1.json", "dsse.sigstore.json"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	tr, err := sigstore.ParseTrustedRoot(own.trusted)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := sigstore.Verify(tr, b); err == nil {
			if want := oracle(own.trusted, b); want != nil {
				t.Fatalf("this package verifies a bundle sigstore-go refuses: %v", want)
			}
		}
	})
}
