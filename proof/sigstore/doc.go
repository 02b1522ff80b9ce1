// Package sigstore is aayu's own Sigstore verifier, on the standard
// library: it reads a Sigstore bundle (v0.1 to v0.3 JSON) and a
// trusted_root.json, and checks what sigstore-go's verifier checks of the
// bundles GitHub's attestations API returns, with the options aayu asks
// for: the DSSE envelope's one signature by the leaf certificate's key,
// the certificate's chain to a certificate authority of the trusted root
// at a verified time (code signing), and that time itself, from the
// transparency log (the entry's body names this envelope and certificate,
// the log's signed promise over it, its inclusion proof up to a checkpoint
// the log signed) or, for GitHub's own Sigstore that logs nothing, from an
// RFC 3161 timestamp of a timestamp authority of the trusted root.
//
// It exists so the aayu binary does not link sigstore-go: sigstore-go's
// dependencies (rekor's generated models, go-openapi, govalidator,
// protobuf registrations, rekor-tiles and grpc) ran their package inits
// on every start of aayu, `aayu hook` included. sigstore-go stays as the
// oracle of this package's tests, which check both agree on every bundle
// the sandbox makes and on hostile edits of them.
//
// What a verified bundle says (the certificate's Fulcio claims, the
// envelope's payload) is returned, never judged: proof/attest holds it to
// the workflow and the pack it expects.
package sigstore
