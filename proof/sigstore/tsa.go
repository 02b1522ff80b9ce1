package sigstore

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// An RFC 3161 timestamp, read with encoding/asn1: a TimeStampResp whose
// token is a CMS SignedData (RFC 5652) over a TSTInfo.

type tsResp struct {
	Status struct {
		Status       int
		StatusString []asn1.RawValue `asn1:"optional"`
		FailInfo     asn1.BitString  `asn1:"optional"`
	}
	TimeStampToken asn1.RawValue `asn1:"optional"`
}

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"optional,tag:0"` // [0] EXPLICIT: the element whose Bytes hold the content
}

type signedData struct {
	Version          int
	DigestAlgorithms []pkix.AlgorithmIdentifier `asn1:"set"`
	EncapContentInfo struct {
		EContentType asn1.ObjectIdentifier
		EContent     asn1.RawValue `asn1:"optional,tag:0"` // [0] EXPLICIT OCTET STRING
	}
	Certificates asn1.RawValue `asn1:"optional,tag:0"`
	CRLs         asn1.RawValue `asn1:"optional,tag:1"`
	SignerInfos  []signerInfo  `asn1:"set"`
}

type signerInfo struct {
	Version               int
	IssuerAndSerialNumber struct {
		Issuer       asn1.RawValue
		SerialNumber *big.Int
	}
	DigestAlgorithm           pkix.AlgorithmIdentifier
	SignedAttrs               asn1.RawValue `asn1:"optional,tag:0"`
	DigestEncryptionAlgorithm pkix.AlgorithmIdentifier
	Signature                 []byte
	UnsignedAttrs             asn1.RawValue `asn1:"optional,tag:1"`
}

type attribute struct {
	Type  asn1.ObjectIdentifier
	Value asn1.RawValue `asn1:"set"`
}

type tstInfo struct {
	Version        int
	Policy         asn1.ObjectIdentifier
	MessageImprint struct {
		HashAlgorithm pkix.AlgorithmIdentifier
		HashedMessage []byte
	}
	SerialNumber *big.Int
	GenTime      time.Time `asn1:"generalized"`
	Accuracy     struct {
		Seconds      int64 `asn1:"optional"`
		Milliseconds int64 `asn1:"optional,tag:0"`
		Microseconds int64 `asn1:"optional,tag:1"`
	} `asn1:"optional"`
	Ordering   bool             `asn1:"optional,default:false"`
	Nonce      *big.Int         `asn1:"optional"`
	TSA        asn1.RawValue    `asn1:"optional,tag:0"`
	Extensions []pkix.Extension `asn1:"optional,tag:1"`
}

var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidTSTInfo       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 1, 4}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSigningTime   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}
	oidEKU           = asn1.ObjectIdentifier{2, 5, 29, 37}
)

func hashByOID(oid asn1.ObjectIdentifier) crypto.Hash {
	switch {
	case oid.Equal(asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}):
		return crypto.SHA256
	case oid.Equal(asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}):
		return crypto.SHA384
	case oid.Equal(asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}):
		return crypto.SHA512
	}
	return 0 // SHA-1 and anything else: not taken
}

// signatureAlgorithm is the x509 algorithm of a SignerInfo: ECDSA named
// with its hash, or a key type (id-ecPublicKey, a curve, rsaEncryption or
// RSA with a hash) hashed with the digest algorithm.
func signatureAlgorithm(sig, digest asn1.ObjectIdentifier) (x509.SignatureAlgorithm, error) {
	ecdsaWith := map[string]x509.SignatureAlgorithm{"1.2.840.10045.4.3.2": x509.ECDSAWithSHA256, "1.2.840.10045.4.3.3": x509.ECDSAWithSHA384, "1.2.840.10045.4.3.4": x509.ECDSAWithSHA512}
	if a, ok := ecdsaWith[sig.String()]; ok {
		return a, nil
	}
	h := hashByOID(digest)
	switch sig.String() {
	case "1.2.840.10045.2.1", "1.2.840.10045.3.1.7", "1.3.132.0.34", "1.3.132.0.35":
		switch h {
		case crypto.SHA256:
			return x509.ECDSAWithSHA256, nil
		case crypto.SHA384:
			return x509.ECDSAWithSHA384, nil
		case crypto.SHA512:
			return x509.ECDSAWithSHA512, nil
		}
	case "1.2.840.113549.1.1.1", "1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12", "1.2.840.113549.1.1.13":
		switch h {
		case crypto.SHA256:
			return x509.SHA256WithRSA, nil
		case crypto.SHA384:
			return x509.SHA384WithRSA, nil
		case crypto.SHA512:
			return x509.SHA512WithRSA, nil
		}
	}
	return 0, fmt.Errorf("the timestamp's signature algorithm %s with digest %s is not one taken", sig, digest)
}

// verify checks tsr, an RFC 3161 TimeStampResp, is this authority's
// timestamp over sig (the hash in its message imprint is of sig), as
// sigstore-go checks one: a granted response, one signer whose signature
// over the signed attributes (whose message digest is the TSTInfo's hash)
// verifies, a signer certificate that chains to the authority's root at
// the timestamp's time for time stamping, is the authority's own when the
// trusted root names it, is no CA and has exactly one, critical, extended
// key usage (time stamping), and a time within the authority's validity.
func (tsa *TimestampAuthority) verify(tsr, sig []byte) (time.Time, error) {
	if tsa.Root == nil {
		return time.Time{}, fmt.Errorf("timestamping authority %s root certificate is nil", tsa.URI)
	}
	var resp tsResp
	if rest, err := asn1.Unmarshal(tsr, &resp); err != nil || len(rest) > 0 {
		return time.Time{}, errors.New("timestamp response is not valid")
	}
	if resp.Status.Status > 1 {
		return time.Time{}, fmt.Errorf("the timestamp authority refused (status %d)", resp.Status.Status)
	}
	if len(resp.TimeStampToken.Bytes) == 0 {
		return time.Time{}, errors.New("no pkcs7 data in Time-Stamp response")
	}
	var ci contentInfo
	if _, err := asn1.Unmarshal(resp.TimeStampToken.FullBytes, &ci); err != nil || !ci.ContentType.Equal(oidSignedData) {
		return time.Time{}, errors.New("the timestamp token is not CMS SignedData")
	}
	var sd signedData
	if rest, err := asn1.Unmarshal(ci.Content.Bytes, &sd); err != nil || len(rest) > 0 {
		return time.Time{}, errors.New("the timestamp token's SignedData does not read")
	}
	ec := sd.EncapContentInfo
	var content []byte
	if !ec.EContentType.Equal(oidTSTInfo) {
		return time.Time{}, errors.New("the timestamp token does not hold a TSTInfo")
	}
	if rest, err := asn1.Unmarshal(ec.EContent.Bytes, &content); err != nil || len(rest) > 0 {
		return time.Time{}, errors.New("the timestamp token's TSTInfo is not one OCTET STRING")
	}
	var certs []*x509.Certificate
	if len(sd.Certificates.Bytes) > 0 {
		var err error
		if certs, err = x509.ParseCertificates(sd.Certificates.Bytes); err != nil {
			return time.Time{}, fmt.Errorf("the timestamp token's certificates: %w", err)
		}
	}
	if len(certs) == 0 {
		if tsa.Leaf == nil {
			return time.Time{}, errors.New("leaf certificate must be present in the TSR or as a verify option")
		}
		certs = []*x509.Certificate{tsa.Leaf}
	}
	if len(sd.SignerInfos) != 1 {
		return time.Time{}, errors.New("signer certificate was not found")
	}
	si := sd.SignerInfos[0]
	var signer *x509.Certificate
	for _, c := range certs {
		if bytes.Equal(c.RawIssuer, si.IssuerAndSerialNumber.Issuer.FullBytes) && si.IssuerAndSerialNumber.SerialNumber != nil &&
			c.SerialNumber.Cmp(si.IssuerAndSerialNumber.SerialNumber) == 0 {
			signer = c
			break
		}
	}
	if signer == nil {
		return time.Time{}, errors.New("pkcs7: No certificate for signer")
	}
	if err := signerSignatureHolds(si, signer, content); err != nil {
		return time.Time{}, fmt.Errorf("error while verifying signature: %w", err)
	}
	var info tstInfo
	if _, err := asn1.Unmarshal(content, &info); err != nil {
		return time.Time{}, fmt.Errorf("the timestamp's TSTInfo: %w", err)
	}
	if len(info.MessageImprint.HashedMessage) == 0 {
		return time.Time{}, errors.New("Time-Stamp response contains no hashed message")
	}
	h := hashByOID(info.MessageImprint.HashAlgorithm.Algorithm)
	if h == 0 {
		return time.Time{}, errors.New("the timestamp's hash algorithm is not SHA-256, SHA-384 or SHA-512")
	}
	roots, inter := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(tsa.Root)
	for _, c := range tsa.Intermediates {
		inter.AddCert(c)
	}
	for _, c := range certs {
		inter.AddCert(c)
	}
	if tsa.Leaf != nil && !tsa.Leaf.Equal(signer) {
		return time.Time{}, errors.New("certificate embedded in the TSR does not match the provided TSA certificate")
	}
	chains, err := signer.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, CurrentTime: info.GenTime,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping}})
	if err != nil {
		return time.Time{}, fmt.Errorf("error while verifying signer certificate chain: %w", err)
	}
	if err := timestampingLeaf(signer, chains); err != nil {
		return time.Time{}, fmt.Errorf("failed to verify TSA certificate: %w", err)
	}
	d := h.New()
	d.Write(sig)
	if !bytes.Equal(d.Sum(nil), info.MessageImprint.HashedMessage) {
		return time.Time{}, errors.New("hashed messages don't match")
	}
	if (!tsa.Start.IsZero() && info.GenTime.Before(tsa.Start)) || (!tsa.End.IsZero() && info.GenTime.After(tsa.End)) {
		return time.Time{}, errors.New("timestamp is outside the timestamp authority's validity period")
	}
	return info.GenTime, nil
}

// signerSignatureHolds checks the SignerInfo's signature: over its signed
// attributes (DER, as a SET) whose message digest is the content's hash,
// or with none, over the content itself. A signing time, when given, is
// within the signer certificate's validity.
func signerSignatureHolds(si signerInfo, signer *x509.Certificate, content []byte) error {
	alg, err := signatureAlgorithm(si.DigestEncryptionAlgorithm.Algorithm, si.DigestAlgorithm.Algorithm)
	if err != nil {
		return err
	}
	signed := content
	if len(si.SignedAttrs.FullBytes) > 0 {
		set := bytes.Clone(si.SignedAttrs.FullBytes)
		set[0] = 0x31 // [0] IMPLICIT becomes the SET the signature covers (RFC 5652 §5.4)
		var attrs []attribute
		if rest, err := asn1.UnmarshalWithParams(set, &attrs, "set"); err != nil || len(rest) > 0 {
			return errors.New("the timestamp's signed attributes do not read")
		}
		var digest []byte
		found := false
		for _, a := range attrs {
			switch {
			case a.Type.Equal(oidMessageDigest):
				if _, err := asn1.Unmarshal(a.Value.Bytes, &digest); err != nil {
					return errors.New("the timestamp's message digest does not read")
				}
				found = true
			case a.Type.Equal(oidSigningTime):
				var t time.Time
				if _, err := asn1.Unmarshal(a.Value.Bytes, &t); err == nil && (t.After(signer.NotAfter) || t.Before(signer.NotBefore)) {
					return errors.New("pkcs7: signing time is outside of certificate validity")
				}
			}
		}
		h := hashByOID(si.DigestAlgorithm.Algorithm)
		if !found || h == 0 {
			return errors.New("the timestamp's signed attributes hold no message digest of a known hash")
		}
		d := h.New()
		d.Write(content)
		if !bytes.Equal(d.Sum(nil), digest) {
			return errors.New("pkcs7: message digest mismatch")
		}
		signed = set
	}
	return signer.CheckSignature(alg, signed, si.Signature)
}

// timestampingLeaf holds the TSA's signing certificate to RFC 3161 §2.3:
// an end entity whose one extended key usage, marked critical, is time
// stamping, under intermediates that allow time stamping.
func timestampingLeaf(c *x509.Certificate, chains [][]*x509.Certificate) error {
	if c.IsCA {
		return errors.New("TSA certificate must be an end-entity certificate, not a CA")
	}
	critical := false
	for _, e := range c.Extensions {
		if e.Id.Equal(oidEKU) {
			critical = e.Critical
			break
		}
	}
	if !critical {
		return errors.New("certificate must set EKU to critical")
	}
	if len(c.ExtKeyUsage)+len(c.UnknownExtKeyUsage) != 1 || len(c.ExtKeyUsage) != 1 || c.ExtKeyUsage[0] != x509.ExtKeyUsageTimeStamping {
		return errors.New("leaf certificate EKU is not set to TimeStamping as required")
	}
	for _, chain := range chains {
		ok := true
		for _, inter := range chain[1 : len(chain)-1] {
			if len(inter.ExtKeyUsage) > 0 && !allowsTimestamping(inter) {
				ok = false
				break
			}
		}
		if ok {
			return nil
		}
	}
	return errors.New("no verified certificate chain met EKU requirements")
}

func allowsTimestamping(c *x509.Certificate) bool {
	for _, u := range c.ExtKeyUsage {
		if u == x509.ExtKeyUsageTimeStamping || u == x509.ExtKeyUsageAny {
			return true
		}
	}
	return false
}
