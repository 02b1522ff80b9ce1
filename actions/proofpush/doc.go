// Package proofpush is `aayu proof push STORY [--media]`: it lands the
// local pack .aayudha/proof/STORY/ (as aayu verify builds it) on the ledger
// as an advisory pack through the one ledger writer (ledgerpack.PushAdvisory),
// which also keeps the push's own pull request comment, and with --media
// copies the pack's media to the private bucket [proof] media names
// (s3://, r2://, gs:// or azblob://) through mediastore.
//
// Every refusal comes before anything is written: --ci, no local pack, a
// pack for another story, --media without a bucket (proof.ErrMediaRefused),
// a bucket without a credential, and a pack whose bytes do not hold up.
//
// It must not import Bubble Tea, land an authoritative pack, or print a
// credential.
package proofpush
