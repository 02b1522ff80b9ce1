// Package pack is the pack screen: it verifies a proof pack folder in the
// background and shows, to the byte, whether the pack proves what it claims:
// criteria with their verdicts, artifacts with theirs, the floors as a table,
// every problem in words, and the SHA-256 of pack.json.
//
// New shows a local folder (`aayu pack DIR --ready FILE --head SHA`).
// NewStory shows a story (`aayu pack STORY`): its best pack on the ledger
// (newest authoritative, else newest advisory), verified against the
// ledger's Ready snapshot and the pull request's current head, with keys to
// switch to the local pack (l), the merge gate's run artifact (g) and back
// (b), and to push the local pack as advisory (p, asked once, refused under
// --ci). StoryFromLedger builds NewStory's options from a GitHub client
// through package ledgerpack.
//
// It does no I/O in Update; reading GitHub, verification, pushes and
// artifact reads run as tea.Cmds into the core packages.
package pack
