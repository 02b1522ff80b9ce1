// Package actions holds aayu's background commands that write: the write
// queue (two at a time, never two on one pull request or issue; it decides
// which write may start and runs none itself, so the screen that keeps it
// runs each write as a command), the Executor that carries out an accepted
// inbox choice, and the actions log.
//
// The Executor re-reads the item before the first write (through an
// injected RereadFunc) and writes nothing when anything the card showed
// changed. It then makes each inbox.Write in order through go-github,
// checking before each one whether it already happened (the same comment
// by the person, the label there or gone, the issue closed, the approval
// of that head, the ledger file or sample, the revert pull request found
// by its branch), so pressing Enter again after a failure never doubles
// anything. A write that may have landed (ghx.ErrMayHaveLanded) is looked
// for on GitHub before anything is said about it. Ledger writes go through
// the Git Data API on the ledger branch, never forced: fixed contents via
// ghx.CommitFiles, appends through a helper here that re-reads the file on
// every attempt so another writer's line is never overwritten.
//
// Failures come back in the seed's three plain lines (what happened,
// whether anything changed on GitHub, who acts next), with GitHub's answer,
// the request and the commit kept in Details for d and the quit log.
//
// Logging: every executed request appends one Record (done, failed,
// changed, refused) with its writes in words. A dry run is never logged:
// it reads and writes nothing, and the log records only what was tried on
// GitHub.
//
// It must not import Bubble Tea or print, decide which steps wait or what
// accepting writes (model/inbox does), read the inbox itself (the caller
// injects the re-read), or keep package-level mutable state.
package actions
