package sigstore

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aayudha/aayu/proof"
)

// The bundle media types sigstore-go reads: v0.1 and v0.2 by parameter,
// v0.3 by name.
const (
	mediaTypeV01 = "application/vnd.dev.sigstore.bundle+json;version=0.1"
	mediaTypeV02 = "application/vnd.dev.sigstore.bundle+json;version=0.2"
	mediaTypeV03 = "application/vnd.dev.sigstore.bundle+json;version=0.3"
	// BundleMediaType is the media type of the bundles GitHub makes today.
	BundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"
)

// Bundle is a Sigstore bundle as JSON spells it (the protobuf-specs
// Bundle's JSON mapping), with only what a DSSE bundle holds.
type Bundle struct {
	MediaType            string                `json:"mediaType"`
	VerificationMaterial *VerificationMaterial `json:"verificationMaterial,omitempty"`
	DSSEEnvelope         *Envelope             `json:"dsseEnvelope,omitempty"`
	MessageSignature     json.RawMessage       `json:"messageSignature,omitempty"`
}

// VerificationMaterial is the signer's certificate (one of certificate,
// x509CertificateChain, publicKey) and the proofs of when it signed.
type VerificationMaterial struct {
	Certificate               *RawCertificate   `json:"certificate,omitempty"`
	X509CertificateChain      *CertificateChain `json:"x509CertificateChain,omitempty"`
	PublicKey                 json.RawMessage   `json:"publicKey,omitempty"`
	TlogEntries               []TlogEntry       `json:"tlogEntries,omitempty"`
	TimestampVerificationData *TimestampData    `json:"timestampVerificationData,omitempty"`
}

// RawCertificate is one DER certificate.
type RawCertificate struct {
	RawBytes Bytes `json:"rawBytes"`
}

// CertificateChain is v0.1 and v0.2's leaf-first chain.
type CertificateChain struct {
	Certificates []RawCertificate `json:"certificates"`
}

// TimestampData holds the RFC 3161 timestamps over the signature.
type TimestampData struct {
	RFC3161Timestamps []struct {
		SignedTimestamp Bytes `json:"signedTimestamp"`
	} `json:"rfc3161Timestamps,omitempty"`
}

// TlogEntry is a Rekor v1 entry as the bundle carries it.
type TlogEntry struct {
	LogIndex          JSONInt64         `json:"logIndex"`
	LogID             *LogID            `json:"logId"`
	KindVersion       *KindVersion      `json:"kindVersion"`
	IntegratedTime    JSONInt64         `json:"integratedTime"`
	InclusionPromise  *InclusionPromise `json:"inclusionPromise,omitempty"`
	InclusionProof    *InclusionProof   `json:"inclusionProof,omitempty"`
	CanonicalizedBody Bytes             `json:"canonicalizedBody"`
}

// InclusionProof is an RFC 6962 audit path and the checkpoint that signs
// its root.
type InclusionProof struct {
	LogIndex   JSONInt64   `json:"logIndex"`
	RootHash   Bytes       `json:"rootHash"`
	TreeSize   JSONInt64   `json:"treeSize"`
	Hashes     []Bytes     `json:"hashes"`
	Checkpoint *Checkpoint `json:"checkpoint"`
}

// LogID is a log's ID: the SHA-256 of its key.
type LogID struct {
	KeyID Bytes `json:"keyId"`
}

// KindVersion is the Rekor type of an entry, e.g. dsse 0.0.1.
type KindVersion struct {
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

// InclusionPromise is the log's signed entry timestamp.
type InclusionPromise struct {
	SignedEntryTimestamp Bytes `json:"signedEntryTimestamp"`
}

// Checkpoint is the signed note of the log's tree head.
type Checkpoint struct {
	Envelope string `json:"envelope"`
}

// Envelope is a DSSE envelope as the bundle carries it (bytes, not
// base64 strings, once read).
type Envelope struct {
	Payload     Bytes       `json:"payload"`
	PayloadType string      `json:"payloadType"`
	Signatures  []Signature `json:"signatures"`
}

// Signature is one DSSE signature.
type Signature struct {
	Sig   Bytes  `json:"sig"`
	KeyID string `json:"keyid,omitempty"`
}

// Bytes is a protobuf bytes field in JSON: standard base64 with its
// padding. encoding/json's own reading of []byte skips line breaks inside
// the string ("eyJf\n…" reads as "eyJf…"), and protojson refuses them, so
// a bundle sigstore-go refuses would verify here: Bytes refuses a string
// that holds one.
type Bytes []byte

// UnmarshalJSON reads a base64 string and refuses a line break in it.
func (b *Bytes) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*b = nil
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if strings.ContainsAny(s, "\r\n") {
		return errors.New("a base64 string holds a line break")
	}
	v, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return err // "illegal base64 data at input byte N", as encoding/json says
	}
	*b = v
	return nil
}

// JSONInt64 is a protobuf int64 in JSON: a string of digits (as protojson
// writes it) or a number.
type JSONInt64 int64

// UnmarshalJSON reads either spelling.
func (n *JSONInt64) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' {
		s = s[1 : len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%s is not a 64-bit integer", b)
	}
	*n = JSONInt64(v)
	return nil
}

// MarshalJSON writes a string of digits, as protojson does.
func (n JSONInt64) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(n), 10) + `"`), nil
}

// ParseBundle reads a bundle's JSON and refuses what sigstore-go's
// bundle reader refuses of the bundles aayu meets: a media type other
// than v0.1 to v0.3, no verification material or content, more than one
// kind of either, a v0.1 log entry without its promise, a v0.2 or later
// entry without its inclusion proof, a v0.3 bundle with a certificate
// chain; and more strictly, any field a bundle does not have and a key
// repeated in one object.
func ParseBundle(b []byte) (*Bundle, error) {
	if bu, ok := parseBundleAroundPayload(b); ok {
		return bu, nil
	}
	return parseBundle(b)
}

// parseBundleAroundPayload is parseBundle's answer for a bundle it would
// take, read without reading the envelope's payload, most of a bundle (a
// pack.json of 1,000 artifacts as base64), four times over: the payload's
// string is cut out with one scan (memberSpan), the bundle read with ""
// in its place, and the string decoded once as encoding/json decodes
// bytes (standard base64). It answers only when it is sure parseBundle
// would take b with the same result: the payload a plain string (no
// escape, no line break, nothing but base64, since the base64 decoder
// refuses the rest), the rest taken by parseBundle; b valid UTF-8. A
// string's content holds no key, nests nothing and is well-formed JSON,
// so the rest's checks are b's. ok false: ask parseBundle, for the answer
// and its words.
func parseBundleAroundPayload(b []byte) (*Bundle, bool) {
	es, ee, ok := memberSpan(b, "dsseEnvelope", nil)
	if !ok {
		return nil, false
	}
	ps, pe, ok := memberSpan(b[es:ee], "payload", nil)
	if !ok {
		return nil, false
	}
	ps, pe = es+ps, es+pe
	if pe-ps < 2 || b[ps] != '"' {
		return nil, false
	}
	s := b[ps+1 : pe-1]
	if bytes.IndexByte(s, '\\') >= 0 || bytes.IndexByte(s, '\r') >= 0 || bytes.IndexByte(s, '\n') >= 0 || !utf8.Valid(b) {
		return nil, false
	}
	payload := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(payload, s)
	if err != nil {
		return nil, false
	}
	bu, err := parseBundle(slices.Concat(b[:ps], []byte(`""`), b[pe:]))
	if err != nil || bu.DSSEEnvelope == nil {
		return nil, false
	}
	bu.DSSEEnvelope.Payload = payload[:n]
	return bu, true
}

func parseBundle(b []byte) (*Bundle, error) {
	if err := proof.CheckJSON(b, "the bundle"); err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		// encoding/json would read an invalid byte as U+FFFD; protojson,
		// which sigstore-go reads a bundle with, refuses it.
		return nil, errors.New("the bundle is not valid UTF-8")
	}
	var bu Bundle
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bu); err != nil {
		return nil, fmt.Errorf("reading the bundle: %w", err)
	}
	if err := exactKeys(b); err != nil {
		return nil, err
	}
	var version int
	switch bu.MediaType {
	case mediaTypeV01:
		version = 1
	case mediaTypeV02:
		version = 2
	case mediaTypeV03, BundleMediaType:
		version = 3
	default:
		return nil, fmt.Errorf("the bundle's media type %q is not a Sigstore bundle v0.1 to v0.3", bu.MediaType)
	}
	if (bu.DSSEEnvelope == nil) == (bu.MessageSignature == nil) {
		return nil, errors.New("the bundle must hold one of a DSSE envelope and a message signature")
	}
	vm := bu.VerificationMaterial
	if vm == nil {
		return nil, errors.New("the bundle has no verification material")
	}
	kinds := 0
	for _, set := range []bool{vm.Certificate != nil, vm.X509CertificateChain != nil, vm.PublicKey != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, errors.New("the bundle's verification material must be one of a certificate, a certificate chain and a public key")
	}
	if version >= 3 && vm.X509CertificateChain != nil {
		return nil, errors.New("verification material cannot be X.509 certificate chain (for bundle v0.3)")
	}
	for i, e := range vm.TlogEntries {
		if err := e.wellFormed(); err != nil {
			return nil, fmt.Errorf("the bundle's log entry %d: %w", i, err)
		}
		if version == 1 && !e.hasPromise() {
			return nil, errors.New("inclusion promises missing in bundle (required for bundle v0.1)")
		}
		if version >= 2 && e.InclusionProof == nil {
			return nil, errors.New("inclusion proof missing in bundle (required for bundle v0.2)")
		}
	}
	return &bu, nil
}

func (e *TlogEntry) hasPromise() bool {
	return e.InclusionPromise != nil && len(e.InclusionPromise.SignedEntryTimestamp) > 0
}

func (e *TlogEntry) wellFormed() error {
	switch {
	case e.CanonicalizedBody == nil, e.LogIndex < 0, e.LogID == nil, e.LogID.KeyID == nil, e.KindVersion == nil:
		return errors.New("it lacks its body, index, log ID or kind")
	case e.InclusionProof != nil && (e.InclusionProof.Checkpoint == nil || e.InclusionProof.Checkpoint.Envelope == ""):
		return errors.New("its inclusion proof has no checkpoint")
	}
	return nil
}

// Leaf is the bundle's signing certificate: the certificate, or the first
// of the chain (as sigstore-go, which uses no intermediate a bundle
// brings). nil: the bundle is signed by a bare key.
func (b *Bundle) Leaf() (*x509.Certificate, error) {
	vm := b.VerificationMaterial
	var raw []byte
	switch {
	case vm.Certificate != nil:
		raw = vm.Certificate.RawBytes
	case vm.X509CertificateChain != nil:
		if len(vm.X509CertificateChain.Certificates) == 0 {
			return nil, errors.New("the bundle's certificate chain is empty")
		}
		raw = vm.X509CertificateChain.Certificates[0].RawBytes
	default:
		return nil, nil
	}
	if raw == nil {
		return nil, errors.New("the bundle's certificate is empty")
	}
	return x509.ParseCertificate(raw)
}

// Signature is the envelope's one signature's bytes ("" when it has not
// exactly one).
func (b *Bundle) signature() []byte {
	if b.DSSEEnvelope == nil || len(b.DSSEEnvelope.Signatures) != 1 {
		return nil
	}
	return b.DSSEEnvelope.Signatures[0].Sig
}

// exactKeys refuses a key that encoding/json matched case-insensitively:
// protojson, which sigstore-go reads a bundle with, matches names exactly,
// so "MediaType" is an unknown field to it and must be one here too. It
// scans the bytes once, allocating nothing: a string followed by a colon
// is a key. The document is already known to be well-formed JSON.
func exactKeys(b []byte) error {
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		start, escaped := i+1, false
		j := start
		for ; j < len(b) && b[j] != '"'; j++ {
			if b[j] == '\\' {
				escaped = true
				j++
			}
		}
		k := j + 1
		for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
			k++
		}
		if k < len(b) && b[k] == ':' && (escaped || !isKnownKey(string(b[start:j]))) {
			return fmt.Errorf("the bundle has a field %q no bundle has", b[start:j])
		}
		i = j
	}
	return nil
}

// isKnownKey is whether k names a field of a bundle or of anything in it.
func isKnownKey(k string) bool {
	switch k {
	case "mediaType", "verificationMaterial", "dsseEnvelope", "messageSignature", "certificate",
		"x509CertificateChain", "publicKey", "tlogEntries", "timestampVerificationData", "rawBytes", "certificates",
		"rfc3161Timestamps", "signedTimestamp", "logIndex", "logId", "keyId", "kindVersion", "kind", "version",
		"integratedTime", "inclusionPromise", "signedEntryTimestamp", "inclusionProof", "canonicalizedBody",
		"rootHash", "treeSize", "hashes", "checkpoint", "envelope", "payload", "payloadType", "signatures", "sig",
		"keyid", "messageDigest", "algorithm", "digest", "signature", "hint":
		return true
	}
	return false
}
