// Package e2e holds aayu's end-to-end tests and nothing else: each drives
// aayu whole, in this process through cli.Run (as main calls it) or as the
// built binary in its own process or a tmux pane, against the sandbox
// GitHub (ghx/sandbox) on 127.0.0.1, and asserts what a person, an agent or
// CI sees: the exit code, the words printed, and what GitHub holds after.
//
// The tests use no unexported name of aayu's packages, so what they prove
// is what a user can reach. Where several tests run one scenario with
// small differences, they are one table whose cases read as data: the
// set-up, the command line, and the exit, words and GitHub state expected.
//
// Every Test function calls t.Parallel() or is listed in serialTests
// (parallel_test.go) with its reason.
package e2e
