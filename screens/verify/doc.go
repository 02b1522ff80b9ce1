// Package verify is the verify screen: it runs aayu verify's floors on a
// checkout of the pull request in the background and shows each one as it
// runs (waiting, running with the test under way, passed, failed with the
// reason), then the pack's folder and SHA-256 and each criterion's verdict.
// The go test output stays one key away (o).
//
// Update does no I/O: preparing the checkout and the run itself are
// tea.Cmds into package actions/packbuild, whose progress arrives as typed events
// through a channel. The plain twin prints a line as each step starts and
// ends and never redraws; with --ci it is the merge gate's verify.
package verify
