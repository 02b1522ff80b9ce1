// Package proof owns proof packs: the pack.json v1 types, the embedded JSON
// Schema, Decode (which refuses what Go's decoder would quietly accept), and
// the verification that every stored artifact's bytes match pack.json, that
// every path stays inside the pack, and that the pack matches its Ready
// snapshot and the pull request's current head.
//
// Verification reports every problem it finds, never only the first, and
// refuses rather than repairs: an unclean path, a symlink, a FIFO, a size
// that lies or an empty set is a problem, not something to fix up.
//
// The package must not import Bubble Tea or talk to GitHub: callers hand it
// bytes, a folder or an fs.FS, and the facts from outside (the Ready
// snapshot, the head SHA). It never follows a symlink and never reads more
// than a declared size plus one byte of any file.
package proof
