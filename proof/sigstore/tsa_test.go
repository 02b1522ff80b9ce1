package sigstore_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/digitorus/timestamp"
)

// testTSA is an RFC 3161 timestamp authority as GitHub's own Sigstore
// runs one: a root and a leaf whose one, critical, extended key usage is
// time stamping. digitorus/timestamp, which sigstore-go reads timestamps
// with, writes its responses.
type testTSA struct {
	root, leaf *x509.Certificate
	key        *ecdsa.PrivateKey
}

func newTestTSA(t *testing.T, criticalEKU bool) *testTSA {
	t.Helper()
	rootKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	start, end := time.Now().Add(-48*time.Hour), time.Now().AddDate(1, 0, 0)
	rootTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test tsa root"}, NotBefore: start, NotAfter: end,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	rootDER, err := x509.CreateCertificate(rand.Reader, rootTmpl, rootTmpl, &rootKey.PublicKey, rootKey)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := x509.ParseCertificate(rootDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	eku, _ := asn1.Marshal([]asn1.ObjectIdentifier{{1, 3, 6, 1, 5, 5, 7, 3, 8}})
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "test tsa"}, NotBefore: start, NotAfter: end,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtraExtensions: []pkix.Extension{{Id: asn1.ObjectIdentifier{2, 5, 29, 37}, Critical: criticalEKU, Value: eku}}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, root, &key.PublicKey, rootKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(leafDER)
	return &testTSA{root: root, leaf: leaf, key: key}
}

// stamp is the authority's TimeStampResp over msg's SHA-256 at at.
func (a *testTSA) stamp(t *testing.T, msg []byte, at time.Time) []byte {
	t.Helper()
	sum := sha256.Sum256(msg)
	ts := timestamp.Timestamp{HashAlgorithm: crypto.SHA256, HashedMessage: sum[:], Time: at, Policy: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 2},
		AddTSACertificate: true}
	r, err := ts.CreateResponseWithOpts(a.leaf, a.key, crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// trusting is trustedJSON with the authority added as a timestamp
// authority.
func (a *testTSA) trusting(t *testing.T, trustedJSON []byte) []byte {
	t.Helper()
	var tr map[string]any
	if err := json.Unmarshal(trustedJSON, &tr); err != nil {
		t.Fatal(err)
	}
	tr["timestampAuthorities"] = []any{map[string]any{
		"subject": map[string]any{"organization": "test", "commonName": "test tsa"}, "uri": "https://tsa.test",
		"certChain": map[string]any{"certificates": []any{
			map[string]any{"rawBytes": base64.StdEncoding.EncodeToString(a.leaf.Raw)},
			map[string]any{"rawBytes": base64.StdEncoding.EncodeToString(a.root.Raw)},
		}},
		"validFor": map[string]any{"start": a.root.NotBefore.UTC().Format(time.RFC3339)},
	}}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTimestampedBundlesAgreeWithSigstoreGo: a bundle as GitHub's own
// Sigstore makes them for private repositories (no log entry, an RFC 3161
// timestamp over the signature) verifies under both verifiers when its
// timestamp is the trusted authority's over this signature while the
// certificate was valid, and each hostile variant is refused by both.
func TestTimestampedBundlesAgreeWithSigstoreGo(t *testing.T) {
	t.Parallel()
	own, _ := sandboxFixture(t, nil, `{"a":1}`)
	tsa, stranger, loose := newTestTSA(t, true), newTestTSA(t, true), newTestTSA(t, false)
	var tree map[string]any
	if err := json.Unmarshal(own.bundle, &tree); err != nil {
		t.Fatal(err)
	}
	sig, _ := base64.StdEncoding.DecodeString(obj(tree, "dsseEnvelope", "signatures", "0")["sig"].(string))
	now := time.Now()
	cases := []struct {
		name     string
		by       *testTSA
		over     []byte
		at       time.Time
		keepLog  bool
		trust    *testTSA
		verifies bool
		tamper   func(tsr []byte)
	}{
		{name: "the trusted authority's timestamp over this signature", by: tsa, over: sig, at: now, trust: tsa, verifies: true},
		{name: "a flipped byte of the authority's signature", by: tsa, over: sig, at: now, trust: tsa, tamper: func(r []byte) { r[len(r)-1] ^= 1 }},
		{name: "a wrong TSA imprint", by: tsa, over: []byte("another signature"), at: now, trust: tsa},
		{name: "another authority's timestamp", by: stranger, over: sig, at: now, trust: tsa},
		{name: "a timestamp after the certificate expired", by: tsa, over: sig, at: now.Add(time.Hour), trust: tsa},
		{name: "a timestamp before the certificate was issued", by: tsa, over: sig, at: now.Add(-time.Hour), trust: tsa},
		{name: "an authority whose usage is not critical", by: loose, over: sig, at: now, trust: loose},
		{name: "a logged bundle with a wrong timestamp besides", by: tsa, over: []byte("x"), at: now, keepLog: true, trust: tsa, verifies: true},
		{name: "a logged bundle whose timestamp falls after the certificate", by: tsa, over: sig, at: now.Add(time.Hour), keepLog: true, trust: tsa},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b map[string]any
			_ = json.Unmarshal(own.bundle, &b)
			vm := obj(b, "verificationMaterial")
			if !c.keepLog {
				delete(vm, "tlogEntries")
			}
			tsr := c.by.stamp(t, c.over, c.at)
			if c.tamper != nil {
				c.tamper(tsr)
			}
			vm["timestampVerificationData"] = map[string]any{"rfc3161Timestamps": []any{
				map[string]any{"signedTimestamp": base64.StdEncoding.EncodeToString(tsr)}}}
			bj, _ := json.Marshal(b)
			trusted := c.trust.trusting(t, own.trusted)
			want := oracle(trusted, bj)
			res, got := mine(trusted, bj)
			if (want == nil) != c.verifies {
				t.Fatalf("sigstore-go says %v; the case expects verifies=%v", want, c.verifies)
			}
			if (got == nil) != c.verifies {
				t.Fatalf("this package says %v; sigstore-go says %v", got, want)
			}
			if got == nil && !c.keepLog && (res.LogIndex != nil || len(res.Timestamps) != 1 || !res.Timestamps[0].Equal(c.at.Truncate(time.Second))) {
				t.Errorf("the verified times are %v (log index %v), not the timestamp's %v", res.Timestamps, res.LogIndex, c.at)
			}
		})
	}
}
