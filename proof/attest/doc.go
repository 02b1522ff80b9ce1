// Package attest is the pack as signed provenance: pack.json as the
// predicate of an in-toto Statement v1 (statement.go), and the check that a
// Sigstore bundle from GitHub's attestations API is the merge gate's
// signature over exactly this pack (verify.go).
//
// The Statement is what an outside tool reads: `gh attestation verify`,
// cosign or slsa-verifier see subjects with digests and a predicate type,
// and need nothing of aayu. The check is what ship asks: a valid signature
// is not enough, the certificate must name the merge gate's workflow file
// at the pull request's base branch in this repository, run for
// pull_request_target, because that is what the seeds' threat model (T4)
// says the run record alone cannot show.
//
// The package takes its trusted root from its caller (GitHub's Sigstore
// roots, or the sandbox's virtual one); it keeps no state of its own.
package attest
