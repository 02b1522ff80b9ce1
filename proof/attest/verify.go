package attest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aayudha/aayu/model/gaterun"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/sigstore"
)

// statementTypeURI is an in-toto Statement v1's _type.
const statementTypeURI = "https://in-toto.io/Statement/v1"

// ActionsIssuer is GitHub Actions' OIDC issuer: the only issuer whose
// certificates speak for a workflow run.
const ActionsIssuer = "https://token.actions.githubusercontent.com"

// Expect is what the attestation must say for ship to take it.
type Expect struct {
	ServerURL  string // "https://github.com" when empty
	Repo       string // OWNER/REPO
	BaseRef    string // the pull request's base branch, e.g. "main"
	PackSHA256 string // hex sha256 of the pack.json ship downloaded
	PackJSON   []byte // that pack.json
	Head       string // the pull request's head
}

func (e Expect) server() string {
	if e.ServerURL == "" {
		return "https://github.com"
	}
	return strings.TrimSuffix(e.ServerURL, "/")
}

// WorkflowURI is the certificate SAN the merge gate's run has: its file at
// the base branch of this repository.
func (e Expect) WorkflowURI() string {
	return fmt.Sprintf("%s/%s/%s@refs/heads/%s", e.server(), e.Repo, gaterun.WorkflowPath, e.BaseRef)
}

// Identity is who signed an attestation that verified: what the ship record
// and the gate's comment name.
type Identity struct {
	SAN      string `json:"san"`
	Issuer   string `json:"issuer"`
	Repo     string `json:"repository"`
	Ref      string `json:"ref"`
	Trigger  string `json:"trigger"`
	LogIndex *int64 `json:"log_index,omitempty"` // nil: no transparency log entry (GitHub's own Sigstore)
}

// Words says who signed, for a screen or a comment.
func (id Identity) Words() string {
	s := "signed by " + id.SAN
	if id.LogIndex != nil {
		s += fmt.Sprintf(" (transparency log index %d)", *id.LogIndex)
	}
	return s
}

// Refusal is an attestation that does not prove this pack, with the reason
// in words.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

func refuse(format string, args ...any) error { return &Refusal{Reason: fmt.Sprintf(format, args...)} }

// VerifyAny is the identity of the first of bundles that proves this pack
// (Verify), for the bundles GitHub keeps under pack.json's digest. When
// none does, the error is a Refusal naming each distinct reason; a bundle
// that could not be checked at all stops the search with that error.
func VerifyAny(trusted *sigstore.TrustedRoot, bundles []json.RawMessage, exp Expect) (Identity, error) {
	id, reasons, err := firstThatProves(bundles, func(b json.RawMessage) (Identity, error) { return Verify(trusted, b, exp) })
	switch {
	case err != nil || reasons == nil:
		return id, err
	case len(reasons) == 0:
		return Identity{}, refuse("no attestation signs pack.json")
	}
	return Identity{}, refuse("its attestation does not prove this pack: %s", strings.Join(reasons, "; "))
}

// IsRefusal reports whether err is a Refusal (an attestation that does not
// prove the pack), as against a failure to check at all.
func IsRefusal(err error) bool {
	var r *Refusal
	return errors.As(err, &r)
}

// Verify checks that bundleJSON is the merge gate's signature over exactly
// this pack: a valid Sigstore signature under trusted (one signature check),
// a certificate from GitHub Actions naming .github/workflows/aayudha-merge-
// gate.yml at the pull request's base branch of this repository, made by a
// pull_request_target run, over an in-toto Statement whose subjects and
// predicate are this pack.json and head. Every refusal is a *Refusal.
func Verify(trusted *sigstore.TrustedRoot, bundleJSON []byte, exp Expect) (Identity, error) {
	digest, err := hex.DecodeString(exp.PackSHA256)
	if err != nil {
		return Identity{}, fmt.Errorf("pack.json's sha256 %q is not hex", exp.PackSHA256)
	}
	res, err := verifySignature(trusted, bundleJSON, exp.PackJSON, "the merge gate's workflow", func(subjects []string) error {
		if len(subjects) > 0 && !slices.Contains(subjects, exp.PackSHA256) {
			return refuse("the attestation signs another pack.json (sha256 %s), not this pack's (sha256 %s)",
				strings.Join(shortAll(subjects), ", "), gitsha.Short(exp.PackSHA256))
		}
		return nil
	})
	if err != nil {
		return Identity{}, err
	}
	id := identityOf(res)
	if err := checkCertificate(res, exp); err != nil {
		return id, err
	}
	if err := checkStatement(res, digest, exp); err != nil {
		return id, err
	}
	return id, nil
}

// verifySignature is the one Sigstore check every attestation aayu takes
// goes through (a pack's, a release asset's): bundleJSON is a bundle
// whose signature, certificate chain and log entry (or, for GitHub's own
// Sigstore, its signed timestamp) verify under trusted (proof/sigstore),
// signed by a certificate rather than a bare key. signer names the
// workflow the certificate must name, for the bare-key refusal; mismatch
// words a signature that does not verify when the bundle's unverified
// subjects already show it signs other bytes (nil: say only that it does
// not verify). predicate is the predicate the caller expects, well-formed
// JSON it holds (nil: none), so that a Statement carrying it is read once
// (sigstore.VerifyExpecting). What the certificate and the Statement say
// is the caller's to check.
func verifySignature(trusted *sigstore.TrustedRoot, bundleJSON, predicate []byte, signer string, mismatch func(subjects []string) error) (*sigstore.Result, error) {
	if trusted == nil {
		return nil, errors.New("no Sigstore trusted root to check the attestation with")
	}
	// The envelope's signature, the certificate chain and the log are
	// proof/sigstore's to verify; the Statement's subjects are held to the
	// expected digest by the caller, in the one strict read of the signed
	// payload it makes anyway.
	res, err := sigstore.VerifyExpecting(trusted, bundleJSON, predicate)
	var notBundle *sigstore.NotABundle
	switch {
	case errors.As(err, &notBundle):
		return nil, refuse("the attestation is not a Sigstore bundle: %v", err)
	case errors.Is(err, sigstore.ErrBareKey):
		return nil, refuse("the attestation is signed by a bare key, not a certificate naming %s", signer)
	case err != nil:
		if mismatch != nil {
			if m := mismatch(unverifiedSubjects(bundleJSON)); m != nil {
				return nil, m
			}
		}
		return nil, refuse("the attestation's signature does not verify: %v", err)
	}
	return res, nil
}

func identityOf(res *sigstore.Result) Identity {
	c := res.Certificate
	return Identity{SAN: c.SubjectAlternativeName, Issuer: c.Issuer, Repo: c.SourceRepositoryURI, Ref: c.SourceRepositoryRef, Trigger: c.BuildTrigger,
		LogIndex: res.LogIndex}
}

// checkCertificate holds the verified certificate to the merge gate's
// identity, naming the first thing that differs.
func checkCertificate(res *sigstore.Result, exp Expect) error {
	c := &res.Certificate
	wantRepo := exp.server() + "/" + exp.Repo
	gatePrefix := wantRepo + "/" + gaterun.WorkflowPath + "@"
	if err := checkSigner(c, wantRepo, exp.Repo, "merge gate"); err != nil {
		return err
	}
	switch {
	case !strings.HasPrefix(c.SubjectAlternativeName, gatePrefix):
		return refuse("the attestation was signed by another workflow (%s), not %s", workflowOf(c.SubjectAlternativeName, wantRepo), gaterun.WorkflowPath)
	case c.SubjectAlternativeName != exp.WorkflowURI():
		return refuse("the attestation's certificate names the merge gate at %s, not at the pull request's base branch %s: a pull request into another branch ran its own copy of the gate",
			strings.TrimPrefix(c.SubjectAlternativeName, gatePrefix), exp.BaseRef)
	case c.BuildTrigger != gaterun.EventTarget:
		return refuse("the attestation was made by a %q run, not %s: only the base branch's gate, run for pull_request_target, speaks for the pack", c.BuildTrigger, gaterun.EventTarget)
	}
	return nil
}

// checkSigner holds a verified certificate to GitHub Actions' issuer and
// to a workflow of repo (its URI wantRepo) run in repo itself; what names
// the workflow expected ("merge gate", "release workflow").
func checkSigner(c *sigstore.Certificate, wantRepo, repo, what string) error {
	switch {
	case c.Issuer != ActionsIssuer:
		return refuse("the attestation was not signed by GitHub Actions: its certificate's issuer is %q, not %s", c.Issuer, ActionsIssuer)
	case !strings.EqualFold(c.SourceRepositoryURI, wantRepo):
		// A run of another repository calling this repository's workflow
		// as a reusable workflow has this workflow's SAN; only the source
		// repository says whose run it was.
		return refuse("the attestation was made in another repository (%s), not %s", c.SourceRepositoryURI, repo)
	case !strings.HasPrefix(strings.ToLower(c.SubjectAlternativeName), strings.ToLower(wantRepo+"/")):
		// A run of this repository calling another repository's workflow.
		return refuse("the attestation was signed by a workflow of another repository (%s), not %s's %s", c.SubjectAlternativeName, repo, what)
	}
	return nil
}

func workflowOf(san, repoURI string) string {
	w := strings.TrimPrefix(san, repoURI+"/")
	if i := strings.LastIndex(w, "@"); i >= 0 {
		w = w[:i]
	}
	return w
}

// checkStatement holds the signed Statement (the verified envelope's
// payload) to this pack: aayudha's predicate type, a predicate that is
// this pack.json byte for byte once written as aayu writes it, and this
// head. The pack.json ship holds was
// already decoded strictly and verified, so the predicate is only compared
// with it, never validated again: that keeps the check one signature and
// one plain decode, whatever the pack's size.
func checkStatement(res *sigstore.Result, packDigest []byte, exp Expect) error {
	st, err := statementOf(res)
	if err != nil {
		return err
	}
	if st.PredicateType != PredicateType {
		return refuse("the attestation's predicate type is %q, not aayudha's proof pack (%s)", st.PredicateType, PredicateType)
	}
	subjects, head, isPack, err := statementIsPack(st, res.Payload, exp.PackJSON)
	if err != nil {
		return err
	}
	if !signsDigest(subjects, packDigest) {
		return refuse("the attestation signs another pack.json (sha256 %s), not this pack's (sha256 %s)",
			strings.Join(shortAll(subjects), ", "), gitsha.Short(exp.PackSHA256))
	}
	if !isPack {
		return refuse("the attestation's predicate is another pack than this pack.json")
	}
	if exp.Head != "" && !strings.EqualFold(head, exp.Head) {
		return refuse("the attested pack proves commit %s, not the pull request's head %s", gitsha.Short(head), gitsha.Short(exp.Head))
	}
	for _, c := range st.Digests("gitCommit") {
		if exp.Head != "" && !strings.EqualFold(c, exp.Head) {
			return refuse("the attestation names commit %s as a subject, not the pull request's head %s", gitsha.Short(c), gitsha.Short(exp.Head))
		}
	}
	return nil
}

// statementIsPack reads the signed payload strictly as a Statement and
// returns its sha256 subjects, the head its predicate proves, and whether
// the predicate is packJSON; err is a Statement that is not well-formed.
//
// The Statement actions/attest writes carries pack.json's own JSON: the
// file parsed and written again compact, its keys in their order. When
// the predicate is packJSON token for token (summary.SamePredicate, found
// by proof/sigstore as it read the summary), it is this pack.json, which
// ship read strictly and verified, so it is not decoded into a pack and
// written again, nor scanned again: the strict reads cover the rest of
// the Statement only. Anything else, a refusal above all, is read the
// careful way (strictStatement: the predicate decoded field for field and
// written as aayu writes pack.json), which names what is wrong.
func statementIsPack(summary *sigstore.Statement, payload, packJSON []byte) (subjects []string, head string, isPack bool, err error) {
	if !utf8.Valid(payload) {
		return nil, "", false, refuse("the attestation's Statement is not a well-formed in-toto Statement: it is not valid UTF-8")
	}
	if rest := summary.Rest; summary.SamePredicate {
		var st statementWithRawPredicate
		if proof.CheckJSON(rest, "the Statement") == nil && decodeStatement(rest, &st, &st.statementHead) == nil {
			if head, ok := topLevelString(packJSON, "pr_head_sha"); ok {
				return st.digests("sha256"), head, true, nil
			}
		}
	}
	if err := proof.CheckJSON(payload, "the Statement"); err != nil {
		return nil, "", false, refuse("the attestation's Statement is not a well-formed in-toto Statement: %v", err)
	}
	signed, err := strictStatement(payload)
	if err != nil {
		return nil, "", false, refuse("the attestation's Statement is not a well-formed in-toto Statement: %v", err)
	}
	p := &signed.Predicate
	back, err := proof.Encode(p)
	return signed.digests("sha256"), p.PRHeadSHA, err == nil && bytes.Equal(back, packJSON), nil
}

// topLevelString is the string value of key in the JSON object doc, read
// token by token until it is found (pack.json names its head fifth).
func topLevelString(doc []byte, key string) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "", false
		}
		if k != key {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return "", false
			}
			continue
		}
		var v string
		if dec.Decode(&v) != nil {
			return "", false
		}
		return v, true
	}
	return "", false
}

// digests lists the digests the Statement's subjects give for algorithm alg.
func (st *statementHead) digests(alg string) []string {
	var out []string
	for _, s := range st.Subject {
		if d := s.Digest[alg]; d != "" {
			out = append(out, d)
		}
	}
	return out
}

// signsDigest reports whether one of subjects (hex) is digest, compared as
// bytes, as sigstore-go compares an artifact's digest with a subject's.
func signsDigest(subjects []string, digest []byte) bool {
	for _, s := range subjects {
		if d, err := hex.DecodeString(s); err == nil && bytes.Equal(d, digest) {
			return true
		}
	}
	return false
}

// statementOf is the verified payload's Statement head as proof/sigstore
// read it (type, subjects, predicate type).
func statementOf(res *sigstore.Result) (*sigstore.Statement, error) {
	if res.Statement == nil {
		return nil, refuse("the attestation carries no in-toto Statement")
	}
	return res.Statement, nil
}

// unverifiedSubjects reads the sha256 subjects of a bundle's Statement
// without trusting them: only to word a refusal.
func unverifiedSubjects(bundleJSON []byte) []string {
	var b struct {
		DSSEEnvelope *struct {
			Payload []byte `json:"payload"`
		} `json:"dsseEnvelope"`
	}
	if json.Unmarshal(bundleJSON, &b) != nil || b.DSSEEnvelope == nil {
		return nil
	}
	var st struct {
		Subject []struct {
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
	}
	if json.Unmarshal(b.DSSEEnvelope.Payload, &st) != nil {
		return nil
	}
	var out []string
	for _, s := range st.Subject {
		if d := s.Digest["sha256"]; d != "" {
			out = append(out, d)
		}
	}
	return out
}

func shortAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = gitsha.Short(s)
	}
	return out
}

// statementHead is an in-toto Statement v1 but its predicate, with the
// fields protojson reads into in_toto.Statement (a subject is a
// ResourceDescriptor).
type statementHead struct {
	Type    string `json:"_type"`
	Subject []struct {
		Name             string                     `json:"name"`
		URI              string                     `json:"uri"`
		Digest           map[string]string          `json:"digest"`
		Content          []byte                     `json:"content"`
		DownloadLocation string                     `json:"downloadLocation"`
		MediaType        string                     `json:"mediaType"`
		Annotations      map[string]json.RawMessage `json:"annotations"`
	} `json:"subject"`
	PredicateType string `json:"predicateType"`
}

// statementShape is the Statement with its predicate read as a pack, field
// for field as pack.json is (no field a pack does not have), in the same
// one pass.
type statementShape struct {
	statementHead
	Predicate proof.Pack `json:"predicate"`
}

// statementWithRawPredicate is the Statement with its predicate's bytes.
type statementWithRawPredicate struct {
	statementHead
	Predicate json.RawMessage `json:"predicate"`
}

// strictStatement reads the verified payload as an in-toto Statement v1
// as strictly as protojson reads it into in_toto.Statement (what
// sigstore-go does when asked for the predicate): no field a Statement or
// a subject does not have, nothing after the document, and its _type must
// be Statement v1. statementIsPack has already held the payload to the
// rest: valid UTF-8, no key repeated in any object.
func strictStatement(payload []byte) (*statementShape, error) {
	var st statementShape
	if err := decodeStatement(payload, &st, &st.statementHead); err != nil {
		return nil, err
	}
	return &st, nil
}

// decodeStatement reads payload into st, a Statement v1 with no field a
// Statement, a subject or st's predicate does not have; head is st's
// statementHead.
func decodeStatement(payload []byte, st any, head *statementHead) error {
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(st); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data follows the Statement")
	}
	if head.Type != statementTypeURI {
		return fmt.Errorf("its _type is %q, not %s", head.Type, statementTypeURI)
	}
	return nil
}

// firstThatProves is the one search over the bundles GitHub keeps under a
// digest: the identity of the first that verify accepts (reasons nil), or
// each distinct refusal of them (reasons empty when there were none); a
// bundle that could not be checked at all stops the search with its error.
func firstThatProves(bundles []json.RawMessage, verify func(json.RawMessage) (Identity, error)) (Identity, []string, error) {
	reasons := []string{}
	for _, b := range bundles {
		id, err := verify(b)
		if err == nil {
			return id, nil, nil
		}
		if !IsRefusal(err) {
			return Identity{}, nil, err
		}
		if !slices.Contains(reasons, err.Error()) {
			reasons = append(reasons, err.Error())
		}
	}
	return Identity{}, reasons, nil
}
