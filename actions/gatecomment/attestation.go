package gatecomment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/attest"
	"github.com/aayudha/aayu/proof/sigstore"
)

// The comment step's environment carries what the pack job's actions/attest
// step reported, passed as job outputs (never expanded inside a script):
// the attestation's id and the URL of its page.
const (
	EnvAttestationID  = "AAYU_ATTESTATION_ID"
	EnvAttestationURL = "AAYU_ATTESTATION_URL"
)

// Attestation is what the gate's comment says of pack.json's signature:
// either the identity of a bundle that verified (proof/attest, ship's own
// check) or why the pack is unattested. Nothing in it is claimed unchecked:
// the identity is the verified certificate's, and the id and URL are the
// ones this run's pack job reported, shown only in GitHub's own form for
// this repository.
type Attestation struct {
	PackSHA256 string
	Identity   *attest.Identity // nil: unattested
	Unattested string           // why, in words, when Identity is nil
	ID         int64            // the attestation this run's pack job reported; 0: none
	URL        string           // its page, only when it is GITHUB_SERVER_URL/OWNER/REPO/attestations/ID
}

// checkAttestation checks pack.json's attestation as ship does: the bundles
// GitHub keeps under its sha256, one of which must verify as the merge
// gate's signature over exactly this pack at the pull request's base
// branch. It never fails the comment: what it could not check is said as
// the reason the pack is unattested.
func checkAttestation(ctx context.Context, cfg Config, pull *github.PullRequest, dir string, report *proof.Report) *Attestation {
	if report == nil || report.PackSHA256 == "" {
		return nil
	}
	a := &Attestation{PackSHA256: report.PackSHA256}
	a.ID, a.URL = reportedAttestation(cfg)
	unattested := func(format string, args ...any) *Attestation {
		a.Unattested = fmt.Sprintf(format, args...)
		return a
	}
	_, raw, err := proof.ReadPackDir(dir, proof.Limits{})
	if err != nil {
		return unattested("pack.json could not be read again to check its attestation")
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != report.PackSHA256 {
		return unattested("pack.json changed after it was verified, so its attestation was not checked")
	}
	bundles, err := ghx.ListAttestations(ctx, cfg.Client, cfg.Owner, cfg.Repo, report.PackSHA256)
	if err != nil {
		return unattested("its attestations could not be read (%s)", ghx.Describe(err))
	}
	if len(bundles) == 0 {
		return unattested("no attestation signs pack.json (sha256 %s): the merge gate did not attest it", gitsha.Short(report.PackSHA256))
	}
	var trusted *sigstore.TrustedRoot
	if cfg.TrustedRoot != nil {
		if trusted, err = cfg.TrustedRoot(); err != nil {
			return unattested("Sigstore's trusted root could not be read (%s), so its attestation was not checked", err)
		}
	}
	if trusted == nil {
		return unattested("no Sigstore trusted root is known for this host, so its attestation was not checked")
	}
	exp := attest.Expect{Repo: cfg.Owner + "/" + cfg.Repo, BaseRef: pull.GetBase().GetRef(), PackSHA256: report.PackSHA256, PackJSON: raw,
		Head: pull.GetHead().GetSHA()}
	id, err := attest.VerifyAny(trusted, bundles, exp)
	switch {
	case err == nil:
		a.Identity = &id
		return a
	case attest.IsRefusal(err):
		return unattested("%s", err)
	}
	return unattested("its attestation could not be checked (%s)", err)
}

// reportedAttestation reads the attestation id and URL the pack job's
// actions/attest step reported. The id must be a number; the URL is kept
// only when it is the page actions/attest names for that id in this run's
// repository (GITHUB_SERVER_URL/GITHUB_REPOSITORY/attestations/ID).
func reportedAttestation(cfg Config) (int64, string) {
	if cfg.Getenv == nil {
		return 0, ""
	}
	id, err := strconv.ParseInt(strings.TrimSpace(cfg.Getenv(EnvAttestationID)), 10, 64)
	if err != nil || id <= 0 {
		return 0, ""
	}
	server := strings.TrimSuffix(cfg.Getenv("GITHUB_SERVER_URL"), "/")
	repo := cfg.Getenv("GITHUB_REPOSITORY")
	want := fmt.Sprintf("%s/%s/attestations/%d", server, repo, id)
	if server == "" || !strings.EqualFold(repo, cfg.Owner+"/"+cfg.Repo) || cfg.Getenv(EnvAttestationURL) != want || safeURL(want) == "" {
		return id, ""
	}
	return id, want
}

// writeAttestation is the comment's line on pack.json's signature.
func writeAttestation(b *strings.Builder, a *Attestation) {
	if a == nil {
		return
	}
	ref := ""
	switch {
	case a.URL != "":
		ref = fmt.Sprintf("attestation [%d](%s)", a.ID, a.URL)
	case a.ID != 0:
		ref = fmt.Sprintf("attestation %d", a.ID)
	}
	if id := a.Identity; id != nil {
		detail := span(id.Trigger)
		if id.LogIndex != nil {
			detail += fmt.Sprintf(", transparency log index %d", *id.LogIndex)
		}
		fmt.Fprintf(b, "Attested: pack.json sha256:%s signed by %s (%s)", code(a.PackSHA256), span(id.SAN), detail)
		if ref != "" {
			fmt.Fprintf(b, ", %s", ref)
		}
		b.WriteString(".\n\n")
		return
	}
	fmt.Fprintf(b, "Unattested: %s.", inline(strings.TrimSuffix(a.Unattested, ".")))
	if ref != "" {
		fmt.Fprintf(b, " This run's pack job reported %s; it does not verify as the merge gate's signature over this pack.", ref)
	}
	b.WriteString("\n\n")
}

// span shows a value from a verified certificate as a code span, where
// Markdown acts on nothing; a value a code span could not hold (a
// backtick, a control or format character, a line break) is escaped as
// untrusted text instead.
func span(s string) string {
	bad := func(r rune) bool {
		return r == '`' || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar
	}
	if s == "" || len(s) > 500 || !utf8.ValidString(s) || strings.IndexFunc(s, bad) >= 0 {
		return inline(s)
	}
	return "`" + s + "`"
}
