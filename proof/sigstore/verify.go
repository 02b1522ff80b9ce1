package sigstore

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// InTotoPayloadType is the DSSE payload type of an in-toto Statement.
const InTotoPayloadType = "application/vnd.in-toto+json"

// The bounds sigstore-go keeps on what one bundle may ask it to check.
const (
	maxTlogEntries = 32
	maxTimestamps  = 32
)

// ErrBareKey is a bundle signed by a public key rather than a certificate:
// nothing names who signed it.
var ErrBareKey = errors.New("the bundle is signed by a bare key, not a certificate")

// NotABundle is a document that does not read as a Sigstore bundle (as
// against one that reads and does not verify).
type NotABundle struct{ Err error }

func (e *NotABundle) Error() string { return e.Err.Error() }
func (e *NotABundle) Unwrap() error { return e.Err }

// Result is a verified bundle: who signed (the leaf certificate's
// claims), what (the envelope's payload), and the verified times.
type Result struct {
	Certificate Certificate
	Leaf        *x509.Certificate
	Payload     []byte
	PayloadType string
	// LogIndex is the first log entry's index; nil when the bundle has
	// no log entry (GitHub's own Sigstore).
	LogIndex   *int64
	Timestamps []time.Time // the verified times the certificate was checked at
	// Statement is the payload's in-toto Statement as sigstore-go
	// summarises it (no predicate), read once here.
	Statement *Statement
}

// Verify checks bundleJSON under trusted as aayu asks: when the bundle has
// log entries, at least one entry of a log of the trusted root verifies
// and at least one verified time (a log's promise, or an RFC 3161
// timestamp) exists; when it has none, at least one RFC 3161 timestamp of
// a timestamp authority of the trusted root verifies. The certificate must
// chain to a certificate authority of the trusted root, for code signing,
// at every verified time, and its key must have made the envelope's one
// signature over the envelope's PAE. A document that is no bundle is a
// *NotABundle; a bundle signed by a bare key is ErrBareKey.
func Verify(trusted *TrustedRoot, bundleJSON []byte) (*Result, error) {
	return VerifyExpecting(trusted, bundleJSON, nil)
}

// VerifyExpecting is Verify for a caller that expects the Statement's
// predicate to be predicate, a well-formed JSON document it holds (ship's
// pack.json, read strictly before): it refuses and takes the same bundles
// as Verify, and a predicate that is predicate token for token is not
// scanned a second time (Statement.SamePredicate). predicate must be
// well-formed JSON: a predicate equal to it is taken as well-formed.
func VerifyExpecting(trusted *TrustedRoot, bundleJSON, predicate []byte) (*Result, error) {
	if trusted == nil {
		return nil, errors.New("no trusted root")
	}
	b, err := ParseBundle(bundleJSON)
	if err != nil {
		return nil, &NotABundle{err}
	}
	leaf, err := b.Leaf()
	if err != nil {
		return nil, fmt.Errorf("the bundle's certificate: %w", err)
	}
	if leaf == nil {
		return nil, ErrBareKey
	}
	env := b.DSSEEnvelope
	if env == nil {
		return nil, errors.New("artifact must be provided to verify message signature")
	}
	if len(env.Signatures) != 1 {
		return nil, errors.New("the DSSE envelope must hold exactly one signature")
	}
	res := &Result{Leaf: leaf, Payload: env.Payload, PayloadType: env.PayloadType}
	entries := b.VerificationMaterial.TlogEntries
	var times []time.Time
	if len(entries) > 0 {
		if times, err = verifyLog(trusted, b, leaf); err != nil {
			return nil, fmt.Errorf("failed to verify log inclusion: %w", err)
		}
		idx := int64(entries[0].LogIndex)
		res.LogIndex = &idx
	}
	stamped, errs, err := verifyTimestamps(trusted, b)
	if err != nil {
		return nil, err
	}
	if len(times)+len(stamped) < 1 {
		return nil, fmt.Errorf("failed to verify timestamps: no verified log entry time or signed timestamp: %w", errors.Join(errs...))
	}
	times = append(times, stamped...)
	if res.Certificate, err = Summarize(leaf); err != nil {
		return nil, fmt.Errorf("failed to summarize certificate: %w", err)
	}
	for _, t := range times {
		if err := verifyLeaf(trusted, leaf, t); err != nil {
			return nil, err
		}
	}
	if err := verifyEnvelope(leaf, env); err != nil {
		return nil, fmt.Errorf("failed to verify signature: %w", err)
	}
	if res.Statement, err = statementReads(env, predicate); err != nil {
		return nil, fmt.Errorf("failed to fetch envelope statement: %w", err)
	}
	res.Timestamps = times
	return res, nil
}

// verifyLog is sigstore-go's check of a bundle's Rekor v1 entries with a
// threshold of one log: the verified integrated times (of entries with a
// promise), or why no entry verifies.
func verifyLog(trusted *TrustedRoot, b *Bundle, leaf *x509.Certificate) ([]time.Time, error) {
	entries := b.VerificationMaterial.TlogEntries
	if len(entries) > maxTlogEntries {
		return nil, fmt.Errorf("too many tlog entries: %d > %d", len(entries), maxTlogEntries)
	}
	for i := range entries {
		for j := i + 1; j < len(entries); j++ {
			if bytes.Equal(entries[i].LogID.KeyID, entries[j].LogID.KeyID) && entries[i].LogIndex == entries[j].LogIndex {
				return nil, errors.New("duplicate tlog entries found")
			}
		}
	}
	env := b.DSSEEnvelope
	payloadHash := sha256.Sum256(env.Payload)
	verified := map[string]bool{}
	var times []time.Time
	for i := range entries {
		e := &entries[i]
		body, err := readBody(e.CanonicalizedBody)
		if err != nil {
			return nil, err
		}
		if body.kind != e.KindVersion.Kind || body.version != e.KindVersion.Version {
			return nil, fmt.Errorf("kind and version mismatch: %s/%s != %s/%s", body.kind, body.version, e.KindVersion.Kind, e.KindVersion.Version)
		}
		id := hex.EncodeToString(e.LogID.KeyID)
		log, ok := trusted.Logs[id]
		if !ok {
			continue // a log the trusted root does not name counts for nothing
		}
		if !e.hasPromise() && e.InclusionProof == nil {
			return nil, errors.New("entry must contain an inclusion proof and/or promise")
		}
		if e.hasPromise() && promiseHolds(e, log) != nil {
			continue // a promise the log's key did not make counts for nothing
		}
		if e.InclusionProof != nil {
			if err := inclusionHolds(e, log); err != nil {
				return nil, err
			}
		}
		if !bytes.Equal(body.sig, b.signature()) {
			return nil, errors.New("transparency log signature does not match")
		}
		if c := body.certificate(); c == nil || !c.Equal(leaf) {
			return nil, errors.New("transparency log certificate does not match")
		}
		if !bytes.Equal(body.payloadHash, payloadHash[:]) {
			return nil, errors.New("transparency log dsse/intoto entry payload hash does not match envelope payload hash")
		}
		it := time.Unix(int64(e.IntegratedTime), 0)
		if e.IntegratedTime != 0 && (leaf.NotAfter.Before(it) || leaf.NotBefore.After(it)) {
			return nil, errors.New("integrated time outside certificate validity")
		}
		if e.hasPromise() && !verified[id] {
			times = append(times, it)
		}
		verified[id] = true
	}
	if len(verified) < 1 {
		return nil, errors.New("not enough verified log entries from transparency log: 0 < 1")
	}
	return times, nil
}

// verifyTimestamps checks each RFC 3161 timestamp over the envelope's
// signature: the times of those a timestamp authority of the trusted root
// made (one per authority), and why the others do not count.
func verifyTimestamps(trusted *TrustedRoot, b *Bundle) ([]time.Time, []error, error) {
	td := b.VerificationMaterial.TimestampVerificationData
	if td == nil {
		return nil, nil, nil
	}
	if len(td.RFC3161Timestamps) > maxTimestamps {
		return nil, nil, fmt.Errorf("too many signed timestamps: %d > %d", len(td.RFC3161Timestamps), maxTimestamps)
	}
	var times []time.Time
	var errs []error
	seen := map[string]bool{}
	for _, ts := range td.RFC3161Timestamps {
		t, uri, err := verifySignedTimestamp(trusted, ts.SignedTimestamp, b.signature())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[uri] {
			errs = append(errs, fmt.Errorf("duplicate timestamps from the same authority, ignoring %s", uri))
			continue
		}
		seen[uri] = true
		times = append(times, t)
	}
	return times, errs, nil
}

func verifySignedTimestamp(trusted *TrustedRoot, tsr, sig []byte) (time.Time, string, error) {
	var errs []error
	for i := range trusted.TimestampAuthorities {
		tsa := &trusted.TimestampAuthorities[i]
		t, err := tsa.verify(tsr, sig)
		if err == nil {
			return t, tsa.URI, nil
		}
		errs = append(errs, err)
	}
	return time.Time{}, "", fmt.Errorf("unable to verify signed timestamps: %w", errors.Join(errs...))
}

// verifyLeaf checks the leaf chains, for code signing, to a certificate
// authority of the trusted root that was valid at t, every certificate of
// the chain valid at t.
func verifyLeaf(trusted *TrustedRoot, leaf *x509.Certificate, t time.Time) error {
	// Go does not read Fulcio's OtherName SAN; sigstore-go leaves the SAN
	// extension's criticality out of the path check, and so does this.
	c := *leaf
	c.UnhandledCriticalExtensions = nil
	for _, oid := range leaf.UnhandledCriticalExtensions {
		if !oid.Equal(asn1.ObjectIdentifier{2, 5, 29, 17}) {
			c.UnhandledCriticalExtensions = append(c.UnhandledCriticalExtensions, oid)
		}
	}
	for _, ca := range trusted.CertificateAuthorities {
		if (!ca.Start.IsZero() && t.Before(ca.Start)) || (!ca.End.IsZero() && t.After(ca.End)) {
			continue
		}
		roots, inter := x509.NewCertPool(), x509.NewCertPool()
		roots.AddCert(ca.Root)
		for _, i := range ca.Intermediates {
			inter.AddCert(i)
		}
		if _, err := c.Verify(x509.VerifyOptions{CurrentTime: t, Roots: roots, Intermediates: inter,
			KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}); err == nil {
			return nil
		}
	}
	return errors.New("failed to verify leaf certificate: leaf certificate verification failed")
}

// PAE is DSSE's pre-authentication encoding of a payload and its type:
// what the signature covers.
func PAE(payloadType string, payload []byte) []byte {
	return append(paeHead(payloadType, len(payload)), payload...)
}

// paeHead is PAE but its last part, the payload itself.
func paeHead(payloadType string, payloadLen int) []byte {
	b := append([]byte("DSSEv1 "), strconv.Itoa(len(payloadType))...)
	b = append(append(append(b, ' '), payloadType...), ' ')
	return append(strconv.AppendInt(b, int64(payloadLen), 10), ' ')
}

// verifyEnvelope checks the envelope's one signature over its PAE with the
// leaf's key, with the hash sigstore-go's default verifier for that key
// uses (and SHA-256 for P-384 and P-521 keys, which old clients used and
// sigstore-go still takes for bundles up to v0.3).
func verifyEnvelope(leaf *x509.Certificate, env *Envelope) error {
	s := env.Signatures[0]
	if s.KeyID != "" {
		return errors.New("the envelope's signature names a key ID; Sigstore's signatures name none")
	}
	// The PAE is hashed in its two parts: the payload (a pack.json) is
	// not copied behind its head for the hash's sake.
	if !signatureHolds(leaf.PublicKey, s.Sig, paeHead(env.PayloadType, len(env.Payload)), env.Payload) {
		return errors.New("could not verify envelope: the signature does not match")
	}
	return nil
}

// signatureHolds reports whether sig is pub's signature over the message
// msg's parts make, one after the other.
func signatureHolds(pub crypto.PublicKey, sig []byte, msg ...[]byte) bool {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		hashes := map[elliptic.Curve][]crypto.Hash{
			elliptic.P256(): {crypto.SHA256},
			elliptic.P384(): {crypto.SHA384, crypto.SHA256},
			elliptic.P521(): {crypto.SHA512, crypto.SHA256},
		}[k.Curve]
		for _, h := range hashes {
			d := h.New()
			for _, m := range msg {
				d.Write(m)
			}
			if ecdsa.VerifyASN1(k, d.Sum(nil), sig) {
				return true
			}
		}
	case *rsa.PublicKey:
		if n := k.N.BitLen(); n != 2048 && n != 3072 && n != 4096 {
			return false
		}
		d := sha256.New()
		for _, m := range msg {
			d.Write(m)
		}
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, d.Sum(nil), sig) == nil
	case ed25519.PublicKey:
		return ed25519.Verify(k, slices.Concat(msg...), sig)
	}
	return false
}
