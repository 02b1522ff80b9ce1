package vsigstore

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
	"github.com/go-openapi/runtime"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/types"
	rekordsse "github.com/sigstore/rekor/pkg/types/dsse"
	_ "github.com/sigstore/rekor/pkg/types/dsse/v0.0.1" // registers the dsse 0.0.1 entry the log writes
	"github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
)

// vlog is the sandbox's transparency log: a Rekor v1 log of one entry per
// bundle, signed by a key held in memory. It writes what Rekor writes for a
// DSSE envelope (the dsse 0.0.1 entry, canonicalised by rekor's own type),
// the log's promise (a signed entry timestamp over the canonical JSON of
// body, integrated time, log ID and index) and an inclusion proof in a
// one-leaf tree with its signed checkpoint, which is what sigstore-go
// verifies of a Rekor v1 entry.
//
// It is written here rather than taken from sigstore-go's pkg/testing/ca,
// whose certificate authority and timestamping authority the sandbox does
// not use and whose imports (rekor's every key format, boulder's key
// checks, the timestamp authority's x509) were linked into every run of
// aayu and initialised at its start.
type vlog struct {
	key   *ecdsa.PrivateKey
	id    string // hex SHA-256 of the key's PKIX encoding, Rekor's log ID
	rawID []byte

	once   sync.Once
	signer signature.SignerVerifier
	err    error
}

// logHost is the log's name in its checkpoints and its base URL: sigstore-go
// derives a checkpoint's expected origin from the base URL's host.
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

func (l *vlog) sign() (signature.SignerVerifier, error) {
	l.once.Do(func() { l.signer, l.err = signature.LoadECDSASignerVerifier(l.key, crypto.SHA256) })
	return l.signer, l.err
}

// transparencyLog is the log as a trusted root lists it.
func (l *vlog) transparencyLog(start, end time.Time) *root.TransparencyLog {
	return &root.TransparencyLog{
		BaseURL: "https://" + logHost, ID: l.rawID,
		ValidityPeriodStart: start, ValidityPeriodEnd: end,
		HashFunc: crypto.SHA256, PublicKey: l.key.Public(), SignatureHashFunc: crypto.SHA256,
	}
}

// promise is the log's signed entry timestamp over p: Rekor signs the
// RFC 8785 canonical JSON of the payload.
func (l *vlog) promise(p tlog.RekorPayload) ([]byte, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	canon, err := jsoncanonicalizer.Transform(b)
	if err != nil {
		return nil, err
	}
	s, err := l.sign()
	if err != nil {
		return nil, err
	}
	return s.SignMessage(bytes.NewReader(canon))
}

// entry logs env, signed by leaf with sig, at integratedTime (index 0 of a
// one-leaf tree), and returns the bundle's entry: the canonical body, its
// kind, the log's promise (what makes the integrated time a verified
// timestamp) and the inclusion proof.
func (l *vlog) entry(leaf *x509.Certificate, env *dsse.Envelope, sig []byte, integratedTime int64) (*protorekor.TransparencyLogEntry, error) {
	body, err := dsseBody(leaf, env, sig)
	if err != nil {
		return nil, err
	}
	const logIndex = 0
	set, err := l.promise(tlog.RekorPayload{LogID: l.id, IntegratedTime: integratedTime, LogIndex: logIndex,
		Body: base64.StdEncoding.EncodeToString(body)})
	if err != nil {
		return nil, fmt.Errorf("the log's promise: %w", err)
	}
	proof, err := l.inclusionProof(body, logIndex)
	if err != nil {
		return nil, err
	}
	return &protorekor.TransparencyLogEntry{
		LogIndex: logIndex, LogId: &protocommon.LogId{KeyId: l.rawID},
		KindVersion:    &protorekor.KindVersion{Kind: rekordsse.KIND, Version: "0.0.1"},
		IntegratedTime: integratedTime, InclusionPromise: &protorekor.InclusionPromise{SignedEntryTimestamp: set},
		InclusionProof: proof, CanonicalizedBody: body,
	}, nil
}

// inclusionProof proves body is the one leaf of the tree: the root is the
// leaf's RFC 6962 hash, the path is empty, and the checkpoint signs that
// root.
func (l *vlog) inclusionProof(body []byte, logIndex int64) (*protorekor.InclusionProof, error) {
	leaf := sha256.Sum256(append([]byte{0}, body...))
	s, err := l.sign()
	if err != nil {
		return nil, err
	}
	checkpoint, err := util.CreateAndSignCheckpoint(context.Background(), logHost, logTreeID, 1, leaf[:], s)
	if err != nil {
		return nil, fmt.Errorf("the log's checkpoint: %w", err)
	}
	return &protorekor.InclusionProof{LogIndex: logIndex, RootHash: leaf[:], TreeSize: 1,
		Checkpoint: &protorekor.Checkpoint{Envelope: string(checkpoint)}}, nil
}

// dsseBody is the canonical body Rekor stores for a DSSE envelope signed by
// leaf: built and canonicalised by rekor's own dsse type, as the log does
// on upload.
func dsseBody(leaf *x509.Certificate, env *dsse.Envelope, sig []byte) ([]byte, error) {
	ctx := context.Background()
	certPEM, err := cryptoutils.MarshalCertificateToPEM(leaf)
	if err != nil {
		return nil, err
	}
	envJSON, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	props := types.ArtifactProperties{ArtifactBytes: envJSON, SignatureBytes: sig, PublicKeyBytes: [][]byte{certPEM}, PKIFormat: "x509"}
	proposed, err := types.NewProposedEntry(ctx, rekordsse.KIND, "0.0.1", props)
	if err != nil {
		return nil, fmt.Errorf("the log's entry: %w", err)
	}
	impl, err := types.CreateVersionedEntry(proposed)
	if err != nil {
		return nil, fmt.Errorf("the log's entry: %w", err)
	}
	canon, err := types.CanonicalizeEntry(ctx, impl)
	if err != nil {
		return nil, fmt.Errorf("the log's entry: %w", err)
	}
	// Read back and written again, as Rekor stores what it read of the
	// upload, not the upload itself.
	stored, err := models.UnmarshalProposedEntry(bytes.NewReader(canon), runtime.JSONConsumer())
	if err != nil {
		return nil, fmt.Errorf("the log's entry: %w", err)
	}
	impl, err = types.UnmarshalEntry(stored)
	if err != nil {
		return nil, fmt.Errorf("the log's entry: %w", err)
	}
	return impl.Canonicalize(ctx)
}
