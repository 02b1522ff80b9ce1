// Package vsigstore is the sandbox's Sigstore: a certificate authority that
// issues certificates carrying GitHub Actions' OIDC claims, as Fulcio does
// for a workflow run, and a transparency log (tlog.go), both virtual, so a
// gate run on the sandbox attests its pack the way actions/attest does on
// GitHub and aayu verifies it with the same code.
//
// Its keys live only in memory: a restarted sandbox signs with a new root,
// and bundles made before the restart no longer verify against it. Only
// code talking to this sandbox is handed TrustedMaterial; nothing in aayu
// trusts it otherwise.
package vsigstore

import (
	"cmp"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"sync"
	"time"

	"github.com/aayudha/aayu/proof/sigstore"
)

// GitHub Actions' OIDC issuer, as Fulcio writes it into a workflow's
// certificate.
const ActionsIssuer = "https://token.actions.githubusercontent.com"

// InTotoPayloadType is the DSSE payload type of an in-toto Statement.
const InTotoPayloadType = "application/vnd.in-toto+json"

// Claims are the facts of one workflow run that GitHub's OIDC token carries
// and Fulcio copies into the certificate.
type Claims struct {
	ServerURL  string // https://github.com
	Repository string // OWNER/REPO
	// WorkflowRepository is the repository holding the workflow file when
	// the run called a reusable workflow of another repository; "" is
	// Repository. Fulcio's SAN names the workflow file, the source
	// repository names Repository.
	WorkflowRepository string
	RepositoryID       int64
	OwnerID            int64
	WorkflowPath       string // .github/workflows/aayudha-merge-gate.yml
	Ref                string // the ref the workflow file was read at: refs/heads/BASE for pull_request_target
	SHA                string // the commit the workflow file was read at
	Event              string // pull_request_target
	RunID              int64
	RunAttempt         int
	Visibility         string // public or private
	// Issuer is the OIDC issuer Fulcio writes; "" is GitHub Actions'. A
	// test sets another to stand for a certificate some other identity
	// provider's token got.
	Issuer string
}

func (c Claims) server() string {
	if c.ServerURL == "" {
		return "https://github.com"
	}
	return c.ServerURL
}

// WorkflowURI is the certificate's SAN for a workflow: Fulcio's build
// signer URI, https://github.com/OWNER/REPO/PATH@REF.
func (c Claims) WorkflowURI() string {
	return fmt.Sprintf("%s/%s/%s@%s", c.server(), cmp.Or(c.WorkflowRepository, c.Repository), c.WorkflowPath, c.Ref)
}

// Extensions are the Fulcio extensions GitHub Actions' certificates carry
// (the fields of sigstore.Certificate that are extensions).
func (c Claims) Extensions() sigstore.Certificate {
	repoURI := c.server() + "/" + c.Repository
	return sigstore.Certificate{
		Issuer:                              cmp.Or(c.Issuer, ActionsIssuer),
		GithubWorkflowTrigger:               c.Event,
		GithubWorkflowSHA:                   c.SHA,
		GithubWorkflowRepository:            c.Repository,
		GithubWorkflowRef:                   c.Ref,
		BuildSignerURI:                      c.WorkflowURI(),
		BuildSignerDigest:                   c.SHA,
		RunnerEnvironment:                   "github-hosted",
		SourceRepositoryURI:                 repoURI,
		SourceRepositoryDigest:              c.SHA,
		SourceRepositoryRef:                 c.Ref,
		SourceRepositoryIdentifier:          fmt.Sprint(c.RepositoryID),
		SourceRepositoryOwnerURI:            c.server() + "/" + ownerOf(c.Repository),
		SourceRepositoryOwnerIdentifier:     fmt.Sprint(c.OwnerID),
		BuildConfigURI:                      c.WorkflowURI(),
		BuildConfigDigest:                   c.SHA,
		BuildTrigger:                        c.Event,
		RunInvocationURI:                    fmt.Sprintf("%s/actions/runs/%d/attempts/%d", repoURI, c.RunID, max(c.RunAttempt, 1)),
		SourceRepositoryVisibilityAtSigning: c.Visibility,
	}
}

func ownerOf(repo string) string {
	for i := range len(repo) {
		if repo[i] == '/' {
			return repo[:i]
		}
	}
	return repo
}

// Sigstore is one virtual Sigstore: its CA, its log, and what verifies them.
type Sigstore struct {
	log       *vlog // the transparency log
	root      *x509.Certificate
	interm    *x509.Certificate
	intermKey *ecdsa.PrivateKey
	trusted   *sigstore.TrustedRoot
	now       func() time.Time

	mu     sync.Mutex
	serial int64
}

// New makes a virtual Sigstore whose roots stay valid for years, so a
// long-running sandbox keeps signing.
func New(now func() time.Time) (*Sigstore, error) {
	if now == nil {
		now = time.Now
	}
	log, err := newVlog()
	if err != nil {
		return nil, fmt.Errorf("starting the virtual Sigstore: %w", err)
	}
	s := &Sigstore{log: log, now: now}
	start, end := now().Add(-24*time.Hour), now().AddDate(10, 0, 0)
	rootKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	rootTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sandbox-sigstore", Organization: []string{"aayu sandbox"}},
		NotBefore: start, NotAfter: end, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign, BasicConstraintsValid: true, IsCA: true}
	if s.root, err = makeCert(rootTmpl, rootTmpl, &rootKey.PublicKey, rootKey); err != nil {
		return nil, err
	}
	if s.intermKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return nil, err
	}
	intermTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "sandbox-sigstore-intermediate", Organization: []string{"aayu sandbox"}},
		NotBefore: start, NotAfter: end, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}, BasicConstraintsValid: true, IsCA: true}
	if s.interm, err = makeCert(intermTmpl, s.root, &s.intermKey.PublicKey, rootKey); err != nil {
		return nil, err
	}
	fulcio := sigstore.CertificateAuthority{Root: s.root, Intermediates: []*x509.Certificate{s.interm},
		Start: start, End: end, URI: "https://fulcio.sandbox.invalid"}
	// A trusted_root.json holds the log's raw key ID; the map is keyed by
	// its hex spelling, as a verifier looks a log up.
	s.trusted = &sigstore.TrustedRoot{CertificateAuthorities: []sigstore.CertificateAuthority{fulcio},
		Logs: map[string]*sigstore.TransparencyLog{log.id: log.transparencyLog(start, end)}}
	return s, nil
}

// TrustedRoot is what verifies this Sigstore's bundles (and nothing else's).
func (s *Sigstore) TrustedRoot() *sigstore.TrustedRoot { return s.trusted }

// TrustedRootJSON is TrustedRoot in Sigstore's trusted_root.json format,
// what `gh attestation verify --custom-trusted-root` and cosign read.
func (s *Sigstore) TrustedRootJSON() ([]byte, error) { return s.trusted.MarshalJSON() }

// Attest signs an in-toto Statement as a workflow run with claims would
// through actions/attest: a fresh key, a certificate for it naming the
// workflow, a DSSE envelope, an entry in the log. It returns the Sigstore
// bundle (v0.3, JSON).
func (s *Sigstore) Attest(statement []byte, c Claims) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := s.now()
	leaf, err := s.leaf(c, &key.PublicKey, now)
	if err != nil {
		return nil, err
	}
	env, sig, err := signEnvelope(key, statement)
	if err != nil {
		return nil, err
	}
	tle, err := s.log.entry(leaf, env, sig, now.Unix())
	if err != nil {
		return nil, fmt.Errorf("logging the signature: %w", err)
	}
	b := sigstore.Bundle{
		MediaType: sigstore.BundleMediaType,
		VerificationMaterial: &sigstore.VerificationMaterial{
			Certificate: &sigstore.RawCertificate{RawBytes: leaf.Raw},
			TlogEntries: []sigstore.TlogEntry{*tle},
		},
		DSSEEnvelope: &sigstore.Envelope{Payload: statement, PayloadType: InTotoPayloadType, Signatures: []sigstore.Signature{{Sig: sig}}},
	}
	return json.Marshal(b)
}

// leaf is the certificate Fulcio would issue for the run: the workflow's
// URI as SAN, GitHub's issuer, every claim as a Fulcio extension, valid
// for ten minutes.
func (s *Sigstore) leaf(c Claims, pub crypto.PublicKey, now time.Time) (*x509.Certificate, error) {
	exts, err := marshalExtensions(c.Extensions())
	if err != nil {
		return nil, err
	}
	san, err := url.Parse(c.WorkflowURI())
	if err != nil {
		return nil, fmt.Errorf("the workflow's URI %q: %w", c.WorkflowURI(), err)
	}
	s.mu.Lock()
	s.serial++
	serial := s.serial + 100
	s.mu.Unlock()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), NotBefore: now.Add(-time.Minute), NotAfter: now.Add(10 * time.Minute),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		URIs: []*url.URL{san}, ExtraExtensions: exts}
	return makeCert(tmpl, s.interm, pub, s.intermKey)
}

// marshalExtensions writes the claims as Fulcio does: the first,
// deprecated extensions (1.1–1.6) as raw strings, the later ones as DER
// UTF8Strings.
func marshalExtensions(e sigstore.Certificate) ([]pkix.Extension, error) {
	var out []pkix.Extension
	raw := func(id asn1.ObjectIdentifier, v string) {
		if v != "" {
			out = append(out, pkix.Extension{Id: id, Value: []byte(v)})
		}
	}
	var err error
	der := func(id asn1.ObjectIdentifier, v string) {
		if v == "" || err != nil {
			return
		}
		var b []byte
		if b, err = asn1.MarshalWithParams(v, "utf8"); err == nil {
			out = append(out, pkix.Extension{Id: id, Value: b})
		}
	}
	// Fulcio still writes 1.1–1.6 for older verifiers.
	raw(fulcioOID(1), e.Issuer)
	raw(fulcioOID(2), e.GithubWorkflowTrigger)
	raw(fulcioOID(3), e.GithubWorkflowSHA)
	raw(fulcioOID(5), e.GithubWorkflowRepository)
	raw(fulcioOID(6), e.GithubWorkflowRef)
	der(fulcioOID(8), e.Issuer)
	der(fulcioOID(9), e.BuildSignerURI)
	der(fulcioOID(10), e.BuildSignerDigest)
	der(fulcioOID(11), e.RunnerEnvironment)
	der(fulcioOID(12), e.SourceRepositoryURI)
	der(fulcioOID(13), e.SourceRepositoryDigest)
	der(fulcioOID(14), e.SourceRepositoryRef)
	der(fulcioOID(15), e.SourceRepositoryIdentifier)
	der(fulcioOID(16), e.SourceRepositoryOwnerURI)
	der(fulcioOID(17), e.SourceRepositoryOwnerIdentifier)
	der(fulcioOID(18), e.BuildConfigURI)
	der(fulcioOID(19), e.BuildConfigDigest)
	der(fulcioOID(20), e.BuildTrigger)
	der(fulcioOID(21), e.RunInvocationURI)
	der(fulcioOID(22), e.SourceRepositoryVisibilityAtSigning)
	return out, err
}

// fulcioOID is Fulcio's extension 1.3.6.1.4.1.57264.1.n.
func fulcioOID(n int) asn1.ObjectIdentifier {
	return asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, n}
}

func makeCert(tmpl, parent *x509.Certificate, pub crypto.PublicKey, priv crypto.Signer) (*x509.Certificate, error) {
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, priv)
	if err != nil {
		return nil, fmt.Errorf("issuing a certificate: %w", err)
	}
	return x509.ParseCertificate(der)
}
