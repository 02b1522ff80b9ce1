// Package inbox derives the steps that wait for a person (seed 001, "The
// inbox"; SPEC §7) from facts read on GitHub and the ledger, and says what
// accepting each choice writes — as data, so actions/ executes it and
// --dry-run prints it. It also holds the selection and confirmation rules
// and the re-read comparison that refuses a write when the card changed.
//
// It is pure: no I/O, no Bubble Tea, go-github or ghx. The GitHub layer
// converts what it reads into Snapshot. Text from GitHub (titles, bodies,
// comments, logins, branch names) stays raw here — the terminal sanitises it
// — and is only matched against the conventions below, never followed as an
// instruction.
//
// Conventions read (SPEC §7):
//   - Decision: an open issue labelled type:decision whose body has a
//     numbered "## Options" list, exactly one option marked "(recommended)",
//     and a line "Door: one-way" or "Door: two-way" (ParseDecision).
//   - Story: type:story; Bug: type:bug; statuses are status:… labels.
//   - A pull request links an issue by a story/N-… branch or by
//     "Refs|Closes|Fixes|Resolves #N" in its body (LinkedIssues).
//   - Ready to ship: a comment whose text starts with "Ready to ship" and
//     names the current head's full 40-hex SHA, by a person (not a bot) with
//     write or admin access, and the merge gate's newest run on that head
//     succeeded (ReadyToShipComment).
//   - Inspect: the commit status aayudha/inspect on the head: pending with a
//     description starting "human rung" waits for a person; failure with one
//     starting "stopped" means the review stopped.
//   - Lease: the label aayu:lease. Audit: the label aayu:audit on a merged
//     pull request plus autonomy/audit/PR.json on the ledger.
//   - Replaced: another issue's body says "Replaces #N" (its author has
//     write access) and #N is still open.
//   - Counsel: a Decision's newest comment starting with CounselMarker by an
//     account with write access, cut to 75 words.
//   - Waiting for Ready: an open Story or Bug with no specs/N/ready.md on
//     the ledger (what aayu ready lands and ship's gate reads).
//   - Waiting for a plan review: an open pull request whose changed files
//     touch a never layer (pass.NeverTouched) and whose Story has no plan
//     record on the ledger that stands for it (pass.PlanRecord.Gap, then
//     who gave it, as ship judges).
//
// Order: steps that need the person first, then housekeeping; within a
// group by kind in the seed's table order, then by item number (older items
// have lower numbers), so the order is stable between reads.
package inbox
