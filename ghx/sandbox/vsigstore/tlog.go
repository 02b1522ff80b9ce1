package vsigstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"time"

	"github.com/aayudha/aayu/proof/sigstore"
)

// vlog is the sandbox's transparency log: a Rekor v1 log of one entry per
// bundle, signed by a key held in memory. It writes what Rekor writes for a
// DSSE envelope (the dsse 0.0.1 entry: TestTheLogWritesWhatRekorWrites
// holds it to rekor's own type byte for byte), the log's promise (a signed
// entry timestamp over the canonical JSON of body, integrated time, log ID
// and index) and an inclusion proof in a one-leaf tree with its signed
// checkpoint, which is what a verifier checks of a Rekor v1 entry.
//
// It is written on the standard library, rather than with rekor's types or
// sigstore-go's test CA, because whatever the sandbox links is linked
// into every run of aayu, and their package inits ran at its every start.
type vlog struct {
	key   *ecdsa.PrivateKey
	id    string // hex SHA-256 of the key's PKIX encoding, Rekor's log ID
	rawID []byte
}

// logHost is the log's name in its checkpoints and its base URL.
const logHost = "rekor.localhost"

// logTreeID is the tree ID its checkpoints' origin names ("HOST - ID").
const logTreeID = 123

func newVlog() (*vlog, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("the log's key: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return nil, fmt.Errorf("the log's key: %w", err)
	}
	sum := sha256.Sum256(der)
	return &vlog{key: key, id: hex.EncodeToString(sum[:]), rawID: sum[:]}, nil
}

// signSHA256 is the log's ECDSA signature over msg's SHA-256, as Rekor's
// signer makes it.
func (l *vlog) signSHA256(msg []byte) ([]byte, error) {
	sum := sha256.Sum256(msg)
	return ecdsa.SignASN1(rand.Reader, l.key, sum[:])
}

// transparencyLog is the log as a trusted root lists it.
func (l *vlog) transparencyLog(start, end time.Time) *sigstore.TransparencyLog {
	return &sigstore.TransparencyLog{BaseURL: "https://" + logHost, ID: l.rawID, PublicKey: l.key.Public(), Start: start, End: end}
}

// entry logs env, signed by leaf with sig, at integratedTime (index 0 of a
// one-leaf tree), and returns the bundle's entry: the canonical body, its
// kind, the log's promise (what makes the integrated time a verified
// timestamp) and the inclusion proof.
func (l *vlog) entry(leaf *x509.Certificate, env *envelope, sig []byte, integratedTime int64) (*sigstore.TlogEntry, error) {
	body, err := dsseBody(leaf, env, sig)
	if err != nil {
		return nil, err
	}
	const logIndex = 0
	set, err := l.signSHA256(sigstore.PromisePayload(body, integratedTime, l.rawID, logIndex))
	if err != nil {
		return nil, fmt.Errorf("the log's promise: %w", err)
	}
	proof, err := l.inclusionProof(body, logIndex)
	if err != nil {
		return nil, err
	}
	e := &sigstore.TlogEntry{LogIndex: logIndex, IntegratedTime: sigstore.JSONInt64(integratedTime), InclusionProof: proof, CanonicalizedBody: body}
	e.LogID = &sigstore.LogID{KeyID: l.rawID}
	e.KindVersion = &sigstore.KindVersion{Kind: "dsse", Version: "0.0.1"}
	e.InclusionPromise = &sigstore.InclusionPromise{SignedEntryTimestamp: set}
	return e, nil
}

// inclusionProof proves body is the one leaf of the tree: the root is the
// leaf's RFC 6962 hash, the path is empty, and the checkpoint (a signed
// note, as Rekor v1 writes it) signs that root.
func (l *vlog) inclusionProof(body []byte, logIndex int64) (*sigstore.InclusionProof, error) {
	leaf := sha256.Sum256(append([]byte{0}, body...))
	note := fmt.Sprintf("%s - %d\n%d\n%s\n", logHost, logTreeID, 1, base64.StdEncoding.EncodeToString(leaf[:]))
	sig, err := l.signSHA256([]byte(note))
	if err != nil {
		return nil, fmt.Errorf("the log's checkpoint: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(l.key.Public())
	if err != nil {
		return nil, err
	}
	keySum := sha256.Sum256(der)
	// The signature line: the signer's name and base64 of the key hash's
	// first four bytes then the signature.
	line := "\u2014 " + logHost + " " + base64.StdEncoding.EncodeToString(append(binary.BigEndian.AppendUint32(nil, binary.BigEndian.Uint32(keySum[:4])), sig...)) + "\n"
	return &sigstore.InclusionProof{LogIndex: sigstore.JSONInt64(logIndex), RootHash: leaf[:], TreeSize: 1, Hashes: []sigstore.Bytes{},
		Checkpoint: &sigstore.Checkpoint{Envelope: note + "\n" + line}}, nil
}

// envelope is a DSSE envelope as actions/attest uploads it to Rekor (the
// fields of go-securesystemslib's dsse.Envelope, in its order).
type envelope struct {
	PayloadType string        `json:"payloadType"`
	Payload     string        `json:"payload"`
	Signatures  []envelopeSig `json:"signatures"`
}

type envelopeSig struct {
	KeyID string `json:"keyid"`
	Sig   string `json:"sig"`
}

// dsseBody is the canonical body Rekor stores for a DSSE envelope signed by
// leaf: the envelope's and the payload's SHA-256 and the signature with the
// signer's certificate (PEM), as rekor's dsse 0.0.1 type writes it.
func dsseBody(leaf *x509.Certificate, env *envelope, sig []byte) ([]byte, error) {
	envJSON, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	payload, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		return nil, err
	}
	envHash, payloadHash := sha256.Sum256(envJSON), sha256.Sum256(payload)
	type hash struct {
		Algorithm string `json:"algorithm"`
		Value     string `json:"value"`
	}
	type spec struct {
		EnvelopeHash hash `json:"envelopeHash"`
		PayloadHash  hash `json:"payloadHash"`
		Signatures   []struct {
			Signature string `json:"signature"`
			Verifier  []byte `json:"verifier"`
		} `json:"signatures"`
	}
	// In rekor's order: the model's own fields, then its kind.
	body := struct {
		APIVersion string `json:"apiVersion"`
		Spec       spec   `json:"spec"`
		Kind       string `json:"kind"`
	}{APIVersion: "0.0.1", Kind: "dsse"}
	body.Spec.EnvelopeHash = hash{"sha256", hex.EncodeToString(envHash[:])}
	body.Spec.PayloadHash = hash{"sha256", hex.EncodeToString(payloadHash[:])}
	body.Spec.Signatures = append(body.Spec.Signatures, struct {
		Signature string `json:"signature"`
		Verifier  []byte `json:"verifier"`
	}{base64.StdEncoding.EncodeToString(sig), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf.Raw})})
	return json.Marshal(body)
}

// signEnvelope signs statement as an in-toto DSSE envelope with key:
// ECDSA over SHA-256 of the envelope's PAE.
func signEnvelope(key *ecdsa.PrivateKey, statement []byte) (*envelope, []byte, error) {
	sum := sha256.Sum256(sigstore.PAE(InTotoPayloadType, statement))
	sig, err := ecdsa.SignASN1(rand.Reader, key, sum[:])
	if err != nil {
		return nil, nil, fmt.Errorf("signing the statement: %w", err)
	}
	return &envelope{PayloadType: InTotoPayloadType, Payload: base64.StdEncoding.EncodeToString(statement),
		Signatures: []envelopeSig{{Sig: base64.StdEncoding.EncodeToString(sig)}}}, sig, nil
}
