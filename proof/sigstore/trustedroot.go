package sigstore

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/aayudha/aayu/proof"
)

// TrustedRootMediaType is the trusted_root.json media type this package
// reads, the one sigstore-go reads.
const TrustedRootMediaType = "application/vnd.dev.sigstore.trustedroot+json;version=0.1"

// TrustedRoot is a trusted_root.json: the certificate authorities a
// signing certificate must chain to, the transparency logs whose entries
// count, and the timestamp authorities whose timestamps count.
type TrustedRoot struct {
	CertificateAuthorities []CertificateAuthority
	Logs                   map[string]*TransparencyLog // keyed by the log ID in hex
	TimestampAuthorities   []TimestampAuthority
	CTLogs                 map[string]*TransparencyLog // read for completeness; SCTs are not checked (as aayu never asked sigstore-go to)
}

// CertificateAuthority is a Fulcio: its root, the intermediates between the
// root and a leaf, and when it may have issued.
type CertificateAuthority struct {
	URI           string
	Root          *x509.Certificate
	Intermediates []*x509.Certificate
	Start, End    time.Time // zero: unbounded
}

// TimestampAuthority is an RFC 3161 timestamp authority: its signing
// certificate when the root names one, its chain, and when it signed.
type TimestampAuthority struct {
	URI           string
	Leaf          *x509.Certificate // nil: the timestamp carries its own
	Intermediates []*x509.Certificate
	Root          *x509.Certificate
	Start, End    time.Time
}

// TransparencyLog is a Rekor log: its key and when the key signed.
type TransparencyLog struct {
	BaseURL    string
	ID         []byte
	PublicKey  crypto.PublicKey
	Start, End time.Time // Start is required
}

// ReadTrustedRoot reads a trusted_root.json file.
func ReadTrustedRoot(path string) (*TrustedRoot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the trusted root: %w", err)
	}
	return ParseTrustedRoot(b)
}

type jsonTrustedRoot struct {
	MediaType              string          `json:"mediaType"`
	Tlogs                  []jsonLog       `json:"tlogs"`
	CertificateAuthorities []jsonAuthority `json:"certificateAuthorities"`
	Ctlogs                 []jsonLog       `json:"ctlogs"`
	TimestampAuthorities   []jsonAuthority `json:"timestampAuthorities"`
}

type jsonLog struct {
	BaseURL       string `json:"baseUrl"`
	HashAlgorithm string `json:"hashAlgorithm"`
	PublicKey     *struct {
		RawBytes   []byte        `json:"rawBytes"`
		KeyDetails string        `json:"keyDetails"`
		ValidFor   *jsonValidFor `json:"validFor"`
	} `json:"publicKey"`
	LogID *struct {
		KeyID []byte `json:"keyId"`
	} `json:"logId"`
	Operator string `json:"operator"`
}

type jsonValidFor struct {
	Start *time.Time `json:"start"`
	End   *time.Time `json:"end"`
}

type jsonAuthority struct {
	Subject *struct {
		Organization string `json:"organization"`
		CommonName   string `json:"commonName"`
	} `json:"subject"`
	URI       string `json:"uri"`
	CertChain *struct {
		Certificates []struct {
			RawBytes []byte `json:"rawBytes"`
		} `json:"certificates"`
	} `json:"certChain"`
	ValidFor *jsonValidFor `json:"validFor"`
	Operator string        `json:"operator"`
}

// ParseTrustedRoot reads trusted_root.json's bytes, refusing what
// sigstore-go refuses of one: another media type, a log hashed with other
// than SHA-256, a log without its ID, key or key's start, a key of a type
// it does not know, an authority without certificates.
func ParseTrustedRoot(b []byte) (*TrustedRoot, error) {
	if err := proof.CheckJSON(b, "the trusted root"); err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, errors.New("the trusted root is not valid UTF-8")
	}
	var j jsonTrustedRoot
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("the trusted root is not a trusted_root.json: %w", err)
	}
	if j.MediaType != TrustedRootMediaType {
		return nil, fmt.Errorf("the trusted root's media type %q is not %s", j.MediaType, TrustedRootMediaType)
	}
	tr := &TrustedRoot{}
	var err error
	if tr.Logs, err = parseLogs(j.Tlogs); err != nil {
		return nil, err
	}
	if tr.CTLogs, err = parseLogs(j.Ctlogs); err != nil {
		return nil, err
	}
	for _, a := range j.CertificateAuthorities {
		certs, err := parseChain(a)
		if err != nil {
			return nil, err
		}
		ca := CertificateAuthority{URI: a.URI, Root: certs[len(certs)-1], Intermediates: certs[:len(certs)-1]}
		ca.Start, ca.End = a.ValidFor.times()
		tr.CertificateAuthorities = append(tr.CertificateAuthorities, ca)
	}
	for _, a := range j.TimestampAuthorities {
		certs, err := parseChain(a)
		if err != nil {
			return nil, err
		}
		tsa := TimestampAuthority{URI: a.URI}
		for i, c := range certs {
			switch {
			case i == 0 && !c.IsCA:
				tsa.Leaf = c
			case i < len(certs)-1:
				tsa.Intermediates = append(tsa.Intermediates, c)
			default:
				tsa.Root = c
			}
		}
		tsa.Start, tsa.End = a.ValidFor.times()
		tr.TimestampAuthorities = append(tr.TimestampAuthorities, tsa)
	}
	return tr, nil
}

func (v *jsonValidFor) times() (start, end time.Time) {
	if v == nil {
		return
	}
	if v.Start != nil {
		start = *v.Start
	}
	if v.End != nil {
		end = *v.End
	}
	return
}

func parseChain(a jsonAuthority) ([]*x509.Certificate, error) {
	if a.CertChain == nil || len(a.CertChain.Certificates) == 0 {
		return nil, fmt.Errorf("the trusted root's authority %s has no certificates", a.URI)
	}
	var out []*x509.Certificate
	for _, c := range a.CertChain.Certificates {
		cert, err := x509.ParseCertificate(c.RawBytes)
		if err != nil {
			return nil, fmt.Errorf("the trusted root's authority %s: %w", a.URI, err)
		}
		out = append(out, cert)
	}
	return out, nil
}

func parseLogs(logs []jsonLog) (map[string]*TransparencyLog, error) {
	out := map[string]*TransparencyLog{}
	for _, l := range logs {
		if l.HashAlgorithm != "SHA2_256" {
			return nil, fmt.Errorf("the trusted root's log %s hashes with %q, not SHA2_256", l.BaseURL, l.HashAlgorithm)
		}
		if l.LogID == nil || l.LogID.KeyID == nil {
			return nil, fmt.Errorf("the trusted root's log %s has no log ID", l.BaseURL)
		}
		if l.PublicKey == nil || l.PublicKey.RawBytes == nil {
			return nil, fmt.Errorf("the trusted root's log %s has no public key", l.BaseURL)
		}
		key, err := parseLogKey(l.PublicKey.RawBytes, l.PublicKey.KeyDetails)
		if err != nil {
			return nil, fmt.Errorf("the trusted root's log %s: %w", l.BaseURL, err)
		}
		if l.PublicKey.ValidFor == nil || l.PublicKey.ValidFor.Start == nil {
			return nil, fmt.Errorf("the trusted root's log %s has no start to its key's validity", l.BaseURL)
		}
		t := &TransparencyLog{BaseURL: l.BaseURL, ID: l.LogID.KeyID, PublicKey: key}
		t.Start, t.End = l.PublicKey.ValidFor.times()
		out[hex.EncodeToString(l.LogID.KeyID)] = t
	}
	return out, nil
}

func parseLogKey(raw []byte, details string) (crypto.PublicKey, error) {
	if details == "PKCS1_RSA_PKCS1V5" {
		return x509.ParsePKCS1PublicKey(raw)
	}
	key, err := x509.ParsePKIXPublicKey(raw)
	if err != nil {
		return nil, err
	}
	var ok bool
	switch details {
	case "PKIX_ECDSA_P256_SHA_256", "PKIX_ECDSA_P384_SHA_384", "PKIX_ECDSA_P521_SHA_512":
		_, ok = key.(*ecdsa.PublicKey)
	case "PKIX_RSA_PKCS1V15_2048_SHA256", "PKIX_RSA_PKCS1V15_3072_SHA256", "PKIX_RSA_PKCS1V15_4096_SHA256":
		_, ok = key.(*rsa.PublicKey)
	case "PKIX_ED25519":
		_, ok = key.(ed25519.PublicKey)
	default:
		return nil, fmt.Errorf("its key type %q is not one sigstore knows", details)
	}
	if !ok {
		return nil, errors.New("its key is not of the type its key details name")
	}
	return key, nil
}

// MarshalJSON writes the trusted root as trusted_root.json, what
// ParseTrustedRoot, sigstore-go, cosign and `gh attestation verify
// --custom-trusted-root` read.
func (tr *TrustedRoot) MarshalJSON() ([]byte, error) {
	type raw struct {
		RawBytes []byte `json:"rawBytes"`
	}
	type validFor struct {
		Start *time.Time `json:"start,omitempty"`
		End   *time.Time `json:"end,omitempty"`
	}
	span := func(start, end time.Time) *validFor {
		v := &validFor{}
		if !start.IsZero() {
			s := start.UTC()
			v.Start = &s
		}
		if !end.IsZero() {
			e := end.UTC()
			v.End = &e
		}
		return v
	}
	type authority struct {
		URI       string `json:"uri,omitempty"`
		CertChain struct {
			Certificates []raw `json:"certificates"`
		} `json:"certChain"`
		ValidFor *validFor `json:"validFor,omitempty"`
	}
	type log struct {
		BaseURL       string `json:"baseUrl"`
		HashAlgorithm string `json:"hashAlgorithm"`
		PublicKey     struct {
			RawBytes   []byte    `json:"rawBytes"`
			KeyDetails string    `json:"keyDetails"`
			ValidFor   *validFor `json:"validFor"`
		} `json:"publicKey"`
		LogID struct {
			KeyID []byte `json:"keyId"`
		} `json:"logId"`
	}
	out := struct {
		MediaType              string      `json:"mediaType"`
		Tlogs                  []log       `json:"tlogs"`
		CertificateAuthorities []authority `json:"certificateAuthorities"`
		Ctlogs                 []log       `json:"ctlogs"`
		TimestampAuthorities   []authority `json:"timestampAuthorities"`
	}{MediaType: TrustedRootMediaType, Tlogs: []log{}, CertificateAuthorities: []authority{}, Ctlogs: []log{}, TimestampAuthorities: []authority{}}
	logs := func(m map[string]*TransparencyLog) ([]log, error) {
		var ls []log
		for _, id := range slices.Sorted(maps.Keys(m)) {
			t := m[id]
			der, err := x509.MarshalPKIXPublicKey(t.PublicKey)
			if err != nil {
				return nil, err
			}
			l := log{BaseURL: t.BaseURL, HashAlgorithm: "SHA2_256"}
			l.PublicKey.RawBytes, l.PublicKey.KeyDetails, l.PublicKey.ValidFor = der, keyDetails(t.PublicKey), span(t.Start, t.End)
			l.LogID.KeyID = t.ID
			ls = append(ls, l)
		}
		return ls, nil
	}
	var err error
	if out.Tlogs, err = logs(tr.Logs); err != nil {
		return nil, err
	}
	if out.Ctlogs, err = logs(tr.CTLogs); err != nil {
		return nil, err
	}
	chain := func(uri string, certs []*x509.Certificate, start, end time.Time) authority {
		a := authority{URI: uri, ValidFor: span(start, end)}
		for _, c := range certs {
			if c != nil {
				a.CertChain.Certificates = append(a.CertChain.Certificates, raw{c.Raw})
			}
		}
		return a
	}
	for _, ca := range tr.CertificateAuthorities {
		out.CertificateAuthorities = append(out.CertificateAuthorities, chain(ca.URI, append(slices.Clone(ca.Intermediates), ca.Root), ca.Start, ca.End))
	}
	for _, tsa := range tr.TimestampAuthorities {
		out.TimestampAuthorities = append(out.TimestampAuthorities, chain(tsa.URI, append(append([]*x509.Certificate{tsa.Leaf}, tsa.Intermediates...), tsa.Root), tsa.Start, tsa.End))
	}
	return json.Marshal(out)
}

func keyDetails(k crypto.PublicKey) string {
	switch k := k.(type) {
	case *ecdsa.PublicKey:
		switch k.Curve.Params().BitSize {
		case 384:
			return "PKIX_ECDSA_P384_SHA_384"
		case 521:
			return "PKIX_ECDSA_P521_SHA_512"
		}
		return "PKIX_ECDSA_P256_SHA_256"
	case *rsa.PublicKey:
		return "PKIX_RSA_PKCS1V15_2048_SHA256"
	case ed25519.PublicKey:
		return "PKIX_ED25519"
	}
	return ""
}
