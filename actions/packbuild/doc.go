// Package packbuild is aayu verify's core: it runs the floors on a checkout of
// a pull request and assembles the proof pack (seed 000, "How it works"
// steps 3 to 6; SPEC §4).
//
// It owns: running go test -json -coverprofile in the checkout without
// network where the machine allows it; each criterion's evidence through
// proof.TestEvidence; the coverage floor on the lines the pull request
// changed; go vet; the scanners [verify] scanners names (govulncheck,
// staticcheck: pinned, run as their own programs, their reports in the
// pack); red on base for Bug stories (the mapped tests on a copy
// of the base commit with the pull request's test files in it); the pack
// (identity, advisory authority, footprint from the base branch's LAYERS.md,
// retention) written with proof.WriteLocal and verified with proof.VerifyDir
// before success is reported, carrying the bytes its floors are recounted
// from (every test's events, the coverage report) and a test-framing warning
// when the pull request adds or changes TestMain, init or test setup in a
// mapped test's package; and, for the sandbox, a local clone of the demo
// repository to verify.
//
// It must not import Bubble Tea or print to a terminal: progress leaves as
// typed Events through a callback. Every git and go invocation goes through
// Tools, which runs the real binaries. It never writes to GitHub or to the
// ledger, never touches the checkout's git state (no checkout, stash or
// worktree of the person's repository), and writes only under
// .aayudha/proof/STORY in the checkout and in temporary folders it removes.
package packbuild
