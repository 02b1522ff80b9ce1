package sigstore

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/proof"
)

// logged is what a Rekor v1 entry's canonical body says was logged: the
// signature, the signer's certificate (PEM) and the hash of the payload.
type logged struct {
	kind, version string
	sig           []byte
	verifierPEM   []byte
	payloadHash   []byte
}

type hashValue struct {
	Algorithm string `json:"algorithm"`
	Value     string `json:"value"`
}

// readBody reads a Rekor v1 dsse 0.0.1 or intoto 0.0.2 canonical body,
// the two kinds a DSSE bundle's entry can be, as rekor's own types
// validate them (a sha256 payload hash of 64 hex digits, at least one
// signature with its verifier); the first signature is the one compared,
// as sigstore-go compares it.
func readBody(body []byte) (*logged, error) {
	if err := proof.CheckJSON(body, "the log entry's body"); err != nil {
		return nil, err
	}
	var head struct {
		APIVersion string          `json:"apiVersion"`
		Kind       string          `json:"kind"`
		Spec       json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, fmt.Errorf("the log entry's body is not a Rekor entry: %w", err)
	}
	l := &logged{kind: head.Kind, version: head.APIVersion}
	var ph *hashValue
	switch {
	case head.Kind == "dsse" && head.APIVersion == "0.0.1":
		var spec struct {
			PayloadHash *hashValue `json:"payloadHash"`
			Signatures  []struct {
				Signature *string `json:"signature"`
				Verifier  []byte  `json:"verifier"`
			} `json:"signatures"`
		}
		if err := json.Unmarshal(head.Spec, &spec); err != nil {
			return nil, fmt.Errorf("the log entry's dsse body: %w", err)
		}
		if len(spec.Signatures) == 0 || spec.Signatures[0].Signature == nil || spec.Signatures[0].Verifier == nil {
			return nil, errors.New("the log entry's dsse body has no signature with its verifier")
		}
		sig, err := base64.StdEncoding.DecodeString(*spec.Signatures[0].Signature)
		if err != nil {
			return nil, fmt.Errorf("the log entry's signature: %w", err)
		}
		l.sig, l.verifierPEM, ph = sig, spec.Signatures[0].Verifier, spec.PayloadHash
	case head.Kind == "intoto" && head.APIVersion == "0.0.2":
		var spec struct {
			Content *struct {
				Envelope *struct {
					PayloadType string `json:"payloadType"`
					Signatures  []struct {
						Sig       []byte `json:"sig"` // base64 of the base64 signature
						PublicKey []byte `json:"publicKey"`
					} `json:"signatures"`
				} `json:"envelope"`
				PayloadHash *hashValue `json:"payloadHash"`
			} `json:"content"`
		}
		if err := json.Unmarshal(head.Spec, &spec); err != nil {
			return nil, fmt.Errorf("the log entry's intoto body: %w", err)
		}
		c := spec.Content
		if c == nil || c.Envelope == nil || c.Envelope.PayloadType == "" || len(c.Envelope.Signatures) == 0 ||
			c.Envelope.Signatures[0].Sig == nil || c.Envelope.Signatures[0].PublicKey == nil {
			return nil, errors.New("the log entry's intoto body has no envelope signature with its key")
		}
		sig, err := base64.StdEncoding.DecodeString(string(c.Envelope.Signatures[0].Sig))
		if err != nil {
			return nil, fmt.Errorf("the log entry's signature: %w", err)
		}
		l.sig, l.verifierPEM, ph = sig, c.Envelope.Signatures[0].PublicKey, c.PayloadHash
	default:
		return nil, fmt.Errorf("the log entry is a %s %s entry, not a dsse 0.0.1 or intoto 0.0.2 one", head.Kind, head.APIVersion)
	}
	if ph == nil || ph.Algorithm != "sha256" || len(ph.Value) != 64 {
		return nil, errors.New("the log entry names no sha256 payload hash")
	}
	h, err := hex.DecodeString(ph.Value)
	if err != nil {
		return nil, fmt.Errorf("the log entry's payload hash: %w", err)
	}
	l.payloadHash = h
	return l, nil
}

// certificate is the certificate the entry names as its signer's, or nil.
func (l *logged) certificate() *x509.Certificate {
	block, _ := pem.Decode(l.verifierPEM)
	if block == nil {
		return nil
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil
	}
	return c
}

// promiseHolds checks the entry's signed entry timestamp: the log's
// signature over the RFC 8785 canonical JSON of its body, integrated time,
// log ID and index, by a log key valid at the integrated time.
func promiseHolds(e *TlogEntry, log *TransparencyLog) error {
	it := time.Unix(int64(e.IntegratedTime), 0)
	if log.Start.IsZero() || log.Start.After(it) || (!log.End.IsZero() && log.End.Before(it)) {
		return errors.New("rekor log public key not valid at payload integrated time")
	}
	canon := PromisePayload(e.CanonicalizedBody, int64(e.IntegratedTime), e.LogID.KeyID, int64(e.LogIndex))
	if canon == nil {
		return errors.New("the log entry's time or index is out of range")
	}
	key, ok := log.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return fmt.Errorf("unsupported public key type: %T", log.PublicKey)
	}
	sum := sha256.Sum256(canon)
	if !ecdsa.VerifyASN1(key, sum[:], e.InclusionPromise.SignedEntryTimestamp) {
		return errors.New("unable to verify SET")
	}
	return nil
}

// PromisePayload is what a Rekor log signs as an entry's promise: the RFC
// 8785 canonical JSON of its body (base64), integrated time, log ID (hex)
// and index; nil for a time or index beyond what RFC 8785 writes without
// an exponent. Every value is base64 or hex digits or an integer, so the
// canonical form is the keys sorted and nothing escaped.
func PromisePayload(body []byte, integratedTime int64, logID []byte, logIndex int64) []byte {
	itS, ok1 := jcsInt(integratedTime)
	idxS, ok2 := jcsInt(logIndex)
	if !ok1 || !ok2 {
		return nil
	}
	return []byte(`{"body":"` + base64.StdEncoding.EncodeToString(body) + `","integratedTime":` + itS +
		`,"logID":"` + hex.EncodeToString(logID) + `","logIndex":` + idxS + `}`)
}

// jcsInt writes n as RFC 8785 writes a number: the shortest form of the
// double nearest n (integral below 10^21, so without an exponent).
func jcsInt(n int64) (string, bool) {
	f := float64(n)
	if math.Abs(f) >= 1e21 {
		return "", false
	}
	return strconv.FormatFloat(f, 'f', -1, 64), true
}

// inclusionHolds checks the entry's RFC 6962 audit path from its body's
// leaf hash up to the proof's root, and that a checkpoint signed by the
// log's key commits to that root.
func inclusionHolds(e *TlogEntry, log *TransparencyLog) error {
	p := e.InclusionProof
	if p.LogIndex < 0 || p.TreeSize < 0 {
		return errors.New("the inclusion proof's index or size is negative")
	}
	leaf := sha256.Sum256(append([]byte{0}, e.CanonicalizedBody...))
	root, err := rootFromInclusionProof(uint64(p.LogIndex), uint64(p.TreeSize), leaf[:], p.Hashes)
	if err != nil {
		return err
	}
	if !bytes.Equal(root, p.RootHash) {
		return errors.New("the inclusion proof does not lead to its root hash")
	}
	return checkpointHolds(p.Checkpoint.Envelope, p.RootHash, log.PublicKey)
}

func rootFromInclusionProof(index, size uint64, leaf []byte, proof []Bytes) ([]byte, error) {
	if index >= size {
		return nil, fmt.Errorf("the inclusion proof's index %d is beyond its tree of %d", index, size)
	}
	inner := bits.Len64(index ^ (size - 1))
	border := bits.OnesCount64(index >> uint(inner))
	if len(proof) != inner+border {
		return nil, fmt.Errorf("the inclusion proof has %d hashes, not the %d its index and size need", len(proof), inner+border)
	}
	node := leaf
	for i, h := range proof[:inner] {
		if (index>>uint(i))&1 == 0 {
			node = hashChildren(node, h)
		} else {
			node = hashChildren(h, node)
		}
	}
	for _, h := range proof[inner:] {
		node = hashChildren(h, node)
	}
	return node, nil
}

func hashChildren(l, r []byte) []byte {
	h := sha256.New()
	h.Write([]byte{1})
	h.Write(l)
	h.Write(r)
	return h.Sum(nil)
}

// checkpointHolds reads a Rekor v1 checkpoint (a signed note: origin
// "HOST - TREEID", size, base64 root hash, then a blank line and the
// signature lines) and checks every signature is the log key's and the
// root is rootHash.
func checkpointHolds(envelope string, rootHash []byte, key crypto.PublicKey) error {
	split := strings.LastIndex(envelope, "\n\n")
	if split < 0 {
		return errors.New("the checkpoint is not a signed note")
	}
	text, sigs := envelope[:split+1], envelope[split+2:]
	if sigs == "" || !strings.HasSuffix(sigs, "\n") {
		return errors.New("the checkpoint is not a signed note")
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 4 || lines[0] == "" || !rekorV1Origin(lines[0]) {
		return errors.New("the checkpoint is not a Rekor v1 checkpoint")
	}
	if _, err := strconv.ParseUint(lines[1], 10, 64); err != nil {
		return errors.New("the checkpoint's size is not a number")
	}
	h, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil {
		return errors.New("the checkpoint's root hash is not base64")
	}
	der, err := x509.MarshalPKIXPublicKey(key)
	if err != nil {
		return err
	}
	keySum := sha256.Sum256(der)
	keyHash := binary.BigEndian.Uint32(keySum[:4])
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(sigs, "\n"), "\n") {
		f := strings.Fields(strings.TrimPrefix(line, "\u2014 "))
		if !strings.HasPrefix(line, "\u2014 ") || len(f) != 2 {
			return errors.New("the checkpoint's signature line does not read")
		}
		raw, err := base64.StdEncoding.DecodeString(f[1])
		if err != nil || len(raw) < 5 {
			return errors.New("the checkpoint's signature does not read")
		}
		if binary.BigEndian.Uint32(raw[:4]) != keyHash || !noteSignatureHolds(key, []byte(text), raw[4:]) {
			return errors.New("signature on checkpoint did not verify")
		}
		n++
	}
	if n == 0 {
		return errors.New("the checkpoint is not signed")
	}
	if !bytes.Equal(h, rootHash) {
		return errors.New("proof root hash does not match signed tree head")
	}
	return nil
}

// rekorV1Origin is an origin that ends " - DIGITS", the tree ID Rekor v1
// writes.
func rekorV1Origin(o string) bool {
	i := strings.LastIndex(o, " - ")
	if i < 0 || i+3 == len(o) {
		return false
	}
	for _, c := range o[i+3:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// noteSignatureHolds verifies a checkpoint signature as rekor does: over
// the SHA-256 of the note for ECDSA (a P-256 key: its hash is SHA-256) and
// RSA keys, over the note itself for Ed25519.
func noteSignatureHolds(key crypto.PublicKey, msg, sig []byte) bool {
	sum := sha256.Sum256(msg)
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		return k.Curve.Params().BitSize == 256 && ecdsa.VerifyASN1(k, sum[:], sig)
	case *rsa.PublicKey:
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, sum[:], sig) == nil
	case ed25519.PublicKey:
		return ed25519.Verify(k, msg, sig)
	}
	return false
}
