package sigstore

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
)

// Certificate is what a Fulcio certificate says of its signer: the SAN and
// the claims Fulcio copied from the OIDC token as extensions under
// 1.3.6.1.4.1.57264.1, read as sigstore-go's certificate.Summary reads
// them (the same field names).
type Certificate struct {
	CertificateIssuer      string // the issuing CA's name
	SubjectAlternativeName string // the first URI, else e-mail address

	Issuer                              string // 1.1 (raw) or 1.8 (DER), the later one in the certificate wins
	GithubWorkflowTrigger               string // 1.2
	GithubWorkflowSHA                   string // 1.3
	GithubWorkflowName                  string // 1.4
	GithubWorkflowRepository            string // 1.5
	GithubWorkflowRef                   string // 1.6
	BuildSignerURI                      string // 1.9
	BuildSignerDigest                   string // 1.10
	RunnerEnvironment                   string // 1.11
	SourceRepositoryURI                 string // 1.12
	SourceRepositoryDigest              string // 1.13
	SourceRepositoryRef                 string // 1.14
	SourceRepositoryIdentifier          string // 1.15
	SourceRepositoryOwnerURI            string // 1.16
	SourceRepositoryOwnerIdentifier     string // 1.17
	BuildConfigURI                      string // 1.18
	BuildConfigDigest                   string // 1.19
	BuildTrigger                        string // 1.20
	RunInvocationURI                    string // 1.21
	SourceRepositoryVisibilityAtSigning string // 1.22
}

// fulcioArc is 1.3.6.1.4.1.57264.1, under which Fulcio's extensions sit.
var fulcioArc = [...]int{1, 3, 6, 1, 4, 1, 57264, 1}

// Summarize reads a Fulcio certificate's SAN and extensions. A DER
// extension that is not one string, and a certificate with no URI or
// e-mail SAN, are refused, as sigstore-go refuses them.
func Summarize(c *x509.Certificate) (Certificate, error) {
	s := Certificate{CertificateIssuer: c.Issuer.String()}
	for _, e := range c.Extensions {
		if err := s.read(e); err != nil {
			return Certificate{}, err
		}
	}
	switch {
	case len(c.URIs) > 0:
		s.SubjectAlternativeName = c.URIs[0].String()
	case len(c.EmailAddresses) > 0:
		s.SubjectAlternativeName = c.EmailAddresses[0]
	}
	if s.SubjectAlternativeName == "" {
		// Fulcio's OtherName SAN (a username) is not a workflow's; no
		// certificate aayu takes has one.
		return Certificate{}, errors.New("no Subject Alternative Name found")
	}
	return s, nil
}

func (s *Certificate) read(e pkix.Extension) error {
	id := e.Id
	if len(id) != len(fulcioArc)+1 {
		return nil
	}
	for i, v := range fulcioArc {
		if id[i] != v {
			return nil
		}
	}
	raw := map[int]*string{1: &s.Issuer, 2: &s.GithubWorkflowTrigger, 3: &s.GithubWorkflowSHA, 4: &s.GithubWorkflowName,
		5: &s.GithubWorkflowRepository, 6: &s.GithubWorkflowRef}
	der := map[int]*string{8: &s.Issuer, 9: &s.BuildSignerURI, 10: &s.BuildSignerDigest, 11: &s.RunnerEnvironment,
		12: &s.SourceRepositoryURI, 13: &s.SourceRepositoryDigest, 14: &s.SourceRepositoryRef, 15: &s.SourceRepositoryIdentifier,
		16: &s.SourceRepositoryOwnerURI, 17: &s.SourceRepositoryOwnerIdentifier, 18: &s.BuildConfigURI, 19: &s.BuildConfigDigest,
		20: &s.BuildTrigger, 21: &s.RunInvocationURI, 22: &s.SourceRepositoryVisibilityAtSigning}
	n := id[len(id)-1]
	if p, ok := raw[n]; ok {
		*p = string(e.Value)
		return nil
	}
	if p, ok := der[n]; ok {
		rest, err := asn1.Unmarshal(e.Value, p)
		if err != nil {
			return fmt.Errorf("unexpected error unmarshalling DER-encoded string: %v", err)
		}
		if len(rest) != 0 {
			return errors.New("unexpected trailing bytes in DER-encoded string")
		}
	}
	return nil
}
