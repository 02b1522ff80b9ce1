// Package ship is the core of `aayu ship PR` (SPEC §5, seeds 000 and 001):
// every gate checked in a fixed order — the pull request and its head, the
// base branch's policy and no looser local value, the merge gate's own pack
// for exactly this head (gatePack), the human pass, the presence check, the
// Solo-mode bypass comment — then the squash merge and the record landed on
// the ledger under the person's identity.
//
// It reports each gate as an Event so a screen can fill in one line per gate,
// and a Result the screen maps to an exit code. A run after a crash finishes
// the record without merging twice.
//
// It must not import Bubble Tea or draw anything; it decides nothing the
// model packages decide (the pass rule, identity, verification) but gathers
// their facts from GitHub and acts on their answers. It never writes before
// every check has passed, with one exception: a ship refused only for the
// human pass, on a pull request linking an open Story, posts the person's
// "Ready to ship" comment for the head (once per head, never with --ci), so
// the inbox shows it ready to ship. Nothing else changes on GitHub.
//
// An agent lane's ship is a batch step (actions/approve): CheckOnly runs
// the read-only gates for the batch and writes nothing, not even Ready to
// ship; an Approval, given only from an approved batch, stands in for the
// presence check and the yes, pinned to the head and base the batch
// showed, and ship.json records it as "presence" (approval.go).
package ship
