// Package lazyre compiles a regular expression the first time it is used
// rather than when its package is initialised.
//
// Go runs every linked package's init before main, whatever the command, so a
// package-level regexp.MustCompile is paid by `aayu --version` as much as by
// the command that matches with it (docs/performance.md, Start-up). A pattern
// held as lazyre.New(...) costs nothing until its first call, and is compiled
// once however many goroutines call it.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles pattern on its first call and returns
// the same *regexp.Regexp on every call. Like regexp.MustCompile it panics if
// pattern does not compile; the package's tests hold every pattern to that
// (TestEveryProductionPatternCompiles), so the panic cannot wait for the
// first user who reaches a rare path.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
