package vsigstore

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-openapi/runtime"
	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/types"
	rekordsse "github.com/sigstore/rekor/pkg/types/dsse"
	_ "github.com/sigstore/rekor/pkg/types/dsse/v0.0.1" // registers the dsse 0.0.1 entry the log writes
	"github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
)

// rekorDSSEBody is the canonical body rekor's own dsse type writes for an
// upload of envJSON signed with sig by leaf's key: read back and written
// again, as Rekor stores what it read of the upload. It is the oracle
// dsseBody is held to.
func rekorDSSEBody(t *testing.T, leafPEM, envJSON, sig []byte) []byte {
	t.Helper()
	ctx := context.Background()
	props := types.ArtifactProperties{ArtifactBytes: envJSON, SignatureBytes: sig, PublicKeyBytes: [][]byte{leafPEM}, PKIFormat: "x509"}
	proposed, err := types.NewProposedEntry(ctx, rekordsse.KIND, "0.0.1", props)
	if err != nil {
		t.Fatal(err)
	}
	impl, err := types.CreateVersionedEntry(proposed)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := types.CanonicalizeEntry(ctx, impl)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := models.UnmarshalProposedEntry(bytes.NewReader(canon), runtime.JSONConsumer())
	if err != nil {
		t.Fatal(err)
	}
	impl, err = types.UnmarshalEntry(stored)
	if err != nil {
		t.Fatal(err)
	}
	body, err := impl.Canonicalize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// TestTheLogWritesWhatRekorWrites: the sandbox log's dsse body is byte for
// byte the body rekor's own dsse type makes of the same upload, and its
// checkpoint reads and verifies as rekor's signed checkpoint.
func TestTheLogWritesWhatRekorWrites(t *testing.T) {
	t.Parallel()
	s, err := New(time.Now)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf, err := s.leaf(Claims{Repository: "o/r", WorkflowPath: ".github/workflows/w.yml", Ref: "refs/heads/main", Event: "push"}, &key.PublicKey, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	env, sig, err := signEnvelope(key, []byte(`{"_type":"https://in-toto.io/Statement/v1"}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := dsseBody(leaf, env, sig)
	if err != nil {
		t.Fatal(err)
	}
	envJSON, _ := json.Marshal(env)
	leafPEM, _ := cryptoutils.MarshalCertificateToPEM(leaf)
	if want := rekorDSSEBody(t, leafPEM, envJSON, sig); !bytes.Equal(got, want) {
		t.Fatalf("the log's body differs from rekor's:\n got %s\nwant %s", got, want)
	}

	leafHash := sha256.Sum256(append([]byte{0}, got...))
	proof, err := s.log.inclusionProof(got, 0)
	if err != nil {
		t.Fatal(err)
	}
	var sc util.SignedCheckpoint
	if err := sc.UnmarshalText([]byte(proof.Checkpoint.Envelope)); err != nil {
		t.Fatalf("rekor does not read the checkpoint: %v\n%s", err, proof.Checkpoint.Envelope)
	}
	v, err := signature.LoadECDSAVerifier(&s.log.key.PublicKey, crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Verify(v) || !bytes.Equal(sc.Hash, leafHash[:]) || sc.Size != 1 || sc.Origin != logHost+" - 123" {
		t.Fatalf("rekor does not verify the checkpoint over the leaf: %+v", sc.Checkpoint)
	}
}
