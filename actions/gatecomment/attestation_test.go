package gatecomment_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/proof/sigstore"
)

// The demo pull request #4 merges into dev: the gate's certificate names
// its workflow file there.
const gateAtDev = "https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/dev"

// runAttested is `aayu comment 4 --ci` on the qualifying run's pack, with
// the pack job's attestation id and URL in the step's environment and
// trusted as the Sigstore root the attestation is checked with.
func (f *fixture) runAttested(id, url string, trusted *sigstore.TrustedRoot) (int, string, string) {
	f.t.Helper()
	dir := f.gatePack(sandbox.RunQualifying, nil)
	raw, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		f.t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	env := f.env(sandbox.RunQualifying)
	vars := map[string]string{gatecomment.EnvAttestationID: id, gatecomment.EnvAttestationURL: url}
	getenv := func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return env(k)
	}
	cfg := gatecomment.Config{Client: f.bot, Owner: owner, Repo: repo, PR: sandbox.DemoPRReady, Dir: dir, Getenv: getenv}
	if trusted != nil {
		cfg.TrustedRoot = func() (*sigstore.TrustedRoot, error) { return trusted, nil }
	}
	before := f.srv.BranchSHA(ledgerpack.LedgerBranch)
	code, body, err := gatecomment.Run(f.ctx, cfg)
	if err != nil {
		f.t.Fatalf("aayu comment: %v", err)
	}
	if after := f.srv.BranchSHA(ledgerpack.LedgerBranch); after != before {
		f.t.Fatalf("aayu comment moved the ledger from %s to %s", before, after)
	}
	if got := f.gateComments(); len(got) != 1 || got[0].GetBody() != body {
		f.t.Fatalf("%d gate comments on #4, want exactly the one written", len(got))
	}
	return code, body, hex.EncodeToString(sum[:])
}

// TestGateCommentNamesTheAttestationThatSignsThePack: the gate's comment
// checks the bundle GitHub keeps under pack.json's digest as ship does and
// then names who signed it — the certificate's workflow at the base
// branch, its trigger, its log index — and the attestation this run's pack
// job reported, linked to its page in this repository.
func TestGateCommentNamesTheAttestationThatSignsThePack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := f.srv.AttestRunPack(f.srv.RunID(sandbox.RunQualifying), nil); err != nil {
		t.Fatal(err)
	}
	page := "https://github.com/acme/benefits/attestations/42"
	code, body, sum := f.runAttested("42", page, f.srv.TrustedRoot())
	if code != gatecomment.ExitOK {
		t.Fatalf("exit %d:\n%s", code, body)
	}
	want := "Attested: pack.json sha256:`" + sum + "` signed by `" + gateAtDev + "` (`pull_request_target`, transparency log index "
	if !strings.Contains(body, want) {
		t.Errorf("the comment does not say %q:\n%s", want, body)
	}
	if !strings.Contains(body, "attestation [42]("+page+").") {
		t.Errorf("the comment does not link the pack job's attestation 42:\n%s", body)
	}
	if strings.Contains(body, "Unattested") {
		t.Errorf("the comment calls an attested pack unattested:\n%s", body)
	}
}

// TestGateCommentSaysUnattestedWhenTheBundleDoesNotVerify: a bundle that
// does not verify as the merge gate's signature over this pack — signed by
// the gate of another branch, or under a root this host does not trust —
// makes the comment say the pack is unattested and why, even with an
// attestation id from the pack job; nothing attested says so too, and a
// host with no trusted root says it did not check.
func TestGateCommentSaysUnattestedWhenTheBundleDoesNotVerify(t *testing.T) {
	t.Parallel()
	other, err := sandbox.New(sandbox.Options{ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		attest  bool
		edit    func(*vsigstore.Claims)
		trusted func(f *fixture) *sigstore.TrustedRoot
		says    string
	}{
		{"another branch's gate", true, func(c *vsigstore.Claims) { c.Ref = "refs/heads/other" }, func(f *fixture) *sigstore.TrustedRoot { return f.srv.TrustedRoot() },
			"Unattested: its attestation does not prove this pack: the attestation's certificate names the merge gate at refs/heads/other, not at the pull request's base branch dev"},
		{"a pull_request run", true, func(c *vsigstore.Claims) { c.Event = "pull_request" }, func(f *fixture) *sigstore.TrustedRoot { return f.srv.TrustedRoot() },
			`Unattested: its attestation does not prove this pack: the attestation was made by a "pull\_request" run`},
		{"another Sigstore's root", true, nil, func(*fixture) *sigstore.TrustedRoot { return other.TrustedRoot() },
			"Unattested: its attestation does not prove this pack: the attestation's signature does not verify"},
		{"nothing attested", false, nil, func(f *fixture) *sigstore.TrustedRoot { return f.srv.TrustedRoot() },
			`Unattested: no attestation signs pack.json \(sha256 `},
		{"no trusted root", true, nil, func(*fixture) *sigstore.TrustedRoot { return nil },
			"Unattested: no Sigstore trusted root is known for this host, so its attestation was not checked."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.attest {
				if err := f.srv.AttestRunPack(f.srv.RunID(sandbox.RunQualifying), c.edit); err != nil {
					t.Fatal(err)
				}
			} else if err := f.srv.UnattestRunPack(f.srv.RunID(sandbox.RunQualifying)); err != nil {
				t.Fatal(err)
			}
			page := "https://github.com/acme/benefits/attestations/7"
			code, body, _ := f.runAttested("7", page, c.trusted(f))
			if code != gatecomment.ExitOK {
				t.Fatalf("exit %d: the attestation is reported, not judged by the gate's exit:\n%s", code, body)
			}
			if !strings.Contains(body, c.says) {
				t.Errorf("the comment does not say %q:\n%s", c.says, body)
			}
			if strings.Contains(body, "Attested:") || strings.Contains(body, "signed by `") {
				t.Errorf("the comment claims a signature it did not verify:\n%s", body)
			}
			if !strings.Contains(body, "This run's pack job reported attestation [7]("+page+"); it does not verify as the merge gate's signature over this pack.") {
				t.Errorf("the comment does not say which reported attestation failed:\n%s", body)
			}
		})
	}
}

// TestGateCommentLinksOnlyThisRepositorysAttestationPage: the URL the
// pack job reported is linked only when it is the page actions/attest
// names for that id in this run's repository; anything else is dropped
// and the id alone is named.
func TestGateCommentLinksOnlyThisRepositorysAttestationPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := f.srv.AttestRunPack(f.srv.RunID(sandbox.RunQualifying), nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, url, says string }{
		{"42", "https://evil.example/acme/benefits/attestations/42", "), attestation 42."},
		{"42", "https://github.com/acme/benefits/attestations/43", "), attestation 42."},
		{"42 ", "https://github.com/acme/benefits/attestations/42", "attestation [42](https://github.com/acme/benefits/attestations/42)."},
		{"x42", "https://github.com/acme/benefits/attestations/x42", "transparency log index "},
	} {
		_, body, _ := f.runAttested(c.id, c.url, f.srv.TrustedRoot())
		if !strings.Contains(body, c.says) {
			t.Errorf("id %q url %q: the comment does not say %q:\n%s", c.id, c.url, c.says, body)
		}
		if strings.Contains(body, "evil.example") || strings.Contains(body, "/43") || strings.Contains(body, "x42") {
			t.Errorf("id %q url %q: the comment shows what it did not check:\n%s", c.id, c.url, body)
		}
	}
}
