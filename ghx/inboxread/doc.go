// Package inboxread reads, from GitHub and the ledger, the facts the inbox
// judges (SPEC §7; seed 001, "The inbox") and hands them to model/inbox as an
// inbox.Snapshot. It owns:
//
//   - Read: one full read, cheap in requests — the viewer, the open issues and
//     pull requests in one list each, only the closed items that can still
//     make a step, and per-item details (comments, reviews, the head's combined
//     status, the merge gate's newest run, commenters' permissions, the
//     ledger's audit entries) only for items that can become a step; the open
//     pull requests' details a page of 100 per GraphQL query (graphql.go),
//     independent lists side by side and a list's pages after the first by
//     a pool of four workers (pages.go), at most four requests in flight and
//     none sent while one sits out a secondary rate limit, and what it has
//     so far handed to WithProgress's function as it arrives;
//   - Warm: a new process's start from the last read kept on disk, two
//     conditional requests whatever the number of items (warm.go);
//   - Refresh: one `issues?state=all&since=…` query through the client's ETag
//     cache, then the details of the changed items only, so a refresh with
//     nothing changed is one request that GitHub does not count;
//   - Reread: exactly one item and what its step depends on, read again just
//     before a write;
//   - SaveCache/LoadCache: the last read kept per user outside the repository,
//     to show at once as cached and never to act on.
//
// It must not: write to GitHub or the ledger (actions/ does); decide which
// steps wait (model/inbox does); import Bubble Tea or print; hold or store a
// token or a device code; keep package-level mutable state. Text from GitHub
// stays raw here; the terminal sanitises it.
//
// What a refresh cannot see: a change that does not touch an issue's
// updated_at — a new commit status, a merge-gate run finishing, a ledger
// commit — waits for the next full Read, and every write is preceded by a
// Reread, which reads them again.
package inboxread
