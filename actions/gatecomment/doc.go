// Package gatecomment is the merge gate's one comment on a pull request
// (`aayu comment PR --ci`, the seed's `proof comment`): it verifies the
// pack folder the gate built against the ledger's Ready snapshot and the
// pull request's current head — by ship's rules: the base branch's
// [verify] required_floors and the story's evidence map at the head —
// renders each Ready criterion's verdict, every
// floor with its value and threshold, how many files and bytes were
// hashed, the SHA-256 of pack.json, who signed pack.json — only after the
// bundle under its digest verified as ship verifies it (attestation.go),
// else that it is unattested and why — and links to
// the run and its artifact, and keeps exactly one such comment on the pull
// request — found again by a hidden marker line written by the same account,
// updated in place, never duplicated. Its exit code is the gate's verdict:
// 4 when the pack does not verify, 3 when a floor does not hold.
//
// Upsert, the find-by-marker-then-update-or-create step, is shared with the
// advisory push (package ledgerpack), whose comment carries a marker of its
// own so an agent's preview never replaces the gate's comment.
//
// It must not write to the ledger (the gate uses only the workflow token and
// lands nothing), import Bubble Tea, or let untrusted text — check details,
// criterion text, tool names — carry control characters, HTML or Markdown
// structure into the comment.
package gatecomment
