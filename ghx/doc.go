// Package ghx is aayu's access to GitHub: the go-github v66 client and the
// transport under it, and the person's token.
//
// It owns:
//   - Token, a token that never prints its value, and ResolveHumanToken, the
//     fixed order of sources the person's token comes from (SPEC §6);
//     BotIdentity, which identity agent lanes write under;
//   - NewClient and its transport stack, outermost first: retry (backoff
//     with jitter for GET/HEAD, waiting out secondary rate limits, never
//     repeating a write that may have landed), the per-user conditional
//     request cache (304s cost no rate limit), request logging with secrets
//     masked, and authentication that sends the token to the API host only;
//   - ListAll for pagination; DownloadArtifact for Actions artifacts;
//     Describe, which turns any GitHub error into a sentence for a person;
//   - the ledger's plumbing: CommitFiles writes files as one commit through
//     the Git Data API (re-read and rebuilt on a moved branch, never
//     forced), ReadFile and ListTree read files and folders at a ref.
//
// It must not: import Bubble Tea or print to the terminal; decide policy
// (model/ does); decide to write (actions/ does, calling CommitFiles and
// go-github through this client); store or log a
// token, or keep anything in package-level mutable state. The sandbox
// GitHub server lives in ghx/sandbox and is not part of this package.
package ghx
