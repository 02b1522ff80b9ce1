// Package ledgerpack reads and writes proof packs on the ledger branch.
//
// Reading: Find lists a story's packs under proof/STORY/HEAD/{authoritative,
// advisory}/ and picks the best one — the newest authoritative pack, else
// the newest advisory one (SPEC §4). "Newest" is the pack's own created_at;
// a pack whose pack.json cannot be read or whose created_at does not parse
// ranks below every dated one of its kind, and a tie (the same second) goes
// to the head folder whose name sorts last. The ledger commit that landed a
// pack would be a finer tie-break, but reading it costs a history walk per
// pack through the API and the two seldom disagree. Load fetches the chosen
// pack into a fresh folder in the pack-folder layout (pack.json beside
// artifacts/P), with the story's Ready snapshot and its pull request's
// current head, so proof.VerifyDir can check it like any other pack.
//
// GateArtifact finds the merge gate's newest run for a pull request's head
// and unpacks its aayudha-pack artifact with proof.ExtractPackZip.
//
// Writing: PushAdvisory (the seed's `aayu proof push`) lands a local pack on
// the ledger as advisory in one Git Data API commit, media refused without
// a bucket (with a MediaStore, media are copied there first and the ledger
// copy names each object), never under --ci, no commit when the ledger
// already holds the same files, and keeps its own comment on the pull request
// (a marker distinct from the merge gate's, so a preview never replaces the
// gate's comment).
//
// It must not import Bubble Tea, land an authoritative pack (only ship
// does), force a branch, or read more from the ledger than its caps allow.
package ledgerpack
