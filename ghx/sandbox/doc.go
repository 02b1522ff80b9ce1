// Package sandbox is an in-process GitHub for aayu: an HTTP server on
// 127.0.0.1 that speaks the REST API the way go-github v66 expects it
// (status codes, error bodies, ETag/304, Link pagination, rate-limit
// headers, the Actions artifact 302/410, the Git Data API on real git
// objects) plus github.com's OAuth device-flow endpoints, seeded with the
// demo repository acme/benefits. It is what `aayu --sandbox` and
// `aayu sandbox` run and what the tests drive; the conformance
// sub-package checks its responses against GitHub's OpenAPI description.
//
// Accounts and tokens: sandbox-founder (admin), sandbox-writer (write),
// sandbox-reader (read), sandbox-agent-bot (the bot agent-bot[bot], write).
// The demo is solo: its agents wrote under the founder's token, tagged
// human-fallback, so the founder authors their pull requests and only the
// Solo-mode bypass passes them; Options.BotIdentity seeds it with
// agent-bot[bot] as the configured bot identity instead.
// Any other token gets GitHub's 401 "Bad credentials", unless a test names
// it in Options.ExtraTokens. Options.Faults injects failures at random
// (with a Seed, the same ones every run); Options.FaultPlan puts a chosen
// failure on a chosen request.
//
// The demo (numbers are stable; see the Demo* and Run* constants):
// #1, #2 Decisions; #3/#4 a Story and its PR ready to ship with every kind
// of merge-gate run; #5/#6 a PR at the human rung; #7/#8 a PR whose review
// stopped and whose pack does not verify; #9/#10 a Story merged without
// ship; #11/#12 a Bug whose fix merged; #13 replaced by #14; #15 merged on
// proof and waiting for its audit. The ledger branch holds Ready
// snapshots, packs, a ship record and the audit entry.
//
// The demo's packs and Ready snapshots are built with package proof's types,
// GoalHash and RenderReady, so they are exactly what aayu reads.
//
// The package owns its state (state.json and a bare git repository under
// Options.StateDir) and nothing else: it must not import package ghx or
// any screen, never reaches the network, and never logs a token.
package sandbox
